"""The configuration layout against LOOM's formats: field offsets are checked
with a decoder written the way LOOM's own tests/unit/*/check.py read config
words (read_bits / decode_mux), and sizes with the examples of LOOM's notes."""

from __future__ import annotations

import math
import random

import pytest

from loom.fabric.config_layout import (
    CMPF_PREDICATES,
    CMPI_PREDICATES,
    FabricLayout,
    cmpi_predicate,
    cont_cond,
    fabric_layout,
    join_mask,
)
from loom.ir import parse, verify_module
from loom.fabric.adg_view import adg_view


def layout_of(text: str) -> FabricLayout:
    parsed = parse(text, "adg.mlir")
    verify_module(parsed.module, "adg.mlir", parsed.op_positions)
    return fabric_layout(adg_view(parsed.module))


# --- LOOM's reading of config words (after tests/unit/*/check.py) ------------------


def loom_cw(count: int) -> int:
    return math.ceil(math.log2(count)) if count > 1 else 0


def read_bits(words: list[int], offset: int, width: int) -> int:
    return sum(((words[(offset + b) // 32] >> ((offset + b) % 32)) & 1) << b
               for b in range(width) if (offset + b) // 32 < len(words))


def decode_mux(words: list[int], offset: int, sel_bits: int) -> tuple[int, bool, bool]:
    return (read_bits(words, offset, sel_bits), bool(read_bits(words, offset + sel_bits, 1)),
            bool(read_bits(words, offset + sel_bits + 1, 1)))


# --- spatial_pe ----------------------------------------------------------------------

B = "!fabric.bits<32>"

DISABLE = f"""module {{
  fabric.spatial_pe @add_pe(%p0: {B}, %p1: {B}) -> ({B}) {{
    fabric.function_unit @fu_add(%a: i32, %b: i32) -> (i32) [latency = 1, interval = 1] {{
      %r = arith.addi %a, %b : i32
      fabric.yield %r : i32
    }}
    fabric.yield
  }}
  fabric.spatial_sw @result_mux [connectivity_table = ["11"]] : ({B}, {B}) -> ({B})
  fabric.module @m(%a: {B}, %b: {B}) -> ({B}) {{
    %add = fabric.instance @add_pe(%a, %b) {{sym_name = "pe_add"}} : ({B}, {B}) -> ({B})
    %sub = fabric.instance @add_pe(%a, %b) {{sym_name = "pe_sub"}} : ({B}, {B}) -> ({B})
    %o = fabric.instance @result_mux(%add, %sub) {{sym_name = "sw_out"}} : ({B}, {B}) -> ({B})
    fabric.yield %o : {B}
  }}
}}"""


def test_slice_order_primitives_then_pes():
    layout = layout_of(DISABLE)
    assert [(s.name, s.kind, s.word_offset) for s in layout.slices] == [
        ("sw_out", "spatial_sw", 0), ("pe_add", "spatial_pe", 1), ("pe_sub", "spatial_pe", 2)]
    assert layout.word_count == 3


def test_spatial_pe_disable_layout():
    # LOOM's spatial-pe-disable: 1 FU (2 in, 1 out), 2 PE inputs, 1 PE output = 9 bits.
    pe = layout_of(DISABLE).slice("pe_add")
    assert pe.bits == 9 and pe.word_count == 1
    enabled = pe.encode({"enable": 1, "in0.sel": 0, "in1.sel": 1, "out0.sel": 0})
    assert read_bits(enabled, 0, 1) == 1
    assert [decode_mux(enabled, 1 + 3 * k, 1) for k in range(2)] == [
        (0, False, False), (1, False, False)]
    assert decode_mux(enabled, 7, 0) == (0, False, False)
    unused = pe.encode(pe.unused())
    assert read_bits(unused, 0, 1) == 0
    assert [decode_mux(unused, 1 + 3 * k, 1) for k in range(2)] == [(0, False, True)] * 2
    assert decode_mux(unused, 7, 0) == (0, False, True)


CONFIGS = """module {
  fabric.spatial_pe @const_pe(%ctrl: none) -> (i32) {
    fabric.function_unit @fu_constant(%arg0: none) -> (i32) [latency = 1, interval = 1] {
      %0 = handshake.constant %arg0 {value = 0 : i32} : i32
      fabric.yield %0 : i32
    }
    fabric.yield
  }
  fabric.spatial_pe @join_pe(%c: none, %a: i32, %c2: none, %g: i1) -> (none) {
    fabric.function_unit @fu_join(%arg0: none, %arg1: i32, %arg2: none, %arg3: i1) -> (none) [latency = 1, interval = 1] {
      %0 = handshake.join %arg0, %arg1, %arg2, %arg3 : none, i32, none, i1
      fabric.yield %0 : none
    }
    fabric.yield
  }
  fabric.spatial_pe @cmp_pe(%a: i32, %b: i32) -> (i1) {
    fabric.function_unit @fu_cmpi(%arg0: i32, %arg1: i32) -> (i1) [latency = 1, interval = 1] {
      %0 = arith.cmpi eq, %arg0, %arg1 : i32
      fabric.yield %0 : i1
    }
    fabric.yield
  }
  fabric.spatial_pe @stream_pe(%s: index, %t: index, %u: index) -> (index, i1) {
    fabric.function_unit @fu_stream(%arg0: index, %arg1: index, %arg2: index) -> (index, i1) [latency = -1, interval = -1] {
      %0, %1 = dataflow.stream %arg0, %arg1, %arg2 {step_op = "+=", cont_cond = "<"} : (index, index, index) -> (index, i1)
      fabric.yield %0, %1 : index, i1
    }
    fabric.yield
  }
  fabric.module @m(%ctrl: none, %c2: none, %a: i32, %b: i32, %g: i1, %s: index, %t: index, %u: index) -> (i32, none, i1, index, i1) {
    %k = fabric.instance @const_pe(%ctrl) {sym_name = "pe_const"} : (none) -> (i32)
    %j = fabric.instance @join_pe(%ctrl, %a, %c2, %g) {sym_name = "pe_join"} : (none, i32, none, i1) -> (none)
    %c = fabric.instance @cmp_pe(%a, %b) {sym_name = "pe_cmpi"} : (i32, i32) -> (i1)
    %x:2 = fabric.instance @stream_pe(%s, %t, %u) {sym_name = "pe_stream"} : (index, index, index) -> (index, i1)
    fabric.yield %k, %j, %c, %x#0, %x#1 : i32, none, i1, index, i1
  }
}"""


def test_fu_fields_at_loom_offsets():
    layout = layout_of(CONFIGS)
    const = layout.slice("pe_const").encode({"enable": 1, "fu.0.value": 42})
    assert read_bits(const, 0, 1) == 1 and read_bits(const, 5, 32) == 42  # after 2 muxes of 0+2

    join = layout.slice("pe_join")
    mask = join_mask([0, 1, 2])
    words = join.encode({"enable": 1, "in0.sel": 0, "in1.sel": 1, "in2.sel": 2,
                         "in3.disconnect": 1, "fu.0.value": mask})
    sel_bits = loom_cw(4)
    assert [decode_mux(words, 1 + k * (sel_bits + 2), sel_bits) for k in range(4)] == [
        (0, False, False), (1, False, False), (2, False, False), (0, False, True)]
    assert read_bits(words, 1 + 4 * (sel_bits + 2) + 2, 4) == 0b0111

    cmpi = layout.slice("pe_cmpi").encode({"enable": 1, "in1.sel": 1,
                                          "fu.0.value": cmpi_predicate("sge")})
    assert decode_mux(cmpi, 4, 1) == (1, False, False)
    assert read_bits(cmpi, 1 + 3 + 3 + 2, 4) == 5  # MLIR's ordinal of sge

    stream = layout.slice("pe_stream")
    assert stream.fu_layouts[0].fu_fields[0].kind == "stream_cont_cond"
    words = stream.encode({"enable": 1, "in1.sel": 1, "in2.sel": 2, "out1.sel": 1,
                           "fu.0.value": cont_cond("!=")})
    assert decode_mux(words, 1 + 2 * 4, 2) == (2, False, False)
    assert decode_mux(words, 1 + 3 * 4 + 3, 1) == (1, False, False)
    assert read_bits(words, 1 + 3 * 4 + 2 * 3, 5) == 0b10000


def test_a_unit_reads_what_its_configured_muxes_pick():
    # fu_alu of an ALU PE (docs/fabric/function_unit.md): op0 = constant fired
    # by input 2, op1 = mux(input 1, op0), ops 2..9 the ALU's on (input 0,
    # op1), op10 = mux over them. Unread: what only unpicked mux inputs (or
    # unread ops) consume
    from loom.fabric.presets import preset
    pe = fabric_layout(adg_view(preset("chess-2x2").build())).slice("pe_0_0")
    alu = next(fu for fu in pe.fu_layouts if fu.name == "fu_alu")
    assert [f.sources for f in alu.fu_fields if f.kind == "mux"] == [
        ("arg1", "op0"), tuple(f"op{i}" for i in range(2, 10))]
    others = {f"op{i}" for i in range(2, 10)}
    assert alu.unread({"fu.1.sel": 0, "fu.10.sel": 0}) == {"op0", "arg2"} | others - {"op2"}
    assert alu.unread({"fu.1.sel": 1, "fu.10.sel": 3}) == {"arg1"} | others - {"op5"}
    assert not any(fu.unread({}) for fu in pe.fu_layouts if not fu.fu_fields)


def test_predicate_ordinals_are_mlirs():
    assert CMPI_PREDICATES[:3] == ("eq", "ne", "slt") and CMPI_PREDICATES[9] == "uge"
    assert CMPF_PREDICATES[1] == "oeq" and CMPF_PREDICATES[15] == "true"


MAC = f"""module {{
  fabric.spatial_sw @test_sw [connectivity_table = ["11111", "11111", "11111", "11111"]] : ({B}, {B}, {B}, {B}, {B}) -> ({B}, {B}, {B}, {B})
  fabric.spatial_pe @test_pe(%p0: {B}, %p1: {B}) -> ({B}, {B}) {{
    fabric.function_unit @fu_add(%arg0: i32, %arg1: i32) -> (i32) [latency = 1, interval = 1] {{
      %0 = arith.addi %arg0, %arg1 : i32
      fabric.yield %0 : i32
    }}
    fabric.function_unit @fu_mac(%arg0: i32, %arg1: i32, %arg2: i32) -> (i32, i32) [latency = 1, interval = 1] {{
      %d = arith.muli %arg0, %arg1 : i32
      %e = arith.addi %d, %arg2 : i32
      %g = fabric.mux %d, %e {{sel = 0 : i64, discard = false, disconnect = false}} : i32, i32 -> i32
      fabric.yield %g, %d : i32, i32
    }}
    fabric.yield
  }}
  fabric.module @sw1_pe1(%in0: {B}, %in1: {B}, %in2: {B}) -> ({B}, {B}) {{
    %sw:4 = fabric.instance @test_sw(%in0, %in1, %in2, %pe#0, %pe#1) {{sym_name = "sw_0"}} : ({B}, {B}, {B}, {B}, {B}) -> ({B}, {B}, {B}, {B})
    %pe:2 = fabric.instance @test_pe(%sw#0, %sw#1) {{sym_name = "pe_0"}} : ({B}, {B}) -> ({B}, {B})
    fabric.yield %sw#2, %sw#3 : {B}, {B}
  }}
}}"""


def test_sw1_pe1_layout_and_mux_field():
    layout = layout_of(MAC)
    sw, pe = layout.slices
    assert (sw.name, sw.bits, pe.name) == ("sw_0", 20, "pe_0")  # 4 outputs x 5 inputs
    # enable + opcode(1) + 3 inputs x (1+2) + 2 outputs x (1+2) + mux field (cw(2)+2)
    assert pe.bits == 1 + 1 + 9 + 6 + 3
    words = pe.encode({"enable": 1, "opcode": 1, "fu.2.sel": 1})
    assert decode_mux(words, 1 + 1 + 9 + 6, 1) == (1, False, False)
    routes = sw.encode({"route.o0.i3": 1})  # output 0 from input 3: bit 0*5+3
    assert routes == [1 << 3]


def test_encode_decode_round_trip_random():
    rng = random.Random(7)
    for text in (DISABLE, CONFIGS, MAC):
        layout = layout_of(text)
        for _ in range(50):
            values = {}
            for s in layout.slices:
                v = {f.name: rng.randrange(1 << f.width) for f in s.fields}
                if s.fu_layouts:
                    v["opcode"] = rng.randrange(len(s.fu_layouts))
                    v |= {f.name: rng.randrange(1 << f.width)
                          for f in s.fu_layouts[v["opcode"]].fields()}
                values[s.name] = v
            assert layout.decode(layout.encode(values)) == values


def test_encode_refuses_values_that_do_not_fit():
    pe = layout_of(DISABLE).slice("pe_add")
    with pytest.raises(ValueError, match="in0.sel = 2 does not fit in 1 bits"):
        pe.encode({"in0.sel": 2})


# --- memories, tags, fifo, temporal switch ----------------------------------------------

T1 = "!fabric.tagged<!fabric.bits<32>, i1>"
T2 = "!fabric.tagged<!fabric.bits<32>, i2>"

ROUTING = f"""module {{
  fabric.module @m(%mem: memref<?xi32>, %a: i32, %b: {B}, %c: i32) -> (i32, i32, {B}, {B}, i32) {{
    %f = fabric.fifo [depth = 2] (%a) : (i32) -> (i32)
    %fb = fabric.fifo @fb [depth = 2, bypassable] (%f) attributes {{bypassed = true}} : (i32) -> (i32)
    %t = fabric.add_tag %fb {{tag = 1 : i64}} : i32 -> {T1}
    %m = fabric.map_tag %t [table_size = 2] attributes {{table = [[1, 0, 3], [1, 1, 2]]}} : {T1} -> {T2}
    %ts:2 = fabric.temporal_sw @ts [num_route_table = 2, connectivity_table = ["1", "1"]] (%m) : ({T2}) -> ({T2}, {T2})
    %u = fabric.del_tag %ts#0 : {T2} -> i32
    %v = fabric.del_tag %ts#1 : {T2} -> i32
    %e:2 = fabric.extmemory @ext [ldCount = 1, stCount = 0, memrefType = memref<?xi32>, numRegion = 2] (%mem, %b) : (memref<?xi32>, {B}) -> ({B}, {B})
    %w = fabric.add_tag %c : i32 -> {T1}
    %x = fabric.del_tag %w : {T1} -> i32
    fabric.yield %u, %v, %e#0, %e#1, %x : i32, i32, {B}, {B}, i32
  }}
}}"""


def test_routing_slices():
    layout = layout_of(ROUTING)
    kinds = [(s.name, s.kind, s.bits) for s in layout.slices]
    # plain fifo: no slice; add_tag: its tag (none without one); map_tag: 2 x (1 + 1 + 2);
    # temporal_sw: 2 slots x (valid + tag(2) + 2 routes); extmemory: 2 regions x 5 words.
    assert kinds == [("fb", "fifo", 1), ("add_tag_0", "add_tag", 1), ("map_tag_0", "map_tag", 8),
                     ("ts", "temporal_sw", 10), ("ext", "extmemory", 320)]
    ext = layout.slice("ext")
    table = [1, 0, 1, 0, 2, 1, 1, 2, 0, 2]  # LOOM's multi-extmemory example
    values = {f"region{r}.{n}": table[r * 5 + k] for r in range(2)
              for k, n in enumerate(("valid", "start_lane", "end_lane", "addr_offset",
                                     "elem_size_log2"))}
    assert ext.encode(values) == table
    mt = layout.slice("map_tag_0").encode({"entry0.valid": 1, "entry0.src_tag": 0,
                                           "entry0.dst_tag": 3, "entry1.valid": 1,
                                           "entry1.src_tag": 1, "entry1.dst_tag": 2})
    # per entry [valid | src(1) | dst(2)], LSB first
    assert mt == [(1 | 0 << 1 | 3 << 2) | (1 | 1 << 1 | 2 << 2) << 4]


TPE = """module {
  fabric.module @m(%a: i32, %b: i32, %c: i32) -> (i32) {
    %ta = fabric.add_tag %a : i32 -> !fabric.tagged<!fabric.bits<32>, i1>
    %tb = fabric.add_tag %b : i32 -> !fabric.tagged<!fabric.bits<32>, i1>
    %tc = fabric.add_tag %c : i32 -> !fabric.tagged<!fabric.bits<32>, i1>
    %tout = fabric.temporal_pe @tpe [num_register = 2, num_instruction = 2, reg_fifo_depth = 1] inputs(%ta, %tb, %tc) : (!fabric.tagged<!fabric.bits<32>, i1>, !fabric.tagged<!fabric.bits<32>, i1>, !fabric.tagged<!fabric.bits<32>, i1>) -> (!fabric.tagged<!fabric.bits<32>, i1>) {
      fabric.function_unit @fu_add(%x: i32, %y: i32, %z: i32) -> (i32) [latency = 1, interval = 1] {
        %sum = arith.addi %x, %y : i32
        %unused = arith.xori %z, %z : i32
        fabric.yield %sum : i32
      }
      fabric.function_unit @fu_cmp(%x: i32, %y: i32) -> (i1) [latency = 1, interval = 1] {
        %0 = arith.cmpi slt, %x, %y : i32
        fabric.yield %0 : i1
      }
      fabric.yield
    }
    %out = fabric.del_tag %tout : !fabric.tagged<!fabric.bits<32>, i1> -> i32
    fabric.yield %out : i32
  }
}"""


def test_temporal_pe_size_follows_loom_formula():
    # I x (1 + tagW + cw(#FU) + maxIn(1+cw(R)) + maxIn(cw(#in)+2) + maxOut(cw(#out)+2)
    #      + maxOut(tagW + 1+cw(R))) + sum of FU payloads; add_tags without a tag: no slice.
    tag_w, n_fu, regs, max_in, max_out, n_in, n_out, insns = 1, 2, 2, 3, 1, 3, 1, 2
    per_insn = (1 + tag_w + loom_cw(n_fu) + max_in * (1 + loom_cw(regs))
                + max_in * (loom_cw(n_in) + 2) + max_out * (loom_cw(n_out) + 2)
                + max_out * (tag_w + 1 + loom_cw(regs)))
    (tpe,) = layout_of(TPE).slices
    assert (tpe.name, tpe.kind, tpe.bits) == ("tpe", "temporal_pe", insns * per_insn + 4)
