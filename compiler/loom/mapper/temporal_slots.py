"""The instruction slots a mapping fills in temporal PEs, with their tags
(LOOM's spec-mapper-model.md, "Temporal PE Contract").

An op placed on a temporal PE takes one slot (placement.Option.slot). The
slot's tag is the runtime tag its operands arrive with: each routed edge
into the op carries the tag bridges.tag_at finds at its last port (the
add_tag before it, rewritten by the map_tags between); a slot fed only
by registers takes a tag no other slot of its PE holds. Its results leave
tagged with the slot's own tag (LOOM's result-tag default). A memory lane
wired to the PE without a bridge (LOOM's memory-tagged-direct-boundary
case) fixes the tag of the slot that uses it: its response arrives with the
lane's tag, and its request must leave with it. C5 (temporal legality): the
operands of one slot arrive with one tag, a slot's results reach memory
lanes of its tag, and the slots of one PE have distinct tags (the PE finds
a token's slot by its tag).
"""

from __future__ import annotations

from dataclasses import dataclass, replace

from loom.mapper.bridges import direct_lane_tag, port_links, tag_at
from loom.mapper.mapping import Mapping


@dataclass(frozen=True)
class Slot:
    pe: str
    index: int
    sw_node: int
    tag: int
    arriving: tuple[int, ...]
    """The distinct tags its routed operands arrive with, ascending."""
    leaving: tuple[int, ...] = ()
    """The distinct tags of the memory lanes its results take directly."""


def temporal_slots(m: Mapping) -> list[Slot]:
    """Every filled slot, by PE and slot index. A slot whose operands all
    come from registers takes no token by its tag: it gets the smallest
    tag no other slot of its PE holds (each tag a slot, LOOM's rule)."""
    found = _arriving(m)
    held: dict[str, set[int]] = {}
    for s in found:
        if s.arriving:
            held.setdefault(s.pe, set()).add(s.tag)
    for k, s in enumerate(found):
        if not s.arriving:
            tag = s.leaving[0] if s.leaving else \
                next(t for t in range(len(found) + 1) if t not in held.get(s.pe, set()))
            held.setdefault(s.pe, set()).add(tag)
            found[k] = replace(s, tag=tag)
    return found


def _arriving(m: Mapping) -> list[Slot]:
    found = []
    links = port_links(m.adg)   # once: direct_lane_tag follows them for each edge
    for node, option in enumerate(m.placement.chosen):
        if option is None or option.slot < 0 or option.candidate is None:
            continue
        tags = set()
        for e in m.problem.sw.in_edges(node):
            path = m.paths[e.id]
            if path and len(path) > 1 and not e.is_memref:
                tag = tag_at(m.adg, path, len(path) - 1)
                tags.add(tag if tag >= 0 else direct_lane_tag(m.adg, path, *links))
        leaving = {direct_lane_tag(m.adg, path, *links) for e in m.problem.sw.out_edges(node)
                   if (path := m.paths[e.id])}
        arriving = tuple(sorted(tags - {-1}))
        found.append(Slot(option.candidate.pe, option.slot, node,
                          arriving[0] if arriving else 0, arriving, tuple(sorted(leaving - {-1}))))
    return sorted(found, key=lambda s: (s.pe, s.index))


def slot_violations(m: Mapping) -> list[tuple[int, str]]:
    """(sw node, LOOM's C5 message) for each slot that breaks the rules above."""
    found = []
    seen: dict[tuple[str, int], Slot] = {}
    for s in temporal_slots(m):
        if len(s.arriving) > 1:
            found.append((s.sw_node, f"temporal slot {s.index} of {s.pe}: node {s.sw_node}'s "
                                     f"operands arrive with tags {list(s.arriving)}"))
        if s.arriving and set(s.leaving) - {s.tag} or len(s.leaving) > 1:
            found.append((s.sw_node, f"temporal slot {s.index} of {s.pe}: node {s.sw_node}'s "
                                     f"results take memory lanes of tags {list(s.leaving)}, "
                                     f"its slot holds tag {s.tag}"))
        other = seen.setdefault((s.pe, s.tag), s)
        if other is not s:
            found.append((s.sw_node, f"temporal slots {other.index} and {s.index} of {s.pe} "
                                     f"share tag {s.tag}"))
    return found


__all__ = ["Slot", "slot_violations", "temporal_slots"]
