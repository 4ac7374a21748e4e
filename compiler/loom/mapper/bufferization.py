"""Post-route bufferization: which bypassable fifos on the routes a mapping
uses the configuration bypasses (LOOM's post-route FIFO bufferization;
map.json's fifo_configs).

A bypassable fifo on a PE output (the `-f` presets) is that output's
register. Buffered on every route, a recurrence through k PEs pays k
cycles; a loop-carried value and its update then take two where the direct
RTL takes one. Bypassed, our fifo passes a token in the cycle it arrives
while empty and keeps its slots and its registered ready
(docs/fabric/fifo.md): bypassing changes latency, never capacity. So the
mapper bypasses the fifos on the recurrences, in a fixed order, as long as
the direct flow's register rule (design.md section 5) holds on the
configured fabric: every ring it uses keeps a register on valid and one on
ready (FabricTiming.combinational, which counts a bypassed fifo as a wire
on both, the safe side). The liveness slots are where a fabric that
bypasses nothing has them, so its liveness argument carries over.

Every recurrence is cut down, not only the critical one the model names:
a ring the model ranks second still couples the loop's units, and on sum_n
an accumulation ring of three registers beside a memory ring of four ran
the loop at 6.5 cycles an iteration. A fifo off every recurrence stays
buffered (it costs no loop a cycle and keeps long paths registered). The
fifos on recurrence channels are tried in channel order, then along each
route, each bypassed when the rule still holds; bypassing only removes
cycles, so no loop's bound grows.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from loom.fabric.adg_view import AdgView
from loom.mapper.throughput import FabricTiming
from loom.scc import strongly_connected

if TYPE_CHECKING:
    from loom.mapper.mapping import Mapping


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
    bypassable = {n.name for n in view.of_kind("fifo") if "bypassable" in n.definition.attributes}
    for fifo in _on_rings(timing, bypassed):
        if fifo in bypassable and not timing.combinational(bypassed | {fifo}):
            bypassed |= {fifo}
    return bypassed


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


__all__ = ["adg_bypassed", "bufferize"]
