"""Memory lanes on a mesh's boundary switches, in lane groups: on the
memory's side (a chess preset's default), or around all four sides (its
`-ring`).

A chess preset puts each memory on the left or the right side. A memory of
many lanes then ends on one side's switches, every switch asked for more
distinct lanes than it has fabric inputs: sha256_block's local array of 64
store lanes (192 request and response lanes) did not route on 20x20 or
24x24; `-ring` spreads the lanes of all memories around the ring.

Each software lane of a memory is a *lane group*: a load lane k is its
request ld_addr k and its responses ld_data k and ld_done k; a store lane k
its requests st_addr k and st_data k and its response st_done k. The mapper
binds software lane k to hardware lane k (mapper/placement.py), so a group's
ports are where one load or store op sends and receives: they sit on one
boundary switch, so the done token a load or store waits for before its
next access comes back where its request left (a loop's memory-control
recurrence stays at the memory port; issue 30). The groups of the memories
are interleaved (each memory's groups evenly through the order) and spread
evenly over the side's (or the ring's) boundary switches, corners left out
(they have the fewest fabric links). On a side, a group has a switch to
itself and a free one beside it; a side with more groups than that keeps
the presets' port-by-port spreading (fabric/presets.py).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field

from loom.diagnostics import LoomError
from loom.fabric.builder import PortRef
from loom.fabric.memory_bridge import ExtMemorySpec
from loom.fabric.topology import SidePorts

RING = ("left", "bottom", "right", "top")
"""The walk around the mesh (left side top to bottom, bottom left to right, ...)."""


@dataclass(frozen=True)
class LaneGroup:
    memory: int
    """Index into the memories given to `ring_layout`."""
    requests: tuple[tuple[str, int], ...]
    responses: tuple[tuple[str, int], ...]
    """(family, lane) of the group's ports."""


@dataclass
class RingLayout:
    """Boundary port counts per side, and which lane group each switch hosts."""

    sides: dict[str, SidePorts]
    slots: dict[tuple[str, int], list[LaneGroup]] = field(default_factory=dict)
    """(side, switch index along the side) -> its groups, in port order."""
    scalar_inputs: list[int] = field(default_factory=list)
    scalar_outputs: list[int] = field(default_factory=list)
    """Per top (bottom) switch: how many of its first ports are scalar inputs (outputs)."""


def lane_groups(m: int, spec: ExtMemorySpec) -> list[LaneGroup]:
    """A memory's groups: its load lanes, then its store lanes."""
    loads = [LaneGroup(m, (("ld_addr", k),), (("ld_data", k), ("ld_done", k)))
             for k in range(spec.ld)]
    stores = [LaneGroup(m, (("st_addr", k), ("st_data", k)), (("st_done", k),))
              for k in range(spec.st)]
    return loads + stores


def paired_groups(m: int, spec: ExtMemorySpec) -> list[LaneGroup]:
    """A memory's groups, load and store lanes alternating (ld0 st0 ld1 ...):
    a loop that loads and stores one array uses lane 0 of each, and the
    recurrence through both crosses the rows between them twice, once
    against the body order (a link register a row; issue 30). A side's
    order; around the ring, sha256_block's 64 store lanes so dealt did not
    route on its 20x20 in the default rounds."""
    groups = lane_groups(m, spec)
    loads, stores = groups[:spec.ld], groups[spec.ld:]
    paired = [g for pair in zip(loads, stores) for g in pair]
    return paired + loads[len(stores):] + stores[len(loads):]


def interleave(per_memory: Sequence[Sequence[LaneGroup]]) -> list[LaneGroup]:
    """Every memory's groups evenly through one order (group j of n at (j + 1/2) / n)."""
    keyed = [((j + 0.5) / len(groups), m, j, g) for m, groups in enumerate(per_memory)
             for j, g in enumerate(groups)]
    return [g for *_, g in sorted(keyed, key=lambda t: t[:3])]


def _switches_along(rows: int, cols: int) -> dict[str, int]:
    """Switches per side of a rows x cols PE mesh (corners on two sides)."""
    return {"left": rows + 1, "right": rows + 1, "top": cols + 1, "bottom": cols + 1}


def _ring_slots(rows: int, cols: int) -> list[tuple[str, int]]:
    """Non-corner boundary switches of an (rows+1) x (cols+1) switch grid, walking RING.

    Indices are along each side in topology's side order (left/right by row,
    top/bottom by column); the walk reverses the right and top sides."""
    along = _switches_along(rows, cols)
    slots = []
    for side in RING:
        inner = list(range(1, along[side] - 1))
        slots += [(side, i) for i in (reversed(inner) if side in ("right", "top") else inner)]
    return slots


def ring_layout(rows: int, cols: int, specs: Sequence[ExtMemorySpec], scalar_inputs: list[int],
                scalar_outputs: list[int]) -> RingLayout:
    """Spread the memories' lane groups around the mesh; `scalar_inputs`
    (`scalar_outputs`) are the top (bottom) switches' scalar port counts."""
    groups = interleave([lane_groups(m, s) for m, s in enumerate(specs)])
    slots = _ring_slots(rows, cols)
    if groups and not slots:
        raise LoomError(f"-ring: a {rows}x{cols} mesh has no side switch between its corners "
                        "for memory lanes (it needs 2 rows or 2 columns)")
    layout = RingLayout({}, {s: [] for s in slots}, scalar_inputs, scalar_outputs)
    for i, g in enumerate(groups):
        layout.slots[slots[i * len(slots) // len(groups)]].append(g)
    _count_ports(layout, rows, cols)
    return layout


def side_layout(rows: int, specs: Sequence[ExtMemorySpec], scalar_inputs: list[int],
                scalar_outputs: list[int], cols: int) -> RingLayout | None:
    """Memories alternately on the left and right sides (memory 0 left), each
    side's lane groups (its memories' groups interleaved) on every other
    switch of a block centred on the side (corners left out): a free switch
    between two groups, and no more rows between them than that (a
    recurrence through two lanes pays a link register per row: while_sum's
    lanes four rows apart on chess-8x8-ext2-f cost it four cycles an
    iteration); None when a side has more groups than that allows (the
    preset then spreads the families' ports along the side instead: groups
    on one switch or on neighbours ask those switches for more distinct
    lanes than their fabric links bring: shifts, two memories a side on
    chess-8x8-ext4, did not route within the default rounds).
    `scalar_inputs` (`scalar_outputs`) as for ring_layout."""
    layout = RingLayout({}, {}, scalar_inputs, scalar_outputs)
    inner = list(range(1, rows))
    for side, first in (("left", 0), ("right", 1)):
        groups = interleave([paired_groups(m, specs[m]) for m in range(first, len(specs), 2)])
        if 2 * len(groups) > len(inner):
            return None
        start = (len(inner) - (2 * len(groups) - 1)) // 2
        for i, g in enumerate(groups):
            layout.slots[(side, inner[start + 2 * i])] = [g]
    _count_ports(layout, rows, cols)
    return layout


def _count_ports(layout: RingLayout, rows: int, cols: int) -> None:
    """Each side's boundary port counts from its scalars and its slots' groups."""
    for side, n in _switches_along(rows, cols).items():
        ins, outs = [0] * n, [0] * n
        if side == "top":
            ins = list(layout.scalar_inputs)
        if side == "bottom":
            outs = list(layout.scalar_outputs)
        for i in range(n):
            for g in layout.slots.get((side, i), []):
                ins[i] += len(g.responses)
                outs[i] += len(g.requests)
        layout.sides[side] = SidePorts(inputs=ins, outputs=outs)


def assign_ports(layout: RingLayout, ingress: dict[str, list[PortRef]],
                 egress: dict[str, list[PortRef]], specs: Sequence[ExtMemorySpec]
                 ) -> tuple[list[PortRef], list[PortRef], list[list[PortRef]], list[list[PortRef]]]:
    """The mesh's boundary ports, dealt as `layout` says: (scalar inputs,
    scalar outputs, each memory's request ports in family order, its response
    ports in family order), as attach_extmemory and attach_memory take them."""
    port_of: dict[tuple[int, str, int], PortRef] = {}
    scalars: dict[str, list[PortRef]] = {"top": [], "bottom": []}
    for side, ports in layout.sides.items():
        ins, outs = iter(ingress[side]), iter(egress[side])
        for i in range(len(ports.inputs)):
            if side == "top":
                scalars["top"] += [next(ins) for _ in range(layout.scalar_inputs[i])]
            if side == "bottom":
                scalars["bottom"] += [next(outs) for _ in range(layout.scalar_outputs[i])]
            for g in layout.slots.get((side, i), []):
                port_of.update({(g.memory, *lane): next(outs) for lane in g.requests})
                port_of.update({(g.memory, *lane): next(ins) for lane in g.responses})
    requests = [[port_of[(m, kind, k)] for kind, n in s.request_lanes for k in range(n)]
                for m, s in enumerate(specs)]
    responses = [[port_of[(m, kind, k)] for kind, n in s.response_lanes for k in range(n)]
                 for m, s in enumerate(specs)]
    return scalars["top"], scalars["bottom"], requests, responses


__all__ = ["LaneGroup", "RingLayout", "assign_ports", "interleave", "lane_groups",
           "paired_groups", "ring_layout", "side_layout"]
