"""What a mapping uses: the numbers `loom map` prints and bench/mapper.py
tabulates."""

from __future__ import annotations

from dataclasses import dataclass

from loom.mapper.mapping import Mapping


@dataclass(frozen=True)
class MapStats:
    ops: int
    """DFG nodes that need hardware (ops and memories)."""
    pes: int
    switches: int
    """Switches some route passes through, a memory's bridge switches not
    counted (their paths are fixed: bridges.py)."""
    hops: int
    """Routing nodes traversed, summed over DFG edges (bridges included)."""
    worst_switch: str
    worst_outputs: tuple[int, int]
    """(outputs in use, outputs) of the switch with the highest share in use,
    of those counted in `switches`."""
    folded: int = 0
    """Constants hosted inside their op's unit (contraction.py)."""
    fallback: bool = False
    """The mapping is of the DFG without folds: the contracted view did not fit."""
    wires: int = 0
    """Casts that are wires inside the fabric, read by their op's unit."""
    pairs: int = 0
    """Ops paired with another of their name in one unit (two branches)."""

    def line(self) -> str:
        used, total = self.worst_outputs
        worst = f"{self.worst_switch} {used}/{total}" if total else "-"
        parts = [f"{self.folded} constants folded into their ops' units"] if self.folded else []
        parts += [f"{self.wires} casts wires"] if self.wires else []
        parts += [f"{self.pairs} op pairs sharing a unit"] if self.pairs else []
        folds = (" (fallback view: nothing folded)" if self.fallback else
                 f" ({', '.join(parts)})" if parts else "")
        return (f"{self.ops} ops{folds}, {self.pes} PEs, {self.switches} switches, {self.hops} hops, "
                f"busiest switch {worst} outputs")


def map_stats(m: Mapping) -> MapStats:
    ops = sum(1 for n in m.sw.nodes if n.kind in ("op", "memory"))
    pes = {o.candidate.pe for o in m.placement.chosen if o is not None and o.candidate}
    bridged = {m.adg.ports[p].node for o in m.placement.chosen if o is not None
               for _, path in o.bridges for p in path}
    used_outputs: dict[int, set[int]] = {}
    hops = 0
    for path in m.paths:
        if not path or path[0] == path[-1]:
            continue
        hops += (len(path) - 2) // 2
        for p in path[2:-1:2]:  # outputs inside routing nodes
            node = m.adg.nodes[m.adg.ports[p].node]
            if node.kind in ("spatial_sw", "temporal_sw") and node.id not in bridged:
                used_outputs.setdefault(node.id, set()).add(p)
    worst, share = "", (0, 0)
    for node_id, outs in sorted(used_outputs.items()):
        total = len(m.adg.nodes[node_id].outputs)
        if not share[1] or len(outs) * share[1] > share[0] * total:
            worst, share = m.adg.nodes[node_id].name, (len(outs), total)
    view = m.problem.contraction
    return MapStats(ops, len(pes), len(used_outputs), hops, worst, share,
                    view.constants, view.fallback, len(view.wired), len(view.partner))


__all__ = ["MapStats", "map_stats"]
