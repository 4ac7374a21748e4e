"""RTL traces against the golden model: per channel, then results and memories.

Kahn semantics: buffering and stalls change when tokens move, never which
tokens a channel carries. So each channel's RTL token sequence must equal the
golden one (a prefix on deadlock, and then the run fails). The first
divergence is the earliest cycle at which any channel left the golden stream.
With several invocations a channel's stream is the concatenation over them,
and a divergence names the invocation its token belongs to.
"""

from __future__ import annotations

import struct
from collections.abc import Sequence
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any

from loom.bundle import Outcome
from loom.rtl.netlist import FORK_FAMILIES, Channel, Netlist
from loom.rtl.timing import unit_timing



@dataclass
class RtlTrace:
    transfers: dict[int, list[tuple[int, Any]]] = field(default_factory=dict)  # id -> (cycle, value)
    stuck: list[tuple[int, int]] = field(default_factory=list)                   # (cycle, id)
    left: list[int] = field(default_factory=list)
    """Ids where the fabric harness found a token left after the run (fabric_tb.sv.j2)."""
    last_cycle: int = 0

    @property
    def tokens(self) -> int:
        return sum(len(v) for v in self.transfers.values())


RECORD = struct.Struct("<IIQ")   # cycle, channel id with flags, value (kernel_top.sv.j2)
_STUCK, _CONTROL = 1 << 31, 1 << 30
_LEFT = _STUCK | _CONTROL   # both: never a stuck control channel of the direct flow


def read_trace(path: Path) -> RtlTrace:
    """The binary trace the top's LOOM_SIM block writes: 16-byte records."""
    trace = RtlTrace()
    if not path.exists():
        return trace
    data = path.read_bytes()
    usable = len(data) - len(data) % RECORD.size
    transfers = trace.transfers
    last = 0
    for cycle, ident, value in RECORD.iter_unpack(data[:usable]):
        if ident & _LEFT == _LEFT:   # written after the run: not a cycle of it
            trace.left.append(ident & ~_LEFT)
            continue
        last = cycle
        if ident & _STUCK:
            trace.stuck.append((cycle, ident & ~_STUCK))
        elif ident & _CONTROL:
            transfers.setdefault(ident & ~_CONTROL, []).append((cycle, None))
        else:
            transfers.setdefault(ident, []).append((cycle, value))
    trace.last_cycle = last
    return trace


@dataclass
class Divergence:
    channel: str
    producer: str
    consumer: str
    index: int
    expected: Any
    got: Any
    cycle: int | None
    channel_index: int = 0
    invocation: str = ""          # e.g. " (invocation 1)" when there are several
    offered_only: str | None = None   # offered, never taken: the channel it was seen on
    label: str = ""               # how to name the channel instead ("DFG edge 3 'x'")
    route: str = ""               # the hardware it passed through, when known

    def describe(self) -> str:
        exp = "nothing" if self.expected is _MISSING else _fmt(self.expected)
        got = "nothing" if self.got is _MISSING else _fmt(self.got)
        if self.offered_only is not None:
            got = f"a token offered and never taken (seen as {got} on '{self.offered_only}')"
        when = f"at cycle {self.cycle}" if self.cycle is not None else "by the end of the run"
        name = self.label or f"channel '{self.channel}'"
        route = f"; route: {self.route}" if self.route else ""
        return (f"first divergence on {name} (from {self.producer} to "
                f"{self.consumer}{route}), token {self.index}{self.invocation}: expected {exp}, "
                f"got {got} {when}")


_MISSING = object()


def _fmt(v: Any) -> str:
    return "control token" if v is None else str(v)


def _end(net: Netlist, ch: Channel, which: str) -> str:
    """The op at one end of a channel; a buffer the netlist added is looked through."""
    if which == "sink":
        copies = [c for c in net.channels if c.copy_of is ch]
        if copies:
            ch = copies[-1]
    end = ch.driver if which == "driver" else ch.sink
    if end is None:
        if which == "driver":
            return "the top input"
        return f"the top output '{ch.top_output}'" if ch.top_output else "nothing (discarded)"
    return end[0].origin


def invocation_number(name: str, index: int, trace_ends: list[dict[str, int]]) -> int:
    """The invocation token `index` of a channel belongs to (past the last: their count)."""
    return next((k for k, ends in enumerate(trace_ends) if index < ends.get(name, 0)),
                len(trace_ends))


def invocation_of(name: str, index: int, trace_ends: list[dict[str, int]]) -> str:
    """Which invocation token `index` of a channel belongs to ('' with one)."""
    if len(trace_ends) < 2:
        return ""
    k = invocation_number(name, index, trace_ends)
    return f" (invocation {k})" if k < len(trace_ends) else " (after the last invocation)"


def first_divergence(net: Netlist, trace: RtlTrace, golden: dict[str, list[Any]],
                     trace_ends: list[dict[str, int]] | None = None) -> Divergence | None:
    """`trace_ends`: per golden invocation, each channel's trace length at its end."""
    found: list[Divergence] = []
    for ch in net.channels:
        if not ch.traced:
            continue
        miss = first_mismatch(golden.get(ch.name, []), trace.transfers.get(ch.index, []))
        if miss is not None:
            i, e, g, cycle = miss
            found.append(Divergence(ch.name, _end(net, ch, "driver"), _end(net, ch, "sink"),
                                    i, e, g, cycle, ch.index,
                                    invocation_of(ch.name, i, trace_ends or [])))
    if not found:
        return None
    return _blame(net, [_offered_upstream(net, trace, golden, d) for d in found])


def first_mismatch(expected: Sequence[Any], got: Sequence[tuple[int, Any]]
                   ) -> tuple[int, Any, Any, int | None] | None:
    """Where a channel's (cycle, value) transfers `got` first leave its golden
    stream: (token index, expected value, got value, its cycle); a token one
    side lacks is _MISSING (and its cycle None). None: the streams are equal."""
    for i in range(max(len(expected), len(got))):
        e = expected[i] if i < len(expected) else _MISSING
        g, cycle = (got[i][1], got[i][0]) if i < len(got) else (_MISSING, None)
        if e is _MISSING or g is _MISSING or e != g:
            return i, e, g, cycle
    return None


def _feeding(net: Netlist, inst) -> list[Channel]:
    """The traced channels into a unit (a buffer's output stands for its DFG edge)."""
    return [ch.copy_of or ch for ch in net.channels if ch.sink is not None and ch.sink[0] is inst]


def _runs_ahead(inst) -> bool:
    """A unit that offers its output's token k while token k is still offered
    on its input: an eager fork (an output takes its copy before the input
    completes), a unit whose output valid is its input's (a cast)."""
    arcs = unit_timing(inst.spec).arcs
    return inst.spec.family in FORK_FAMILIES or \
        bool(arcs) and all(a.valid_comb and not a.latency for a in arcs)


def _offered_upstream(net: Netlist, trace: RtlTrace, golden: dict[str, list[Any]],
                      d: Divergence) -> Divergence:
    """A wrong or extra token k seen on a fork output whose input completed
    tokens 0..k-1 and not k was made upstream: it is still offered on the
    input. Follow it up through the forks and one-input pass-through units
    whose input stopped there, to the channel where it was made. `got` then
    names where it was seen."""
    if d.got is _MISSING:
        return d
    by_name = {ch.name: ch for ch in net.channels}
    ch, k, seen = by_name[d.channel], d.index, None
    while ch.driver is not None:
        inst = ch.driver[0]
        feeding = _feeding(net, inst)
        if len(feeding) != 1 or not _runs_ahead(inst):
            break
        up, want = feeding[0], golden.get(feeding[0].name, [])
        if len(trace.transfers.get(up.index, [])) != k:
            # the input completed token k (the unit made what it shows), or
            # it is behind by more than the one token a fork output may run
            # ahead (the unit made up tokens)
            break
        # forks copy the token; another unit changes it, so only an extra
        # token (none in the golden run) can be followed through it
        if k < len(want) and (inst.spec.family not in FORK_FAMILIES or want[k] == d.got):
            break
        ch, seen = up, seen or d.channel
    if seen is None:
        return d
    expected = golden.get(ch.name, [])
    return replace(d, channel=ch.name, producer=_end(net, ch, "driver"),
                   consumer=_end(net, ch, "sink"), channel_index=ch.index,
                   expected=expected[k] if k < len(expected) else _MISSING,
                   offered_only=seen)


def _order(d: Divergence) -> tuple[bool, int, int]:
    return (d.cycle is None, d.cycle or 0, d.channel_index)


def _blame(net: Netlist, found: list[Divergence]) -> Divergence:
    """The divergence to report: where the first wrong token was made.

    A wrong or extra token flows downstream (through forks, casts, ...) and
    an eager fork shows it on an output before its input completes the
    transfer, so the earliest cycle alone can name a bystander. The maker is
    a unit whose inputs carried only golden tokens while an output did not.
    Missing tokens are symptoms of blocking; they count only when nothing
    was wrong.
    """
    inputs: dict[str, list[str]] = {}
    for ch in net.channels:
        if ch.sink is not None:
            inputs.setdefault(ch.sink[0].name, []).append(ch.name)
    feeding = {ch.name: inputs.get(ch.driver[0].name, []) if ch.driver is not None else []
               for ch in net.channels}
    return blame(found, feeding)


def blame(found: list[Divergence], feeding: dict[str, list[str]],
          stage: dict[str, int] | None = None) -> Divergence:
    """Of the divergences `found` (one per channel), the one whose wrong
    token was made where it shows: on a channel none of whose producer's
    inputs (`feeding`: channel -> the channels into its producer) carried a
    wrong or extra token; the earliest such. Missing tokens alone: the
    earliest; with `stage` (channel -> the invocation of its missing token),
    of the earliest invocation, a channel whose producer's inputs missed
    nothing of that invocation or before (where the flow stopped)."""
    active = {d.channel: d for d in found if d.got is not _MISSING}
    if not active and stage is not None:
        def stopped_here(d: Divergence) -> bool:
            return not any(name in stage and stage[name] <= stage[d.channel]
                           for name in feeding.get(d.channel, []))
        stopped = [d for d in found if stopped_here(d)] or found
        return min(stopped, key=lambda d: (stage[d.channel], _order(d)))
    if not active:
        return min(found, key=_order)
    roots = [d for d in active.values()
             if not any(name in active for name in feeding.get(d.channel, []))]
    return min(roots or list(active.values()), key=_order)


def stuck_channels(net: Netlist, trace: RtlTrace) -> list[str]:
    by_id = {ch.index: ch for ch in net.channels}
    return [f"'{by_id[i].name}' (from {_end(net, by_id[i], 'driver')} to {_end(net, by_id[i], 'sink')})"
            for _, i in trace.stuck]


def short_channels(net: Netlist, trace: RtlTrace, golden: dict[str, int]) -> list[str]:
    """Channels that carried fewer tokens than the golden run (`golden`: each
    channel's token count): where the flow stopped."""
    out = []
    for ch in net.channels:
        if not ch.traced:
            continue
        want, got = golden.get(ch.name, 0), len(trace.transfers.get(ch.index, []))
        if got < want:
            out.append(f"'{ch.name}' {got}/{want} tokens (consumer {_end(net, ch, 'sink')})")
    return out


STATE_MACHINES = ("stream", "gate", "carry", "invariant")


def busy_state_machines(net: Netlist, trace: RtlTrace) -> list[str]:
    """Dataflow state machines not in their initial phase when the run stopped.

    Each machine's phase is that of its golden actor fed exactly the tokens
    the RTL unit took on its inputs (Kahn: the same inputs, the same state).
    """
    from loom.golden.actor import drive_actor
    from loom.golden.build import FACTORIES

    feeding: dict[tuple[str, str, int | None], Channel] = {}
    for ch in net.channels:
        if ch.sink is not None:
            feeding[(ch.sink[0].name, ch.sink[1], ch.sink[2])] = ch
    busy = []
    for inst in net.instances:
        if inst.spec.family not in STATE_MACHINES or inst.op is None:
            continue
        streams = []
        for port in inst.spec.inputs:
            ch = feeding.get((inst.name, port.name, None))
            source = ch.copy_of or ch if ch else None
            streams.append([v for _, v in trace.transfers.get(source.index, [])] if source else [])
        actor = FACTORIES[inst.op.name](inst.op)
        drive_actor(actor, streams)
        if not actor.idle():
            busy.append(f"{inst.origin} in phase {actor.phase()}")
    return busy


def read_memory(path: Path) -> list[int]:
    values = []
    if not path.exists():
        return values
    for line in path.read_text().split("\n"):
        line = line.split("//")[0].strip()
        if line and not line.startswith("@"):
            values.extend(int(tok, 16) for tok in line.split())
    return values


def rtl_outcome(net: Netlist, trace: RtlTrace, memories: dict[int, list[int]],
                invocations: int) -> Outcome:
    """Token k of each result port is invocation k's result; None: it never came."""
    streams, widths = [], []
    for p in net.outputs:
        if p.name == "done" or p.channel is None:
            continue
        streams.append(trace.transfers.get((p.channel.copy_of or p.channel).index, []))
        widths.append(p.width)
    results = [[got[k][1] if k < len(got) else None for got in streams]
               for k in range(invocations)]
    return Outcome(results=results, memories=memories, result_widths=widths)
