"""Fabric component modules: one specialized SystemVerilog module per
component kind and parameter set, rendered from templates/fabric_<kind>.sv.j2.

Every module has `clk`, `rst`, packed handshake buses `in_data/in_valid/
in_ready` and `out_*` (one lane per port, each lane as wide as the widest
port of its side) and, when its slice has bits, a static `cfg` bus holding
the slice (bit k of the bus is bit k of the slice's first word onward).
Field positions inside `cfg` come from the slice of loom.fabric.config_layout.
"""

from __future__ import annotations

import hashlib
from dataclasses import dataclass, field
from typing import Any

from loom.diagnostics import LoomError
from loom.dialects import fabric_syntax as fs
from loom.fabric.adg_view import FunctionUnit, ViewNode
from loom.fabric.config_layout import (
    Slice,
    choice_bits,
    entry_field,
    mux_field,
    pe_mux,
    route_field,
    slot_field,
)
from loom.fabric.rtl.graph import tag_width, value_width, wire_width
from loom.fabric.rtl.latency import OUTPUT_BUFFER_SLOTS
from loom.rtl.render import identifier, render_unit, template_environment


@dataclass(frozen=True)
class Module:
    """One rendered SystemVerilog module."""

    name: str
    text: str


@dataclass(frozen=True)
class Component:
    """A node's module, its port shape and the modules it instantiates."""

    module: str
    n_in: int
    w_in: int
    n_out: int
    w_out: int
    cfg_bits: int
    clocked: bool = True
    files: tuple[Module, ...] = field(default_factory=tuple)
    """The component's own module last, its submodules before it."""
    master: tuple[tuple[str, str, int], ...] = ()
    """(direction, signal, bits) of ports the fabric top exposes as
    `<instance>_<signal>` (an extmemory's master port)."""


def field_offsets(s: Slice | None) -> dict[str, tuple[int, int]]:
    """name -> (bit offset in the slice, width), in the layout's field order."""
    offsets: dict[str, tuple[int, int]] = {}
    pos = 0
    for f in (s.fields if s is not None else ()):
        offsets[f.name] = (pos, f.width)
        pos += f.width
    return offsets


def digest(params: Any) -> str:
    return hashlib.sha1(repr(params).encode()).hexdigest()[:8]


def render_fabric(template: str, module: str, params: dict[str, Any],
                  origin: str, **context: Any) -> Module:
    env = template_environment()
    header = env.get_template("fabric_header.sv.j2").render(
        module=module, template=f"{template}.sv.j2", origin=origin,
        params=[(k, repr(v)) for k, v in params.items()])
    return Module(module, header + env.get_template(f"{template}.sv.j2").render(
        module=module, **context))


def _widths(node: ViewNode) -> tuple[int, int]:
    w_in = max((wire_width(t) for t in node.in_types), default=1)
    w_out = max((wire_width(t) for t in node.out_types), default=1)
    return w_in, w_out


def lane_width(node: ViewNode) -> int:
    """Bits of each data lane of a node's ports (its widest port): lane k of
    `<instance>_io_in_data` is bits [k*lane +: lane]."""
    return max(_widths(node))


def _spatial_sw(node: ViewNode, s: Slice | None, comb_rings: bool = False) -> Component:
    w_in, w_out = _widths(node)
    w = max(w_in, w_out)
    n_in, n_out = len(node.in_types), len(node.out_types)
    offs = field_offsets(s)
    routes = [(o, i, offs[route_field(o, i)][0]) for o, i in node.connectivity()]
    bits = s.bits if s is not None else 0
    params = dict(n_in=n_in, n_out=n_out, w=w, routes=routes)
    key = (routes, "comb_rings") if comb_rings else routes   # other names stay as they were
    name = f"loom_fabric_spatial_sw_i{n_in}_o{n_out}_w{w}_{digest(key)}"
    mod = render_fabric("fabric_spatial_sw", name, params, f"fabric.spatial_sw {node.name}",
                        n_in=n_in, n_out=n_out, w=w, routes=routes, cfg_bits=bits,
                        comb_rings=comb_rings)
    return Component(name, n_in, w, n_out, w, bits, True, (mod,))


def _temporal_sw(node: ViewNode, s: Slice | None) -> Component:
    w_in, w_out = _widths(node)
    w = max(w_in, w_out)
    n_in, n_out = len(node.in_types), len(node.out_types)
    k = tag_width(node.in_types[0])
    offs = field_offsets(s)
    n_slots = fs.int_param(node.definition, "num_route_table", 0) or 0
    slots = []
    for t in range(n_slots):
        bits = [(o, i, offs[slot_field(t, route_field(o, i))][0])
                for o, i in node.connectivity()]
        slots.append((offs[slot_field(t, "valid")][0], offs[slot_field(t, "tag")][0], bits))
    params = dict(n_in=n_in, n_out=n_out, w=w, k=k, slots=slots)
    name = f"loom_fabric_temporal_sw_i{n_in}_o{n_out}_w{w}_t{k}_{digest(slots)}"
    mod = render_fabric("fabric_temporal_sw", name, params, f"fabric.temporal_sw {node.name}",
                        n_in=n_in, n_out=n_out, w=w, k=k, slots=slots,
                        cfg_bits=s.bits if s else 0)
    return Component(name, n_in, w, n_out, w, s.bits if s else 0, True, (mod,))


def _fifo(node: ViewNode, s: Slice | None) -> Component:
    w_in, w_out = _widths(node)
    w = max(w_in, w_out)
    depth = fs.int_param(node.definition, "depth", 1) or 1
    bypassable = s is not None and s.bits > 0
    if depth == 1:
        inner, text = render_unit("oehb", w=w, origin=f"fabric.fifo {node.name}")
    else:
        inner, text = render_unit("fifo", slots=depth, w=w, origin=f"fabric.fifo {node.name}")
    name = f"loom_fabric_fifo_d{depth}_w{w}{'_b' if bypassable else ''}"
    params = dict(depth=depth, w=w, bypassable=bypassable)
    mod = render_fabric("fabric_fifo", name, params, f"fabric.fifo {node.name}", w=w,
                        inner=inner, bypassable=bypassable,
                        bypass_bit=field_offsets(s).get("bypassed", (0, 0))[0])
    return Component(name, 1, w, 1, w, s.bits if bypassable and s else 0, True,
                     (Module(inner, text), mod))


def _add_tag(node: ViewNode, s: Slice | None) -> Component:
    out = node.out_types[0]
    w_in, v, k = wire_width(node.in_types[0]), value_width(out), tag_width(out)
    offs = field_offsets(s)
    if "tag" not in offs:
        raise LoomError(f"fabric.add_tag {node.name} has no tag")
    name = f"loom_fabric_add_tag_w{w_in}_v{v}_t{k}"
    mod = render_fabric("fabric_add_tag", name, dict(w_in=w_in, v=v, k=k),
                        f"fabric.add_tag {node.name}", w_in=w_in, v=v, k=k,
                        cfg_bits=s.bits if s else 0)
    return Component(name, 1, w_in, 1, v + k, s.bits if s else 0, False, (mod,))


def _del_tag(node: ViewNode, s: Slice | None) -> Component:
    src = node.in_types[0]
    w_out, v, k = wire_width(node.out_types[0]), value_width(src), tag_width(src)
    name = f"loom_fabric_del_tag_v{v}_t{k}_w{w_out}"
    mod = render_fabric("fabric_del_tag", name, dict(v=v, k=k, w_out=w_out),
                        f"fabric.del_tag {node.name}", v=v, k=k, w_out=w_out)
    return Component(name, 1, v + k, 1, w_out, 0, False, (mod,))


def _map_tag(node: ViewNode, s: Slice | None) -> Component:
    src, dst = node.in_types[0], node.out_types[0]
    v, k_in, k_out = value_width(src), tag_width(src), tag_width(dst)
    offs = field_offsets(s)
    entries = [(offs[entry_field(e, "valid")][0], offs[entry_field(e, "src_tag")][0],
                offs[entry_field(e, "dst_tag")][0]) for e in range(len(offs) // 3)]
    name = f"loom_fabric_map_tag_v{v}_i{k_in}_o{k_out}_n{len(entries)}"
    mod = render_fabric("fabric_map_tag", name, dict(v=v, k_in=k_in, k_out=k_out,
                                                     entries=len(entries)),
                        f"fabric.map_tag {node.name}", v=v, k_in=k_in, k_out=k_out,
                        entries=entries, cfg_bits=s.bits if s else 0)
    return Component(name, 1, v + k_in, 1, v + k_out, s.bits if s else 0, False, (mod,))


def _spatial_pe(node: ViewNode, s: Slice | None, buffered: tuple[bool, ...] = ()) -> Component:
    from loom.fabric.rtl.fu import fu_module
    assert s is not None   # a spatial PE always has a slice (enable)
    lane = lane_width(node)
    n_in, n_out = len(node.in_types), len(node.out_types)
    pe_name = node.definition.attributes["sym_name"].data  # type: ignore[attr-defined]
    fus = [fu_module(u.definition, lane, f"function unit of fabric.spatial_pe @{pe_name}")
           for u in node.units]
    offs = field_offsets(s)
    k_in = max(f.n_in for f in fus)
    k_out = max(f.n_out for f in fus)
    in_fields = [_mux_offsets(offs, pe_mux("in", k)) for k in range(k_in)]
    out_fields = [_mux_offsets(offs, pe_mux("out", k)) for k in range(k_out)]
    in_sel_bits = offs[mux_field(pe_mux("in", 0), "sel")][1]
    out_sel_bits = offs[mux_field(pe_mux("out", 0), "sel")][1]
    payload = sum(f.width for f in s.fields)
    buffered = buffered or (True,) * n_out
    buffer, buffer_text = render_unit("fifo", slots=OUTPUT_BUFFER_SLOTS, w=lane,
                                      origin="output buffer of a fabric.spatial_pe")
    context = dict(
        n_in=n_in, n_out=n_out, lane=lane, k_in=k_in, k_out=k_out,
        fus=[dict(module=f.module.name, n_in=f.n_in, n_out=f.n_out, clocked=f.clocked,
                  cfg_bits=f.layout.bits) for f in fus],
        enable=offs["enable"][0], opcode=offs["opcode"][0], opcode_width=offs["opcode"][1],
        in_fields=in_fields, out_fields=out_fields, in_sel_bits=in_sel_bits,
        out_sel_bits=out_sel_bits, in_sel_width=max(1, in_sel_bits),
        out_sel_width=max(1, out_sel_bits), payload=payload, buffer=buffer, buffered=buffered,
        comb_outputs=not all(buffered),
        cfg_bits=s.bits,
        unused=[] if any(buffered) or any(f.clocked for f in fus) else ["clk", "rst"])
    params = dict(pe=pe_name, n_in=n_in, n_out=n_out, lane=lane,
                  fus=[f.module.name for f in fus])
    if not all(buffered):   # the names of fully buffered PEs stay as they were
        params["buffered"] = list(buffered)
    name = f"loom_fabric_spatial_pe_{identifier(pe_name)}_i{n_in}_o{n_out}_w{lane}_{digest(params)}"
    mod = render_fabric("fabric_spatial_pe", name, params, f"fabric.spatial_pe @{pe_name}",
                        **context)
    files = [Module(buffer, buffer_text)] if any(buffered) else []
    for f in fus:
        files += [*f.units, f.module]
    return Component(name, n_in, lane, n_out, lane, s.bits, True, (*files, mod))


TEMPORAL_REFUSED = ("dataflow.", "handshake.mux", "handshake.merge", "handshake.control_merge",
                    "handshake.load", "handshake.store")
"""Body ops a temporal PE's unit may not hold: the dataflow state machines
(LOOM's dedicated class, no single firing), units that take only some of
their operands (mux, merges) and the memory ports; they stay in spatial PEs."""


def _temporal_unit_check(pe: str, unit: FunctionUnit) -> None:
    body = [op for op in unit.definition.regions[0].block.ops if op.name != "fabric.yield"]
    for op in body:
        if op.name.startswith(TEMPORAL_REFUSED):
            raise LoomError(f"fabric.temporal_pe @{pe}: function unit @{unit.name} holds "
                            f"{op.name}, which a temporal PE does not run (one firing, "
                            "every operand taken, one result set); put it in a spatial PE")


def _temporal_pe(node: ViewNode, s: Slice | None) -> Component:
    from loom.fabric.rtl.fu import fu_module
    assert s is not None
    shape = node.temporal_shape()
    pe_name = node.definition.attributes["sym_name"].data  # type: ignore[attr-defined]
    # (the verifier holds num_instruction >= 1, and reg_fifo_depth >= 1 with registers)
    for u in node.units:
        _temporal_unit_check(pe_name, u)
    v, t, lane = shape.value_bits, tag_width(node.in_types[0]), lane_width(node)
    fus = [fu_module(u.definition, v, f"function unit of fabric.temporal_pe @{pe_name}",
                     report_used=True)
           for u in node.units]
    offs = field_offsets(s)
    k_in, k_out = max(f.n_in for f in fus), max(f.n_out for f in fus)

    def at(slot: int, name: str) -> int:
        return offs[f"insn{slot}.{name}"][0]

    def width(name: str) -> int:
        return offs[f"insn0.{name}"][1] if f"insn0.{name}" in offs else 0

    regs = shape.registers
    slots = [dict(
        valid=at(n, "valid"), tag=at(n, "tag"), opcode=at(n, "opcode"),
        ins=[_mux_offsets(offs, f"insn{n}.in{k}") for k in range(k_in)],
        outs=[_mux_offsets(offs, f"insn{n}.out{k}") for k in range(k_out)],
        operand_regs=[(at(n, f"operand{k}.reg"), at(n, f"operand{k}.is_reg"))
                      for k in range(k_in)] if regs else [],
        results=[(at(n, f"result{k}.tag"), at(n, f"result{k}.reg") if regs else 0,
                  at(n, f"result{k}.is_reg") if regs else 0) for k in range(k_out)])
        for n in range(shape.slots)]
    units = []
    for j, f in enumerate(fus):
        names = f.layout.fields(f"fu{j}")
        units.append(dict(module=f.module.name, n_in=f.n_in, n_out=f.n_out, clocked=f.clocked,
                          cfg_bits=f.layout.bits,
                          payload=offs[names[0].name][0] if names else 0))
    context = dict(
        n_in=shape.n_in, n_out=shape.n_out, v=v, t=t, w=lane, k_in=k_in, k_out=k_out,
        slots=slots, fus=units, regs=regs, reg_depth=shape.reg_depth,
        shared=shape.shared, buffer_size=shape.buffer_size,
        opcode_bits=width("opcode"), in_sel_bits=width("in0.sel"),
        out_sel_bits=width("out0.sel"), reg_bits=width("operand0.reg"),
        slot_width=max(1, choice_bits(shape.slots)), fu_width=max(1, choice_bits(len(fus))),
        in_sel_width=max(1, width("in0.sel")), out_sel_width=max(1, width("out0.sel")),
        reg_width=max(1, choice_bits(regs)), reg_ptr_width=max(1, choice_bits(shape.reg_depth)),
        row_width=max(1, choice_bits(shape.buffer_size)),
        seq_width=max(1, choice_bits(shape.buffer_size)) + 1,
        result_field_width=max(1, choice_bits(shape.slots * k_out)),
        cfg_bits=s.bits)
    params = dict(pe=pe_name, shape=shape, t=t, fus=[f.module.name for f in fus])
    name = f"loom_fabric_temporal_pe_{identifier(pe_name)}_i{shape.n_in}_o{shape.n_out}_w{lane}_{digest(params)}"
    mod = render_fabric("fabric_temporal_pe", name, params, f"fabric.temporal_pe @{pe_name}",
                        **context)
    files: list[Module] = []
    for f in fus:
        files += [*f.units, f.module]
    return Component(name, shape.n_in, lane, shape.n_out, lane, s.bits, True, (*files, mod))


def _mux_offsets(offs: dict[str, tuple[int, int]], mux: str) -> tuple[int, int, int]:
    """Bit offsets of a mux-like field's sel, discard and disconnect parts."""
    return tuple(offs[mux_field(mux, part)][0]  # type: ignore[return-value]
                 for part in ("sel", "discard", "disconnect"))


def _memory(node: ViewNode, s: Slice | None) -> Component:
    from loom.fabric.rtl.memory import memory_component
    return memory_component(node, s)


_KINDS = {
    "memory": _memory,
    "extmemory": _memory,
    "temporal_sw": _temporal_sw,
    "spatial_pe": _spatial_pe,
    "temporal_pe": _temporal_pe,
    "spatial_sw": _spatial_sw,
    "fifo": _fifo,
    "add_tag": _add_tag,
    "del_tag": _del_tag,
    "map_tag": _map_tag,
}


def component(node: ViewNode, s: Slice | None, buffered: tuple[bool, ...] = (),
              comb_rings: bool = False) -> Component:
    """The module of one graph node configured by slice `s` (None: no config
    bits); `buffered`, for a spatial PE, whether each output leaves through
    the PE's own buffer (AdgView.output_buffered; default all); `comb_rings`,
    for a switch, whether it sits on rings without a structural register
    (AdgView.switch_rings)."""
    make = _KINDS.get(node.kind)
    if make is None:
        raise LoomError(f"fabric.{node.kind} '{node.name}': no fabric RTL for this component yet")
    if node.kind == "spatial_pe":
        return _spatial_pe(node, s, buffered)
    return _spatial_sw(node, s, comb_rings) if node.kind == "spatial_sw" else make(node, s)
