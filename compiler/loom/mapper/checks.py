"""The hard constraints of a mapping, C1-C11, with LOOM's labels and meanings
(docs/spec-mapper-model.md; docs/loom-fabric-notes.md section 3.3), checked on
the result rather than trusted from the search.

- C1 node compatibility: every DFG node (memref arguments excepted) is placed,
  and an op's unit is one tech-mapping finds for it.
- C2 type compatibility: a routed value fits every port on its route (its
  width at most the port's; LOOM's canMapSoftwareTypeToHardware).
- C3 route legality: every routed edge has a route from its source's port to
  its consumer's port, out->in along ADG wires and in->out only inside
  routing nodes.
- C4 capacity: a hardware node hosts one DFG node; a port carries one
  logical source (FIFOs included: our router shares no port); a memory
  hosts at most numRegion software memories.
- C5 (temporal), C7 (decomposable fill), C9 (temporal unit config): deferred
  as in LOOM: temporal PEs and decomposable switches are never mapping
  targets, so nothing can violate them.
- C6 config encoding: every slice's values fit its fields.
- C8 PE exclusivity: one active unit per spatial PE; a PE output carries one
  unit result.
- C10 no unit transit: no route passes through a function unit or memory.
- C11 broadcast locality: an output port feeds one next hop; fanout happens
  inside a switch (LOOM's code labels C10 and C11 as C9 and C10; we follow
  the spec's numbering, as design.md does).
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass

from loom.dialects.fabric_types import TaggedType, scalar_width
from loom.mapper.bridges import tag_at
from loom.mapper.config_values import FabricConfig
from loom.mapper.mapping import Mapping
from loom.mapper.dfg_graph import DfgEdge
from loom.fabric.adg_view import AdgView
from loom.mapper.inventory import hw_units
from loom.mapper.contraction import FOLDED
from loom.mapper.matching import UnitKinds
from loom.mapper.port_types import value_type
from loom.mapper.temporal_registers import register_edges
from loom.mapper.temporal_slots import add_tag_choices, slot_violations

DEFERRED = ("C7", "C9")


@dataclass(frozen=True)
class Violation:
    label: str
    """C1 .. C11"""
    message: str
    """LOOM's diagnostic text after the label."""
    sw_node: int | None = None
    sw_edge: int | None = None
    unroutable: bool = False
    """A conflict LOOM's router never makes (spec-mapper-model.md: negotiation
    never relaxes a tagged same-tag conflict): it leaves the edge unrouted,
    C3 in its report (diagnosis.py)."""

    def line(self) -> str:
        return f"{self.label}: {self.message}"


def _routed(m: Mapping) -> Iterator[tuple[DfgEdge, list[int]]]:
    """Each DFG edge with a route (memref bindings and intra-FU edges excluded) and its route."""
    for e in m.sw.edges:
        path = m.paths[e.id]
        if path and not e.is_memref:
            yield e, path


def _c1(m: Mapping, view: AdgView | None) -> list[Violation]:
    found = []
    units = hw_units(view) if view is not None else []
    contraction = m.problem.contraction
    for n in m.problem.sw.nodes:   # the contracted view: a folded constant rides its host
        if n.is_memref_input or n.kind == FOLDED:
            continue
        o = m.placement.chosen[n.id]
        if o is None:
            found.append(Violation("C1", f"unmapped node {n.id}", sw_node=n.id))
        elif o.candidate is not None and n.op is not None and view is not None:
            c = o.candidate
            unit = [u for u in units if (u.pe, u.opcode) == (c.pe, c.opcode)]
            if c not in contraction.candidates(n, UnitKinds.of(unit)):
                found.append(Violation("C1", f"node {n.id} ({n.op.name}) cannot run on "
                                             f"{c.unit} of {c.pe}", sw_node=n.id))
    return found


def _port_width(t) -> int | None:
    return scalar_width(t.value_type if isinstance(t, TaggedType) else t)


def _c2(m: Mapping) -> list[Violation]:
    found = []
    for e, path in _routed(m):
        width = scalar_width(value_type(e.value.type))
        read = m.problem.contraction.read_bits(e.dst, width)
        for p in path:
            hw = _port_width(m.adg.ports[p].type)
            if p == path[-1]:
                width = read
            if width is None or hw is None or width > hw:
                found.append(Violation("C2", f"edge {e.id} ({value_type(e.value.type)}) does "
                                             f"not fit hw_port {p} ({m.adg.ports[p].type})",
                                       sw_edge=e.id))
                break
    return found


def _endpoints(m: Mapping, e) -> tuple[int | None, int | None]:
    """The hardware ports an edge's route must join (a memory lane's through its bridge)."""
    a, b = m.placement.chosen[e.src], m.placement.chosen[e.dst]
    src = a.out_port(e.src_index) if a else None
    dst = b.in_port(e.dst_index) if b else None
    if a is not None and src is not None:
        src = dict(a.bridges).get(src, (src,))[0]
    if b is not None and dst is not None:
        dst = dict(b.bridges).get(dst, (dst,))[-1]
    return src, dst


def _c3(m: Mapping) -> list[Violation]:
    found = []
    wires = {(x.src, x.dst) for x in m.adg.edges}
    registers = register_edges(m.problem, m.placement)
    for e in m.problem.sw.edges:   # the view's ends: an edge into a folded constant ends at its host
        if e.is_memref or e.internal or e.id in registers:
            continue
        src, dst = _endpoints(m, e)
        if src is None or dst is None:
            continue  # C1 names the unplaced node
        path = m.paths[e.id]
        if path is None:
            found.append(Violation("C3", f"unrouted edge {e.id}", sw_edge=e.id))
            continue
        if path[0] != src or path[-1] != dst or len(path) % 2:
            found.append(Violation("C3", f"edge {e.id} route does not join hw_port {src} "
                                         f"to hw_port {dst}", sw_edge=e.id))
            continue
        for k, (a, b) in enumerate(zip(path, path[1:])):
            legal = (a, b) in wires if k % 2 == 0 else b in m.adg.hops.get(a, [])
            if not legal:
                found.append(Violation("C3", f"edge {e.id} steps from hw_port {a} to hw_port "
                                             f"{b}, which no {'wire' if k % 2 == 0 else 'switch'}"
                                             " connects", sw_edge=e.id))
                break
    return found


def _port_tags(m: Mapping) -> Iterator[tuple[int, list[int], int, int]]:
    """(edge, path, port, tag) for every port of every routed path: the
    runtime tag there (bridges.tag_at), -1 on an untagged port."""
    chosen = add_tag_choices(m)
    for e, path in _routed(m):
        for i, p in enumerate(path):
            # a temporal PE's unit takes its ports' tokens tagged, slot by slot
            tagged = isinstance(m.adg.ports[p].type, TaggedType) or bool(
                m.adg.nodes[m.adg.ports[p].node].slots)
            yield e.id, path, p, tag_at(m.adg, path, i, chosen) if tagged else -1


def _logical_sources(m: Mapping) -> dict[tuple[int, int], dict[int, int]]:
    """(port, tag) -> {source port: the first edge that carries it there}. The
    tag is -1 on an untagged port; on a tagged one, flows with distinct tags
    may share it (LOOM's C4: they must carry distinct tags)."""
    users: dict[tuple[int, int], dict[int, int]] = {}
    for edge, path, p, tag in _port_tags(m):
        users.setdefault((p, tag), {}).setdefault(path[0], edge)
    return users


def _unrepresentable_tags(m: Mapping) -> list[Violation]:
    """A route may not carry a tag through a port whose tag is too narrow for
    it: a width adaptation truncates, it does not rewrite (LOOM's
    tagged-map-width-collide case: tags 1 and 9 would meet as 1 on a 3-bit
    port); only add_tag, map_tag and del_tag change a tag."""
    found, seen = [], set()
    for edge, _, p, tag in _port_tags(m):
        t = m.adg.ports[p].type
        if isinstance(t, TaggedType) and tag >= 1 << t.tag_type.width.data and edge not in seen:
            seen.add(edge)
            found.append(Violation("C3", f"edge {edge} carries tag {tag} through hw_port {p} "
                                         f"{_port_name(m, p)}, whose tag has "
                                         f"{t.tag_type.width.data} bits", sw_edge=edge))
    return found


def _c4(m: Mapping) -> list[Violation]:
    found = []
    hosts: dict[int | str, int] = {}
    for n, o in enumerate(m.placement.chosen):
        if o is None:
            continue
        # a memory of several regions hosts several software memories, lane by lane
        # a temporal PE's unit one op a slot
        for key in o.resources if m.adg.nodes[o.hw_node].resource_class == "memory" \
                else (o.resource,) if o.slot >= 0 else (o.hw_node,):
            if key in hosts:
                found.append(Violation("C4", f"hw_node {o.hw_node} hosts sw_node {hosts[key]} "
                                             f"and sw_node {n}", sw_node=n))
            hosts.setdefault(key, n)
    for (port, tag), sources in sorted(_logical_sources(m).items()):
        if len(sources) > 1:
            edge = sorted(sources.values())[1]
            where = _port_name(m, port)
            if tag >= 0:
                found.append(Violation("C4", f"tagged routing-output conflict on hw_port "
                                             f"{port} (tag {tag}), {where}", sw_edge=edge,
                                       unroutable=True))
                continue
            found.append(Violation("C4", f"routing overuse on hw_port {port} with "
                                         f"{len(sources)} logical sources, {where}",
                                   sw_edge=edge))
    return found


def _port_name(m: Mapping, port: int) -> str:
    """Where a port is, for a reader: `at sw_0_1 output 2`."""
    p = m.adg.ports[port]
    side = "input" if p.direction == "in" else "output"
    return f"at {m.adg.nodes[p.node].name} {side} {p.index}"


def _c6(config: FabricConfig | None) -> list[Violation]:
    if config is None:
        return []
    return [Violation("C6", f"slice {name}: {why}") for name, why in config.problems.items()]


def _c8(m: Mapping) -> list[Violation]:
    found = []
    active: dict[str, int] = {}
    for n, o in enumerate(m.placement.chosen):
        if o is None or o.candidate is None or o.slot >= 0:   # a temporal PE's slots share it
            continue
        pe = o.candidate.pe
        if pe in active and m.placement.chosen[active[pe]].hw_node != o.hw_node:  # type: ignore[union-attr]
            found.append(Violation("C8", f"multiple active function_unit instances in "
                                         f"spatial_pe {pe}", sw_node=n))
        active.setdefault(pe, n)
    wires = m.wires
    owner: dict[tuple[str, int], int] = {}
    for e, path in _routed(m):
        wire = wires.get((path[0], path[1])) if len(path) > 1 else None
        unit = m.adg.nodes[m.adg.ports[path[0]].node]
        if wire is None or wire.pe_output_index < 0 or unit.slots:   # a temporal PE's: tagged
            continue
        pe = unit.pe
        key = (pe, wire.pe_output_index)
        if owner.setdefault(key, path[0]) != path[0]:
            found.append(Violation("C8", f"spatial_pe {pe} output index {wire.pe_output_index} "
                                         "used by multiple function_unit results", sw_edge=e.id))
    return found


def _c5(m: Mapping) -> list[Violation]:
    return [Violation("C5", message, sw_node=node) for node, message in slot_violations(m)]


def _c10(m: Mapping) -> list[Violation]:
    found = []
    for e, path in _routed(m):
        for p in path[1:-1]:
            node = m.adg.nodes[m.adg.ports[p].node]
            if node.resource_class in ("functional", "memory", "boundary"):
                found.append(Violation("C10", f"routed edge {e.id} illegally traverses "
                                              f"{node.resource_class} node {node.name}",
                                       sw_edge=e.id))
                break
    return found


def _c11(m: Mapping) -> list[Violation]:
    found = []
    # a value is its producer's result (the slots of a temporal PE share a
    # unit's port, each with values of its own)
    next_hop: dict[tuple[int, int, int], int] = {}
    for e, path in _routed(m):
        for k in range(0, len(path) - 1, 2):  # every output and the input it drives
            out, nxt = path[k], path[k + 1]
            first = next_hop.setdefault((e.src, e.src_index, out), nxt)
            if first != nxt:
                node = m.adg.nodes[m.adg.ports[out].node]
                kind = "routing" if node.resource_class == "routing" else "non-routing"
                found.append(Violation("C11", f"{kind} source port {out} fans out to multiple "
                                              f"next hops ({first} and {nxt})", sw_edge=e.id))
    return found


def check(m: Mapping, view: AdgView | None = None, config: FabricConfig | None = None
          ) -> list[Violation]:
    """Every violation of C1-C11, in label order (C1 needs the ADG module, C6
    the configuration)."""
    return [*_c1(m, view), *_c2(m), *_c3(m), *_unrepresentable_tags(m), *_c4(m),
            *_c5(m), *_c6(config), *_c8(m), *_c10(m), *_c11(m)]


__all__ = ["DEFERRED", "Violation", "check"]
