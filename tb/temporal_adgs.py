"""Small ADGs around one temporal PE, in the shape of LOOM's temporal unit
cases (PolyArch/loom tests/unit/temporal-pe-registers and its kin), for the
mapper's and the simulation's tests: written here, LOOM's case readable in
them.

`mac_adg` is temporal-pe-registers: a temporal PE of an adder and a
multiplier, two slots, two registers of two tokens; `a` and `b` enter with
tag 0, `c` with `c_tag`, either merged with `a` by a temporal switch into
the first of two PE inputs (LOOM's case) or on a third input of its own;
`done`: a done token beside the result (a kernel compiled from C has one);
`fixed`: each add_tag reaches the PE through an identity map_tag, so that
no add_tag drives the PE and every tag is the ADG's (an add_tag that does
is the mapper's to set: mapper/temporal_slots.py).

`slots_adg` is temporal-pe-slots: an adder and a multiplier in two slots of
one temporal PE of two inputs; temporal switches merge a0 (tag 0) with a1
(tag 1) and b0 with b1 onto its inputs, and split its one output by tag.
`DUAL_SLOT` and `REG_CHAIN` are DFGs of those cases' shape.
"""

from __future__ import annotations

T = "!fabric.tagged<!fabric.bits<32>, i1>"

PE = f"""  fabric.temporal_pe @tpe_regs({{params}}) -> ({T})
      [num_register = 2 : i64, num_instruction = 2 : i64, reg_fifo_depth = 2 : i64] {{{{
    fabric.function_unit @fu_add(%x: i32, %y: i32) -> (i32) [latency = 1, interval = 1] {{{{
      %r = arith.addi %x, %y : i32
      fabric.yield %r : i32
    }}}}
    fabric.function_unit @fu_mul(%x: i32, %y: i32) -> (i32) [latency = 1, interval = 1] {{{{
      %r = arith.muli %x, %y : i32
      fabric.yield %r : i32
    }}}}
    fabric.yield
  }}}}"""


def mac_adg(c_tag: int = 1, merged: bool = True, done: bool = False, fixed: bool = False) -> str:
    n = 2 if merged else 3
    params = ", ".join(f"%p{i}: {T}" for i in range(n))
    v = "%m" if fixed else "%t"   # the tagged a, b, c as the PE side sees them
    ins = f"%in0, {v}b" if merged else f"{v}a, {v}b, {v}c"
    table = "[[1 : i64, 0 : i64, 0 : i64], [1 : i64, 1 : i64, 1 : i64]]"
    mux = "".join(f"    %m{x} = fabric.map_tag %t{x} [table_size = 2 : i64] attributes "
                  f"{{table = {table}}} : {T} -> {T}\n" for x in "abc") if fixed else ""
    if merged:
        mux += (f'    %in0 = fabric.instance @mux({v}a, {v}c) {{sym_name = "tsw_in0"}} : '
                f"({T}, {T}) -> ({T})\n")
    start, end = (", %start: none", ", none") if done else ("", "")
    return f"""module {{
  fabric.temporal_sw @mux [num_route_table = 2, connectivity_table = ["11"]] : ({T}, {T}) -> ({T})
{PE.format(params=params)}
  fabric.module @tpe_mac(%a: i32, %b: i32, %c: i32{start}) -> (i32{end}) {{
    %ta = fabric.add_tag %a {{tag = 0 : i64}} : i32 -> {T}
    %tb = fabric.add_tag %b {{tag = 0 : i64}} : i32 -> {T}
    %tc = fabric.add_tag %c {{tag = {c_tag} : i64}} : i32 -> {T}
{mux}    %o = fabric.instance @tpe_regs({ins}) {{sym_name = "tpe_0"}} : ({", ".join([T] * n)}) -> ({T})
    %r = fabric.del_tag %o : {T} -> i32
    fabric.yield %r{", %start" if done else ""} : i32{end}
  }}
}}
"""


def slots_adg() -> str:
    mux = f"[num_route_table = 2, connectivity_table = [\"11\"]] : ({T}, {T}) -> ({T})"
    params = f"%p0: {T}, %p1: {T}"
    return f"""module {{
  fabric.temporal_sw @in_mux {mux}
  fabric.temporal_sw @out_demux [num_route_table = 2, connectivity_table = ["1", "1"]]
      : ({T}) -> ({T}, {T})
{PE.format(params=params).replace("num_register = 2", "num_register = 0").replace("reg_fifo_depth = 2", "reg_fifo_depth = 0")}
  fabric.module @tpe_slots(%a0: i32, %b0: i32, %a1: i32, %b1: i32) -> (i32, i32) {{
    %ta0 = fabric.add_tag %a0 {{tag = 0 : i64}} : i32 -> {T}
    %tb0 = fabric.add_tag %b0 {{tag = 0 : i64}} : i32 -> {T}
    %ta1 = fabric.add_tag %a1 {{tag = 1 : i64}} : i32 -> {T}
    %tb1 = fabric.add_tag %b1 {{tag = 1 : i64}} : i32 -> {T}
    %in0 = fabric.instance @in_mux(%ta0, %ta1) {{sym_name = "tsw_in0"}} : ({T}, {T}) -> ({T})
    %in1 = fabric.instance @in_mux(%tb0, %tb1) {{sym_name = "tsw_in1"}} : ({T}, {T}) -> ({T})
    %o = fabric.instance @tpe_regs(%in0, %in1) {{sym_name = "tpe_0"}} : ({T}, {T}) -> ({T})
    %s:2 = fabric.instance @out_demux(%o) {{sym_name = "tsw_out"}} : ({T}) -> ({T}, {T})
    %r0 = fabric.del_tag %s#0 : {T} -> i32
    %r1 = fabric.del_tag %s#1 : {T} -> i32
    fabric.yield %r0, %r1 : i32, i32
  }}
}}
"""


DUAL_SLOT = """module {
  handshake.func @dual_slot(%a0: i32, %b0: i32, %a1: i32, %b1: i32, ...) -> (i32, i32)
      attributes {argNames = ["a0", "b0", "a1", "b1"], resNames = ["sum", "prod"]} {
    %0 = arith.addi %a0, %b0 : i32
    %1 = arith.muli %a1, %b1 : i32
    return %0, %1 : i32, i32
  }
}
"""
REG_CHAIN = """module {
  handshake.func @reg_chain(%a: i32, %b: i32, %c: i32, ...) -> (i32)
      attributes {argNames = ["a", "b", "c"], resNames = ["result"]} {
    %sum = arith.addi %a, %b : i32
    %prod = arith.muli %sum, %c : i32
    return %prod : i32
  }
}
"""


__all__ = ["DUAL_SLOT", "REG_CHAIN", "mac_adg", "slots_adg"]
