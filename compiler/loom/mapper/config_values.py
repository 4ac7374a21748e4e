"""The configuration a mapping implies: every slice's field values (names of
fabric/config_layout.py), encoded into words (LOOM's ConfigGen rules,
docs/loom-fabric-notes.md section 4.5).

- spatial_sw: route bit o/i set when some routed edge goes from input i to
  output o inside the switch.
- spatial_pe: the hosting unit's enable and opcode; an input mux per unit
  input: the PE input its route enters by, or disconnect when unused; an
  output demux per unit output: the PE output its route leaves by, or
  discard (drain) when unused; muxes past the unit's arity disconnect; the
  unit payload (mux selections, constant, predicates, cont_cond, join
  mask) from the tech-mapping candidate. An unused PE: every mux
  disconnected, the rest zero.
- fifo: bypassed as Mapping.bypassed says (the ADG's `bypassed` hint and
  the mapper's post-route bufferization); add_tag and map_tag: the ADG's
  tag and table as they are; an add_tag without the ADG's tag: the tag of
  the temporal slot it feeds (temporal_slots.add_tag_choices).
- memory / extmemory: a region per software memory a hardware memory
  hosts, in placement order: valid, its lanes [first, first + L) (L: its
  largest family's lane count, the tags its bridges attach; first: 0 on a
  memory of one region, else the lanes placement gave it), the address
  offset (extmemory 0, the host patches it; memory: the ADG's table, else
  memref argument x 4096) and log2 of the element bytes.
- temporal_sw: one route-table slot per tag a route carries through it, tags
  ascending (LOOM's order): valid, the tag, the route bit of its hop.
- temporal_pe: per op it hosts, its instruction slot: valid, the slot's tag
  (temporal_slots.py), the unit's opcode, muxes and demuxes as a spatial
  PE's, the result tags (the slot's), and the unit's payload in its own
  `fu<opcode>.` fields; every other slot's muxes disconnected.

A slice whose values do not fit its fields is emitted as zeros and marked
incomplete: LOOM's C6.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from xdsl.dialects.builtin import IntegerAttr, MemRefType
from xdsl.ir import Operation

from loom.dialects.fabric_tag import map_tag_entries
from loom.dialects.fabric_types import scalar_width
from loom.fabric import config_layout as cl
from loom.fabric.adg_view import AdgView
from loom.mapper.bridges import tag_at
from loom.mapper.mapping import Mapping
from loom.mapper.placement import Option, memory_lanes
from loom.mapper.temporal_registers import register_edges
from loom.mapper.temporal_slots import add_tag_choices, temporal_slots

ADDRESS_STRIDE = 4096
"""LOOM's default addr_offset of an on-chip memory: memref argument x 4096."""


@dataclass(frozen=True)
class MemoryRegion:
    region_index: int
    sw_node: int
    memref_arg_index: int
    start_lane: int
    end_lane: int
    ld_count: int
    st_count: int
    elem_size_log2: int


@dataclass
class FabricConfig:
    layout: cl.FabricLayout
    values: dict[str, dict[str, int]]
    words: list[int] = field(default_factory=list)
    complete: dict[str, bool] = field(default_factory=dict)
    problems: dict[str, str] = field(default_factory=dict)
    """Slice -> why it is incomplete (C6)."""
    regions: dict[int, list[MemoryRegion]] = field(default_factory=dict)
    """Hardware memory node -> its regions."""

    @property
    def all_complete(self) -> bool:
        return all(self.complete.values())


def _switch_values(m: Mapping, values: dict[str, dict[str, int]],
                   chosen: dict[int, int]) -> None:
    """Route bits of spatial switches; route tables of temporal switches (one
    slot per observed tag, tags ascending: LOOM's order; the tag of a hop is
    bridges.tag_at's, a bridge lane's own)."""
    tables: dict[str, dict[int, set[tuple[int, int]]]] = {}
    for path in m.paths:
        if path is None or len(path) < 3:
            continue
        for h in range(1, len(path) - 1, 2):  # in -> out hops
            a, b = path[h], path[h + 1]
            node = m.adg.nodes[m.adg.ports[a].node]
            i, o = m.adg.ports[a].index, m.adg.ports[b].index
            if node.kind == "spatial_sw":
                values.setdefault(node.name, {})[cl.route_field(o, i)] = 1
            elif node.kind == "temporal_sw":
                tag = tag_at(m.adg, path, h, chosen)
                tables.setdefault(node.name, {}).setdefault(tag, set()).add((o, i))
    for name, by_tag in tables.items():
        v = values.setdefault(name, {})
        for slot, tag in enumerate(sorted(by_tag)):
            v |= {cl.slot_field(slot, "valid"): 1, cl.slot_field(slot, "tag"): tag}
            v |= {cl.slot_field(slot, cl.route_field(o, i)): 1 for o, i in sorted(by_tag[tag])}


def _pe_values(m: Mapping, layout: cl.FabricLayout, values: dict[str, dict[str, int]]) -> None:
    tags = {(t.pe, t.index): t.tag for t in temporal_slots(m)}
    ends = _unit_ends(m)
    for sw_node, option in enumerate(m.placement.chosen):
        if option is None or option.candidate is None:
            continue
        node = m.adg.nodes[option.hw_node]
        s = layout.slice(node.pe)
        at = ends.get(sw_node, UnitEnds())
        if option.slot >= 0:
            values[node.pe] = values.get(node.pe, {}) | _slot_values(
                option, s, at, tags[(node.pe, option.slot)])
            continue
        v: dict[str, int] = {"enable": 1, "opcode": option.candidate.opcode}
        v |= s.unused()
        for k in range(len(node.inputs)):
            if k in at.enters:
                mux = cl.pe_mux("in", k)
                v |= {cl.mux_field(mux, "sel"): at.enters[k], cl.mux_field(mux, "disconnect"): 0}
        for r in range(len(node.outputs)):
            mux = cl.pe_mux("out", r)
            if r in at.leaves:
                v |= {cl.mux_field(mux, "sel"): at.leaves[r], cl.mux_field(mux, "disconnect"): 0}
            else:  # drains
                v |= {cl.mux_field(mux, "discard"): 1, cl.mux_field(mux, "disconnect"): 0}
        v |= dict(option.candidate.fields)
        values[node.pe] = v


@dataclass
class UnitEnds:
    """Where an op on a unit meets the rest, by the unit's port index."""

    enters: dict[int, int] = field(default_factory=dict)
    """Unit input -> the PE input its route enters by."""
    leaves: dict[int, int] = field(default_factory=dict)
    """Unit output -> the PE output its route leaves by."""
    reads: dict[int, int] = field(default_factory=dict)
    """Unit input -> the register it reads (a temporal_reg edge)."""
    writes: dict[int, int] = field(default_factory=dict)
    """Unit output -> the register it writes."""


def _unit_ends(m: Mapping) -> dict[int, UnitEnds]:
    """Per DFG node on a unit, its ends, edge by edge (the slots that share a
    temporal PE's unit share its ports)."""
    ends: dict[int, UnitEnds] = {}
    registers = register_edges(m.problem, m.placement)
    wires = m.wires
    for e in m.problem.sw.edges:
        a, b = m.placement.chosen[e.src], m.placement.chosen[e.dst]
        path = m.paths[e.id]
        if e.is_memref or e.internal or a is None or b is None or path is None:
            continue
        src, dst = a.out_port(e.src_index), b.in_port(e.dst_index)
        r = m.adg.nodes[a.hw_node].outputs.index(src) if a.candidate and src is not None else -1
        k = m.adg.nodes[b.hw_node].inputs.index(dst) if b.candidate and dst is not None else -1
        if e.id in registers:
            ends.setdefault(e.src, UnitEnds()).writes[r] = registers[e.id].register
            ends.setdefault(e.dst, UnitEnds()).reads[k] = registers[e.id].register
            continue
        if len(path) < 2:
            continue
        first, last = wires.get((path[0], path[1])), wires.get((path[-2], path[-1]))
        if r >= 0 and first is not None and first.pe_output_index >= 0:
            ends.setdefault(e.src, UnitEnds()).leaves[r] = first.pe_output_index
        if k >= 0 and last is not None and last.pe_input_index >= 0:
            ends.setdefault(e.dst, UnitEnds()).enters[k] = last.pe_input_index
    return ends


def _slot_values(option: Option, s: cl.Slice, ends: UnitEnds, tag: int) -> dict[str, int]:
    """A temporal PE's instruction slot `option.slot`: its tag and opcode, a
    mux per unit input (the PE input its route enters by; the register it
    reads; else disconnected), a demux per unit output (the PE output it
    leaves by; else discard: unused, or into the register it writes) with
    the slot's tag on the result, the slot's muxes past the unit's ports
    disconnected, and the unit's payload (`fu<opcode>.`). An unused slot,
    and an unused unit's payload, stay zero (LOOM's)."""
    assert option.candidate is not None
    opcode = option.candidate.opcode

    def f(name: str) -> str:
        return f"insn{option.slot}.{name}"

    v = {x.name: 1 for x in s.fields
         if x.name.startswith(f("")) and x.name.endswith(".disconnect")}
    v |= {f("valid"): 1, f("tag"): tag, f("opcode"): opcode}
    for k in range(len(option.candidate.inputs)):
        if k in ends.reads:
            v |= {f(f"operand{k}.reg"): ends.reads[k], f(f"operand{k}.is_reg"): 1}
        elif k in ends.enters:
            v |= {f(cl.mux_field(cl.pe_mux("in", k), "sel")): ends.enters[k],
                  f(cl.mux_field(cl.pe_mux("in", k), "disconnect")): 0}
    for r in range(len(option.candidate.outputs)):
        mux = cl.pe_mux("out", r)
        if r in ends.leaves:
            v |= {f(cl.mux_field(mux, "sel")): ends.leaves[r],
                  f(cl.mux_field(mux, "disconnect")): 0}
        else:   # drains, or enters a register
            v |= {f(cl.mux_field(mux, "discard")): 1, f(cl.mux_field(mux, "disconnect")): 0}
        if r in ends.writes:
            v |= {f(f"result{r}.reg"): ends.writes[r], f(f"result{r}.is_reg"): 1}
        v[f(f"result{r}.tag")] = tag
    v |= {f"fu{opcode}." + name.removeprefix("fu."): value
          for name, value in option.candidate.fields}
    return v


def _memory_values(m: Mapping, nodes: dict[str, Operation],
                   values: dict[str, dict[str, int]]) -> dict[int, list[MemoryRegion]]:
    regions: dict[int, list[MemoryRegion]] = {}
    for sw_node, option in enumerate(m.placement.chosen):
        node = m.sw.nodes[sw_node]
        if option is None or node.kind != "memory" or node.op is None:
            continue
        hw = m.adg.nodes[option.hw_node]
        memref = next((e for e in m.sw.in_edges(sw_node) if e.is_memref), None)
        arg = m.sw.nodes[memref.src].index if memref is not None else -1
        mtype = memref.value.type if memref is not None else node.op.properties.get(
            "mem_type", node.op.attributes.get("mem_type"))
        elem_bits = scalar_width(mtype.element_type) if isinstance(mtype, MemRefType) else None
        log2 = max(0, ((elem_bits or 8) // 8).bit_length() - 1)
        ld, st = memory_lanes(node.op)
        k = len(regions.setdefault(hw.id, []))
        start, end = option.lanes  # one lane (tag) per software port of a family
        regions[hw.id].append(MemoryRegion(k, sw_node, arg, start, end, ld, st, log2))
        table = _addr_table(nodes.get(hw.name))
        if hw.kind == "extmemory":
            offset = 0
        elif table is not None:
            offset = table[k * 5 + 3]
        else:
            offset = max(arg, k) * ADDRESS_STRIDE
        values.setdefault(hw.name, {}).update({
            cl.region_field(k, "valid"): 1, cl.region_field(k, "start_lane"): start,
            cl.region_field(k, "end_lane"): end, cl.region_field(k, "addr_offset"): offset,
            cl.region_field(k, "elem_size_log2"): log2})
    return regions


def _addr_table(op: Operation | None) -> list[int] | None:
    attr = op.attributes.get("addr_offset_table") if op is not None else None
    if attr is None:
        return None
    data = getattr(attr, "get_values", None)
    return [int(x) for x in data()] if data else [x.value.data for x in attr.data]  # type: ignore[attr-defined]


def _hint_values(nodes: dict[str, Operation], layout: cl.FabricLayout,
                 values: dict[str, dict[str, int]]) -> None:
    """The ADG's own settings LOOM copies: add_tag tag, map_tag table."""
    for s in layout.slices:
        op = nodes.get(s.name)
        if op is None:
            continue
        if s.kind == "add_tag":
            tag = op.attributes.get("tag")
            if isinstance(tag, IntegerAttr):
                values.setdefault(s.name, {})["tag"] = tag.value.data
        elif s.kind == "map_tag":
            for e, (valid, src, dst) in enumerate(map_tag_entries(op)):
                values.setdefault(s.name, {}).update({
                    cl.entry_field(e, "valid"): valid, cl.entry_field(e, "src_tag"): src,
                    cl.entry_field(e, "dst_tag"): dst})


def fabric_config(m: Mapping, view: AdgView) -> FabricConfig:
    """The slices' values and words for mapping `m` on the ADG `view`."""
    layout = cl.fabric_layout(view)
    nodes = {n.name: n.op for n in view.nodes}
    values: dict[str, dict[str, int]] = {}
    _hint_values(nodes, layout, values)
    for name in sorted(m.bypassed):   # the ADG's hints and the mapper's choice
        values.setdefault(name, {})["bypassed"] = 1
    chosen = add_tag_choices(m)
    _switch_values(m, values, chosen)
    for add_tag, tag in chosen.items():   # the mapper's own add_tags
        values.setdefault(m.adg.nodes[add_tag].name, {})["tag"] = tag
    _pe_values(m, layout, values)
    regions = _memory_values(m, nodes, values)
    config = FabricConfig(layout, values, regions=regions)
    for s in layout.slices:
        v = values.get(s.name, s.unused() if s.kind == "spatial_pe" else {})
        try:
            words = s.encode(v)
            config.complete[s.name] = True
        except ValueError as err:
            words = [0] * s.word_count
            config.complete[s.name] = False
            config.problems[s.name] = str(err)
        config.words += words
    return config


__all__ = ["FabricConfig", "MemoryRegion", "fabric_config"]
