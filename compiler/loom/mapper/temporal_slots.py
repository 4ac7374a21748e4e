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

An add_tag that drives a temporal PE input (AdgNode.mapper_tag; the `-tpe`
presets put one before each: fabric/topology._tag_ops) is the mapper's to
set, its ADG tag a hint: a route through it brings no tag, so its slot
takes the hint when its add_tags agree on one no other slot of the PE
holds (LOOM's cases give the tags their slots would take), else a free one,
and the add_tag gets its slot's tag (add_tag_choices). A route ends at one
slot (the router branches a net at switch inputs only), so such an add_tag
feeds one slot; C5 refuses one that would feed two.
"""

from __future__ import annotations

from dataclasses import dataclass, replace

from loom.mapper.adg_graph import AdgNode
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
    hints: tuple[int, ...] = ()
    """The ADG's tags on the mapper's add_tags its operands pass, ascending."""


def temporal_slots(m: Mapping) -> list[Slot]:
    """Every filled slot, by PE and slot index. A slot whose operands all
    come from registers or through the mapper's add_tags brings no tag: it
    takes its memory lane's, else its add_tags' hint, else the smallest tag
    no other slot of its PE holds (each tag a slot, LOOM's rule)."""
    found = _arriving(m)
    held: dict[str, set[int]] = {}
    for s in found:
        if s.arriving:
            held.setdefault(s.pe, set()).add(s.tag)
    # the hinted slots first, so that a slot fed by registers alone takes no
    # tag an ADG's hint gives another (a file LOOM maps keeps its tags)
    for k in sorted(range(len(found)), key=lambda k: (len(found[k].hints) != 1, k)):
        s = found[k]
        if not s.arriving:
            taken = held.setdefault(s.pe, set())
            tag = s.leaving[0] if s.leaving else s.hints[0] \
                if len(s.hints) == 1 and s.hints[0] not in taken else \
                next(t for t in range(len(found) + 1) if t not in taken)
            taken.add(tag)
            found[k] = replace(s, tag=tag)
    return found


def _arriving(m: Mapping) -> list[Slot]:
    found = []
    links = port_links(m.adg)   # once: direct_lane_tag follows them for each edge
    for node, option in enumerate(m.placement.chosen):
        if option is None or option.slot < 0 or option.candidate is None:
            continue
        tags, hints = set(), set()
        for e in m.problem.sw.in_edges(node):
            path = m.paths[e.id]
            if path and len(path) > 1 and not e.is_memref:
                if (own := _own_add_tag(m, path)) is not None:
                    hints.add(own.tag)
                    continue
                tag = tag_at(m.adg, path, len(path) - 1)
                tags.add(tag if tag >= 0 else direct_lane_tag(m.adg, path, *links))
        leaving = {direct_lane_tag(m.adg, path, *links) for e in m.problem.sw.out_edges(node)
                   if (path := m.paths[e.id])}
        arriving = tuple(sorted(tags - {-1}))
        found.append(Slot(option.candidate.pe, option.slot, node,
                          arriving[0] if arriving else 0, arriving, tuple(sorted(leaving - {-1})),
                          tuple(sorted(hints))))
    return sorted(found, key=lambda s: (s.pe, s.index))


def _own_add_tag(m: Mapping, path: list[int]) -> AdgNode | None:
    """The mapper's add_tag a route into a slot passes last (the one before
    the PE input), if it is one."""
    node = m.adg.nodes[m.adg.ports[path[-2]].node]
    return node if node.mapper_tag else None


def add_tag_choices(m: Mapping) -> dict[int, int]:
    """The tag the mapper gives each add_tag of its own (one that drives a
    temporal PE input: AdgNode.mapper_tag) that a route into a slot passes:
    the slot's tag."""
    return {add_tag: tag for add_tag, tag, _ in _own_add_tags(m, temporal_slots(m))}


def _own_add_tags(m: Mapping, filled: list[Slot]) -> list[tuple[int, int, Slot]]:
    """(add_tag node, the slot's tag, the slot) per route into a slot of
    `filled` (temporal_slots) through an add_tag whose tag the mapper sets."""
    slots = {(s.pe, s.index): s for s in filled}
    found = []
    for node, option in enumerate(m.placement.chosen):
        if option is None or option.slot < 0 or option.candidate is None:
            continue
        slot = slots[(option.candidate.pe, option.slot)]
        for e in m.problem.sw.in_edges(node):
            path = m.paths[e.id]
            if not e.is_memref and path and len(path) > 1 \
                    and (add_tag := _own_add_tag(m, path)) is not None:
                found.append((add_tag.id, slot.tag, slot))
    return found


def slot_violations(m: Mapping) -> list[tuple[int, str]]:
    """(sw node, LOOM's C5 message) for each slot that breaks the rules above."""
    found = []
    filled = temporal_slots(m)
    first: dict[int, Slot] = {}
    for add_tag, _, s in _own_add_tags(m, filled):
        other = first.setdefault(add_tag, s)
        if other.index != s.index or other.pe != s.pe:
            found.append((s.sw_node, f"{m.adg.nodes[add_tag].name} feeds temporal slots "
                                     f"{other.index} and {s.index} of {s.pe}"))
    seen: dict[tuple[str, int], Slot] = {}
    for s in filled:
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


__all__ = ["Slot", "add_tag_choices", "slot_violations", "temporal_slots"]
