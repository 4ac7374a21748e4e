"""Post-route bufferization: which bypassable fifos on the routes a mapping
uses the configuration bypasses (LOOM's post-route FIFO bufferization;
map.json's fifo_configs and mapper_selected_buffered_fifo_* fields).

A bypassable fifo on a PE output (the `-f` presets) is that output's
register. Buffered on every route, a recurrence through k PEs pays k
cycles; a loop-carried value and its update then take two where the direct
RTL takes one. So the mapper bypasses fifos on the critical recurrences,
greedily and in a fixed order, while three rules hold (the direct flow's
own rules, design.md section 5, on the configured fabric):

- every ring of the configured fabric keeps a register on valid and one on
  ready (FabricTiming.combinational: no bypass that closes a ring of wires);
- a carry's or an invariant's output keeps its two slots, and a value with
  several consumers keeps its slot before the switches copy it (the
  liveness slots: they stay as they are on a fabric that bypasses nothing);
- a fifo off every recurrence stays buffered: its slots are the slack of
  reconvergent paths, as the direct flow's placement keeps them.

Every recurrence is cut down, not only the critical one the model names:
a ring the model ranks second still holds its tokens' slots, and on sum_n
an accumulation ring of three registers beside a memory ring of four ran
the loop at 6.5 cycles an iteration. The fifos on recurrence channels are
tried in channel order, then along each route; one is bypassed when the
rules still hold. Bypassing only removes cycles, so no loop's bound grows.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from loom.fabric.adg_view import AdgView
from loom.mapper.throughput import FabricTiming
from loom.scc import strongly_connected

if TYPE_CHECKING:
    from loom.mapper.mapping import Mapping

LIVENESS_OPS = ("dataflow.carry", "dataflow.invariant")
"""Ops whose outputs keep two slots (design.md section 5's liveness rule)."""


def adg_bypassed(view: AdgView) -> frozenset[str]:
    """The fifos the ADG itself marks `bypassed` (LOOM copies the hint)."""
    return frozenset(n.name for n in view.of_kind("fifo") if "bypassed" in n.op.attributes)


def bufferize(m: Mapping, view: AdgView) -> frozenset[str]:
    """The fifos mapping `m` bypasses: the ADG's hints, and on a routed
    mapping the ones the module docstring's steps pick."""
    bypassed = adg_bypassed(view)
    timing = FabricTiming.of(m, view) if m.ok else None
    if not isinstance(timing, FabricTiming) or timing.combinational(bypassed):
        return bypassed   # no model, or the ADG's own hints already close a ring
    allowed = _candidates(m, view)
    for fifo in _on_rings(timing, bypassed):
        if fifo in allowed and not timing.combinational(bypassed | {fifo}):
            bypassed |= {fifo}
    return bypassed


def _candidates(m: Mapping, view: AdgView) -> frozenset[str]:
    """Bypassable fifos on the routes whose producer needs no liveness slot."""
    uses: dict[tuple[int, int], int] = {}
    for e in m.sw.edges:
        uses[e.src, e.src_index] = uses.get((e.src, e.src_index), 0) + 1
    free: set[str] = set()
    kept: set[str] = set()
    for e in m.sw.edges:
        op = m.sw.nodes[e.src].op
        liveness = uses[e.src, e.src_index] > 1 or (op is not None and op.name in LIVENESS_OPS)
        (kept if liveness else free).update(_fifos(m, e.id))
    bypassable = {n.name for n in view.of_kind("fifo") if "bypassable" in n.definition.attributes}
    return frozenset((free - kept) & bypassable)


def _fifos(m: Mapping, edge: int) -> list[str]:
    path = m.paths[edge] or []
    return [hw.name for port in path[1::2]
            if (hw := m.adg.nodes[m.adg.ports[port].node]).kind == "fifo"]


def _on_rings(timing: FabricTiming, bypassed: frozenset[str]) -> list[str]:
    """The fifos the routes of recurrence channels pass, buffered, in
    channel order then route order."""
    succ: dict[int, list[int]] = {}
    for e in timing.direct.flow_edges:
        succ.setdefault(e.src, []).append(e.dst)
    nodes = sorted(succ.keys() | {v for vs in succ.values() for v in vs})
    ring = {c for comp in strongly_connected(nodes, succ)
            if len(comp) > 1 or comp[0] in succ.get(comp[0], ()) for c in comp}
    routes = timing.routes(bypassed)
    out: list[str] = []
    for ch in sorted(ring & routes.keys()):
        out += [r for r in routes[ch].registers if r not in out]
    return out


__all__ = ["LIVENESS_OPS", "adg_bypassed", "bufferize"]
