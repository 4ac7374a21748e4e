"""Post-route bufferization: which bypassable fifos on the routes a mapping
uses the configuration bypasses (LOOM's post-route FIFO bufferization;
map.json's fifo_configs).

On the `-f` presets a bypassable fifo sits on every PE output (that
output's register) and every PE input. Bypassed, our fifo passes a token
in the cycle it arrives while empty and keeps its slots and its registered
ready (docs/fabric/fifo.md): bypassing changes latency, never capacity. So
the mapper bypasses every fifo on its routes that the direct flow's
register rule (design.md section 5) lets go: every ring of the configured
fabric keeps a register on valid and one on ready (FabricTiming.
combinational, which counts a bypassed fifo as a wire on both, the safe
side). The liveness slots are where a fabric that bypasses nothing has
them, so its liveness argument carries over.

Order: the fifos on recurrence channels first (channel order, then along
each route), each bypassed when the rule still holds, so each ring keeps
the last register it passes; then the fifos off every recurrence, all at
once when the rule holds (a ring of ready-only arcs would stop that: then
one at a time). Bypassing only removes cycles, so no loop's bound grows.
Measured on chess-8x8-ext2-f (--ideal kernel cycles): buffered everywhere,
sum_n took 2,264; bypassed on recurrences only, 1,812; with the input
fifos and everything bypassed, 608 (presets.INPUT_FIFO_DEPTH). A fifo off
the recurrences lengthens the long side of reconvergent paths, which the
short side's slots must then cover. Nothing here models the clock period
(LOOM's bufferization also cuts long combinational paths): a bypassed
route is combinational from register to register.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from loom.fabric.adg_view import AdgView
from loom.mapper.throughput import FabricTiming, route_fifos
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
    ring = _on_rings(timing, bypassed)
    for fifo in ring:
        if fifo in bypassable and not timing.combinational(bypassed | {fifo}):
            bypassed |= {fifo}
    routed = {name for e in m.sw.edges for name in route_fifos(m.paths[e.id] or [], m.adg)}
    off = sorted(routed & bypassable - set(ring))
    if not timing.combinational(bypassed | set(off)):
        return bypassed | set(off)
    for fifo in off:   # a ring of ready-only arcs (no flow ring sees it): one at a time
        if not timing.combinational(bypassed | {fifo}):
            bypassed |= {fifo}
    return bypassed


def _on_rings(timing: FabricTiming, bypassed: frozenset[str]) -> list[str]:
    """The fifos the routes of recurrence channels pass, not yet bypassed,
    in channel order then route order."""
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
