"""A fabric run against the golden model, DFG edge by DFG edge.

Each edge's tokens where its route ends (loom.sim.fabric_edges) must be the
golden stream of that edge, value bits only (Kahn: routing, buffering and
stalls change when tokens move, never which). The first divergence is
chosen as in the direct flow (loom.sim.compare.blame): the edge whose
producer saw only golden tokens while the edge did not. A run that stops
names its stuck routes: edges whose end port is valid && !ready when the
watchdog fired, and edges short of their golden token count. An edge
short of tokens while its next one waits at its end port delivered what
it could: its consumer did not take it (a unit waiting for another
operand), so the blame goes to an edge whose tokens did not arrive.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from loom.golden.scheduler import Execution
from loom.sim.compare import (
    Divergence,
    RtlTrace,
    blame,
    first_mismatch,
    invocation_number,
    invocation_of,
)
from loom.sim.fabric_edges import EdgeMap, EdgeProbe


@dataclass
class EdgeCheck:
    divergence: Divergence | None
    stuck: list[str] = field(default_factory=list)
    short: list[str] = field(default_factory=list)
    tokens: int = 0
    """Tokens seen on the observed edges."""


def observed(p: EdgeProbe, trace: RtlTrace,
             outputs: dict[str, list[tuple[int, int]]]) -> list[tuple[int, Any]]:
    """The (cycle, compared value) transfers at the end of an edge's route."""
    got = outputs.get(p.output, []) if p.output is not None else \
        trace.transfers.get(p.tap, []) if p.tap is not None else []
    return [(cycle, p.mask(v)) for cycle, v in got]


def expected(p: EdgeProbe, golden: Execution) -> list[Any]:
    return [p.mask(v) for v in (golden.traces or {}).get(p.channel, [])]


def check_edges(edges: EdgeMap, trace: RtlTrace, outputs: dict[str, list[tuple[int, int]]],
                golden: Execution) -> EdgeCheck:
    """Every observed edge against its golden stream (`golden` recorded traces)."""
    check = EdgeCheck(None)
    found: list[Divergence] = []
    short: list[tuple[int, str]] = []   # (the invocation it stopped in, description)
    by_tap: dict[int, list[EdgeProbe]] = {}
    waiting = {tap for _, tap in trace.stuck}
    for p in edges.probes:
        if p.tap is not None:
            by_tap.setdefault(p.tap, []).append(p)
        want, got = expected(p, golden), observed(p, trace, outputs)
        check.tokens += len(got)
        if len(got) < len(want):
            short.append((invocation_number(p.channel, len(got), golden.trace_ends),
                          f"{p.label} {len(got)}/{len(want)} tokens "
                          f"(to {p.consumer}; route: {p.route})"))
        miss = first_mismatch(want, got)
        if miss is not None:
            i, e, g, cycle = miss
            if i >= len(got) and p.tap in waiting:
                continue   # delivered: its next token waits for its consumer
            found.append(Divergence(p.channel, p.producer, p.consumer, i, e, g, cycle, p.edge,
                                    invocation_of(p.channel, i, golden.trace_ends),
                                    label=p.label, route=p.route))
    # where the flow stopped first: the edges short of an early invocation
    check.short = [line for _, line in sorted(short, key=lambda x: x[0])]
    check.stuck = [f"{p.label} (to {p.consumer}; route: {p.route})"
                   for _, tap in trace.stuck for p in by_tap.get(tap, [])]
    if found:
        feeding = {p.channel: [q.channel for q in edges.probes if q.dst == p.src]
                   for p in edges.probes}
        stage = {d.channel: invocation_number(d.channel, d.index, golden.trace_ends)
                 for d in found}
        check.divergence = blame(found, feeding, stage)
    return check
