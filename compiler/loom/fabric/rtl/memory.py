"""fabric.memory and fabric.extmemory RTL: LOOM's tagged port families and
region table around the direct flow's memory units (templates/
fabric_memory.sv.j2, fabric_extmemory.sv.j2; the lanes are those of
templates/memory.sv.j2 and extmemory.sv.j2, so the throughput work on those
carries over and an extmemory's storage sits behind the same master port as
a kernel's).

Families in LOOM's order: inputs ld_addr (ldCount > 0), st_addr and st_data
(stCount > 0); outputs ld_data and ld_done, then st_done. A family of n
lanes has its lane in the tag (tag k = lane k); the inner unit has one port
per lane. Element addresses are 32 bits (LOOM's ADDR_WIDTH).
"""

from __future__ import annotations

from dataclasses import dataclass
from math import prod

from xdsl.dialects.builtin import DYNAMIC_INDEX, MemRefType

from loom.diagnostics import LoomError
from loom.dialects import fabric_syntax as fs
from loom.dialects.fabric_types import scalar_width
from loom.fabric.config_layout import REGION_FIELD_NAMES, Slice, region_field
from loom.fabric.adg_view import ViewNode
from loom.fabric.rtl.graph import tag_width, value_width, wire_width
from loom.fabric.rtl.modules import Component, Module, digest, field_offsets, render_fabric
from loom.rtl.units import master_signals, unit_spec
from loom.rtl.render import render_spec

ADDR_BITS = 32
"""Element addresses (LOOM's ADDR_WIDTH): a region's arithmetic is 32-bit."""

@dataclass(frozen=True)
class Family:
    name: str
    lane: int
    """Its index among the component's input (or output) lanes."""
    v: int
    k: int
    n: int


def _families(names: list[str], types, counts: dict[str, int]) -> list[Family]:
    return [Family(name, lane, value_width(t), tag_width(t), counts[name])
            for lane, (name, t) in enumerate(zip(names, types))]


def _shape(node: ViewNode, memref: MemRefType) -> tuple[int, ...]:
    shape = tuple(memref.get_shape())
    if node.kind == "extmemory":
        return (1 << ADDR_BITS,)   # the storage is outside: any 32-bit element address
    if any(d == DYNAMIC_INDEX for d in shape):
        raise LoomError(f"fabric.memory '{node.name}': memrefType {memref} needs a static shape "
                        "(the on-chip storage is sized by it)")
    return (prod(shape),)


def memory_component(node: ViewNode, s: Slice | None) -> Component:
    d = node.definition
    if node.kind == "memory" and not fs.bool_param(d, "is_private", True):
        raise LoomError(f"fabric.memory '{node.name}' with is_private = false is not supported "
                        "(no slave port in the fabric RTL)")
    ld, st = fs.int_param(d, "ldCount", 0) or 0, fs.int_param(d, "stCount", 0) or 0
    memref = d.attributes["memref_type"]
    assert isinstance(memref, MemRefType) and s is not None
    w = scalar_width(memref.element_type) or 0
    counts = {"ld_addr": ld, "st_addr": st, "st_data": st, "ld_data": ld, "ld_done": ld,
              "st_done": st}
    in_types = [t for t in node.in_types if not isinstance(t, MemRefType)]
    fam_in = _families((["ld_addr"] if ld else []) + (["st_addr", "st_data"] if st else []),
                       in_types, counts)
    fam_out = _families((["ld_data", "ld_done"] if ld else []) + (["st_done"] if st else []),
                        list(node.out_types)[:len(counts)], counts)
    if node.kind == "memory" and st == 0:
        raise LoomError(f"fabric.memory '{node.name}' has no store lane: nothing could write it")
    shape = _shape(node, memref)
    params: dict = dict(ld=ld, st=st, shape=shape, w=w, aw=ADDR_BITS)
    spec = unit_spec(node.kind, **params)
    inner = Module(spec.module, render_spec(spec, f"the lanes of fabric.{node.kind} {node.name}"))
    w_in = max(wire_width(t) for t in in_types)
    w_out = max(wire_width(t) for t in node.out_types)
    offs = field_offsets(s)
    regions = [tuple(offs[region_field(r, f)][0] for f in REGION_FIELD_NAMES)
               for r in range(len(offs) // len(REGION_FIELD_NAMES))]
    lanes = [p for p in spec.ports if not p.name.startswith("mem_")]
    # the inner unit's lane signals, each to a wire u_<signal>
    inner_signals = [(sig, bits) for p in lanes for _, sig, bits in p.signals()]
    # an extmemory's master port is the inner bridge's, passed through
    master = tuple(("in" if d == "input" else "out", sig, bits)
                   for d, sig, bits in master_signals(spec))
    fams = {f.name: f for f in (*fam_in, *fam_out)}
    context = dict(
        ld=ld, st=st, w=w, depth=shape[0], n_in=len(fam_in), n_out=len(fam_out), w_in=w_in,
        w_out=w_out, cfg_bits=s.bits, regions=regions, fam_in=fam_in, fam_out=fam_out,
        fams=fams, inner=spec.module, inner_signals=inner_signals, master=master,
        unused=_unused(fam_in, w_in, regions))
    name = f"loom_fabric_{node.kind}_l{ld}_s{st}_w{w}_r{len(regions)}_" + digest(
        (params, fam_in, fam_out, regions))
    mod = render_fabric(f"fabric_{node.kind}", name, dict(params, regions=len(regions)),
                        f"fabric.{node.kind} {node.name}", **context)
    return Component(name, len(fam_in), w_in, len(fam_out), w_out, s.bits, True,
                     (inner, mod), master)


def _unused(fam_in: list[Family], w_in: int, regions: list) -> list[tuple[str, int, int]]:
    """(signal, hi, lo) of the bits no family reads: lane padding above a
    family's {tag, value}, the high bits of a region's valid and
    elem_size_log2 words."""
    unused = [("in_data", f.lane * w_in + w_in - 1, f.lane * w_in + f.v + f.k)
              for f in fam_in if f.v + f.k < w_in]
    for valid, _start, _end, _off, esl in regions:
        unused += [("cfg", valid + 31, valid + 1), ("cfg", esl + 31, esl + 3)]
    return unused


__all__ = ["ADDR_BITS", "memory_component"]
