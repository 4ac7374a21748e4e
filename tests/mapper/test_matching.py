"""Tech-mapping against hand-worked expectations (docs/loom-fabric-notes.md 3.2,
seed 001, and the width rule in mapper/port_types.py)."""

from __future__ import annotations

import pytest
from xdsl.ir import Operation

from loom.fabric import function_units as fu
from loom.ir import parse, verify_module
from loom.fabric.adg_view import adg_view
from loom.mapper.diagnosis import smallest_preset
from loom.mapper.dfg_ops import describe, mapped_ops
from loom.mapper.inventory import hw_memories, hw_units
from loom.mapper.matching import candidates, effective_graphs
from loom.mapper.memory_binding import memory_candidates
from tests.fabric.test_function_units import _one_pe

MAC = ("%d = arith.muli %arg0, %arg1 : i32\n"
       "%e = arith.addi %d, %arg2 : i32\n"
       "%g = fabric.mux %d, %e {sel = 0 : i64, discard = false, disconnect = false}"
       " : i32, i32 -> i32\n"
       "fabric.yield %g : i32")
MINMAX = ("%c = arith.cmpi slt, %arg0, %arg1 : i32\n"
          "%r = arith.select %c, %arg0, %arg1 : i32\n"
          "fabric.yield %r : i32")

UNITS = [
    fu.binary("fu_addi", "arith.addi", "i32"),        # opcode 0
    fu.binary("fu_addi64", "arith.addi", "i64"),      # 1
    fu.binary("fu_subi", "arith.subi", "i32"),        # 2
    fu.cmpi("fu_cmpi", "i32"),                        # 3
    fu.cmpi("fu_cmpi64", "i64"),                      # 4
    fu.join("fu_join", 4),                            # 5
    fu.gate("fu_gate", "i32"),                        # 6
    fu.invariant("fu_invariant", "i32"),              # 7
    fu.constant("fu_const", "i32"),                   # 8
    fu.raw("fu_mac", ["i32"] * 3, ["i32"], MAC),      # 9
    fu.raw("fu_minmax", ["i32"] * 2, ["i32"], MINMAX),  # 10
    fu.binary("fu_shrsi64", "arith.shrsi", "i64"),    # 11
]


def _adg():
    return _one_pe(UNITS).build()


@pytest.fixture(scope="module")
def units():
    return hw_units(adg_view(_adg()))


def _dfg(body: str, args: str, results: str = "") -> list[Operation]:
    text = (f"module {{\n  handshake.func @k({args}) -> ({results}) {{\n{body}\n"
            f"    handshake.return\n  }}\n}}\n")
    parsed = parse(text, "k.dfg.mlir")
    func = next(iter(parsed.module.ops))
    return mapped_ops(func.regions[0].block)


def _hosts(cands) -> list[tuple[str, tuple]]:
    return [(c.unit, c.inputs) for c in cands]


def test_units_in_body_order(units):
    assert [(u.pe, u.opcode, u.name) for u in units[:3]] == [
        ("pe_0", 0, "fu_addi"), ("pe_0", 1, "fu_addi64"), ("pe_0", 2, "fu_subi")]


def test_commutative_swap_and_wider_unit(units):
    (add,) = _dfg("    %s = arith.addi %a, %b : i32\n    handshake.sink %s : i32",
                  "%a: i32, %b: i32")
    # straight and swapped on both adders (i32 onto i64 is exact for addi);
    # the mac's sel=1 graph is two ops, so not a lone addi host
    assert _hosts(candidates(add, units)) == [
        ("fu_addi", (0, 1)), ("fu_addi", (1, 0)),
        ("fu_addi64", (0, 1)), ("fu_addi64", (1, 0))]


def test_subi_is_not_swapped(units):
    (sub,) = _dfg("    %s = arith.subi %a, %b : i32\n    handshake.sink %s : i32",
                  "%a: i32, %b: i32")
    assert _hosts(candidates(sub, units)) == [("fu_subi", (0, 1))]


def test_signed_compare_needs_exact_width(units):
    (cmp,) = _dfg("    %c = arith.cmpi slt, %a, %b : i32\n    handshake.sink %c : i1",
                  "%a: i32, %b: i32")
    cands = candidates(cmp, units)
    # not fu_cmpi64: a zero-extended i32 loses its sign; slt is ordinal 2,
    # and with the operands swapped a < b is b > a: sgt, ordinal 4
    assert [(c.unit, c.inputs, c.fields) for c in cands] == [
        ("fu_cmpi", (0, 1), (("fu.0.value", 2),)), ("fu_cmpi", (1, 0), (("fu.0.value", 4),))]


def test_equality_compare_also_needs_exact_width(units):
    # an i32 value computed on a 64-bit adder keeps its carry out: eq on the
    # 64-bit unit would compare bits the software value does not have
    (cmp,) = _dfg("    %c = arith.cmpi eq, %a, %b : i32\n    handshake.sink %c : i1",
                  "%a: i32, %b: i32")
    assert [c.unit for c in candidates(cmp, units)] == ["fu_cmpi", "fu_cmpi"]   # and swapped


def test_narrow_shrsi_has_no_wider_host(units):
    (shr,) = _dfg("    %s = arith.shrsi %a, %b : i32\n    handshake.sink %s : i32",
                  "%a: i32, %b: i32")
    assert candidates(shr, units) == []
    (shr64,) = _dfg("    %s = arith.shrsi %a, %b : i64\n    handshake.sink %s : i64",
                    "%a: i64, %b: i64")
    assert _hosts(candidates(shr64, units)) == [("fu_shrsi64", (0, 1))]


def test_invariant_never_maps_onto_gate(units):
    (inv,) = _dfg("    %o = dataflow.invariant %c, %v : i1, i32 -> i32\n"
                  "    handshake.sink %o : i32", "%c: i1, %v: i32")
    assert [c.unit for c in candidates(inv, units)] == ["fu_invariant"]
    (gate,) = _dfg("    %o, %q = dataflow.gate %v, %c : i32, i1 -> i32, i1\n"
                   "    handshake.sink %o : i32\n    handshake.sink %q : i1", "%v: i32, %c: i1")
    assert [c.unit for c in candidates(gate, units)] == ["fu_gate"]


def test_join_binds_to_any_subset_of_inputs(units):
    (join,) = _dfg("    %j = handshake.join %a, %b : none, none\n    handshake.sink %j : none",
                   "%a: none, %b: none")
    cands = candidates(join, units)
    masks = [dict(c.fields)["fu.0.value"] for c in cands]
    assert masks == [0b0011, 0b0101, 0b1001, 0b0110, 0b1010, 0b1100]
    assert cands[1].inputs == (0, None, 1, None)


def test_constant_value_is_the_field(units):
    (const,) = _dfg("    %k = handshake.constant %c {value = -3 : i32} : i32\n"
                    "    handshake.sink %k : i32", "%c: none")
    (cand,) = candidates(const, units)
    assert (cand.unit, dict(cand.fields)) == ("fu_const", {"fu.0.value": 2**32 - 3})


def test_mac_selections(units):
    mac = next(u for u in units if u.name == "fu_mac")
    graphs = effective_graphs(mac.definition)
    assert [([o.name for o in g.ops], g.mux_fields) for g in graphs] == [
        (["arith.muli"], (("fu.2.sel", 0),)),
        (["arith.muli", "arith.addi"], (("fu.2.sel", 1),))]
    (mul,) = _dfg("    %p = arith.muli %a, %b : i32\n    handshake.sink %p : i32",
                  "%a: i32, %b: i32")
    # sel = 0 hosts a lone muli; the third input stays disconnected
    assert [(c.unit, c.inputs, c.fields) for c in candidates(mul, units)] == [
        ("fu_mac", (0, 1, None), (("fu.2.sel", 0),)),
        ("fu_mac", (1, 0, None), (("fu.2.sel", 0),))]


def test_minsi_and_maxsi_on_compare_select(units):
    for op, pred in (("minsi", 2), ("maxsi", 4)):
        (m,) = _dfg(f"    %m = arith.{op} %a, %b : i32\n    handshake.sink %m : i32",
                    "%a: i32, %b: i32")
        assert [(c.unit, c.inputs, c.fields) for c in candidates(m, units)] == [
            ("fu_minmax", (0, 1), (("fu.0.value", pred),))]


def test_forks_buffers_sinks_are_not_mapped():
    ops = _dfg("    %f:2 = fork [2] %a : i32\n"
               "    %s = arith.addi %f#0, %f#1 : i32\n    handshake.sink %s : i32",
               "%a: i32")
    assert [o.name for o in ops] == ["arith.addi"]


LOAD2 = """\
module {
  handshake.func @k(%mem: memref<?xi32>, %i0: index, %i1: index, %c0: none, %c1: none)
      -> (i32, i32) {
    %d0, %a0 = load [%i0] %m#0, %c0 : index, i32
    %d1, %a1 = load [%i1] %m#1, %c1 : index, i32
    %m:4 = extmemory[ld = 2, st = 0] (%mem : memref<?xi32>) (%a0, %a1) {id = 0 : i32}
        : (index, index) -> (i32, i32, none, none)
    handshake.return %d0, %d1 : i32, i32
  }
}
"""


def _extmemory(text: str) -> Operation:
    parsed = parse(text, "k.dfg.mlir")
    verify_module(parsed.module, "k.dfg.mlir", parsed.op_positions)
    return next(op for op in parsed.module.walk() if op.name == "handshake.extmemory")


LOAD1 = """\
module {
  handshake.func @k(%mem: memref<?xi32>, %i0: index, %c0: none) -> (i32) {
    %d0, %a0 = load [%i0] %m#0, %c0 : index, i32
    %m:2 = extmemory[ld = 1, st = 0] (%mem : memref<?xi32>) (%a0) {id = 0 : i32}
        : (index) -> (i32, none)
    handshake.return %d0 : i32
  }
}
"""


def _preset(name: str) -> tuple[Operation, list[str]]:
    """The preset's module and its extmemory names as its text spells them."""
    import re

    from loom.fabric.presets import preset
    b = preset(name)
    return b.build(), re.findall(r"fabric\.extmemory @(\w+)", b.emit())


@pytest.mark.parametrize("adg, lanes", [("chess-2x2", 0), ("chess-2x2-ext1", 0),
                                        ("chess-2x2-ext2x2", 2)])
def test_two_load_lanes_need_a_tagged_memory(adg, lanes):
    module, names = _preset(adg)
    hosts = names if lanes == 2 else []
    assert [m.name for m in memory_candidates(_extmemory(LOAD2), hw_memories(adg_view(module)))] == hosts


def test_one_lane_memory_binds_untagged():
    module, names = _preset("chess-2x2-ext1")
    mems = hw_memories(adg_view(module))
    assert [(m.name, m.kind, m.ld_count, m.st_count, m.tagged) for m in mems] == [
        (names[0], "extmemory", 1, 1, False)]
    assert [m.name for m in memory_candidates(_extmemory(LOAD1), mems)] == names


def test_the_smallest_preset_with_a_host(units):
    # the tiny ADG has no i64 multiplier, chess-2x2 has one; no preset has an
    # i16 shift under the exact-width rule (its shrsi units are i32 and i64)
    (mul,) = _dfg("    %s = arith.muli %a, %b : i64\n    handshake.sink %s : i64",
                  "%a: i64, %b: i64")
    assert describe(mul) == "arith.muli (i64, i64) -> (i64)"
    assert not candidates(mul, units)
    assert smallest_preset(mul, ["chess-2x2"]) == "chess-2x2"
    (shr,) = _dfg("    %s = arith.shrsi %a, %b : i16\n    handshake.sink %s : i16",
                  "%a: i16, %b: i16")
    assert smallest_preset(shr, ["chess-2x2"]) is None


def test_a_bare_token_rides_a_data_port(units):
    # LOOM: none has width 0 and fits any port; the condition stays exact (i1)
    (inv,) = _dfg("    %o = dataflow.invariant %c, %v : i1, none -> none\n"
                  "    handshake.sink %o : none", "%c: i1, %v: none")
    assert [(c.unit, c.inputs) for c in candidates(inv, units)] == [("fu_invariant", (0, 1))]


def _local(elements: int, elem: str = "i32") -> Operation:
    """A handshake.memory (a local C array) of `elements` x `elem`, one load and one store."""
    text = f"""\
module {{
  handshake.func @k(%i0: index, %i1: index, %v: {elem}, %c0: none, %c1: none) -> ({elem}) {{
    %sd, %sa = store [%i0] %v, %c0 : index, {elem}
    %d0, %a0 = load [%i1] %m#0, %c1 : index, {elem}
    %m:3 = memory[ld = 1, st = 1] (%sd, %sa, %a0) {{id = 0 : i32, lsq = false}}
        : memref<{elements}x{elem}>, ({elem}, index, index) -> ({elem}, none, none)
    handshake.return %d0 : {elem}
  }}
}}
"""
    parsed = parse(text, "k.dfg.mlir")
    verify_module(parsed.module, "k.dfg.mlir", parsed.op_positions)
    return next(op for op in parsed.module.walk() if op.name == "handshake.memory")


@pytest.mark.parametrize("elements, elem, hosted", [
    (64, "i32", True), (256, "i64", True), (257, "i32", False), (16, "i64", True)])
def test_a_local_array_binds_to_an_on_chip_memory_that_holds_it(elements, elem, hosted):
    # presets.py: `-mem` memories are memref<256xi64>; a software memory
    # binds to a hardware one of its kind (never an extmemory) with room
    # for all its elements
    module, _ = _preset("chess-2x2-ext1-mem2")
    mems = hw_memories(adg_view(module))
    assert sorted((m.kind, m.elements) for m in mems) == [
        ("extmemory", None), ("memory", 256), ("memory", 256)]
    found = memory_candidates(_local(elements, elem), mems)
    assert [m.kind for m in found] == (["memory", "memory"] if hosted else [])


def test_a_memory_is_described_by_its_lanes_and_memref_not_its_ports():
    # a diagnosis names a memory by what decides where it fits; its port list
    # grows with its lanes (sha256_block's local array has 130 operands)
    assert describe(_local(64)) == "handshake.memory[ld = 1, st = 1] of memref<64xi32>"
    assert describe(_extmemory(LOAD1)) == "handshake.extmemory[ld = 1, st = 0] of memref<?xi32>"


def test_a_float_rides_units_that_only_move_it(units):
    # a float value through a gate or an invariant (integer units of its
    # width) passes bit for bit; an op that reads it as a number needs a float
    # unit: addf has no host on the integer adders, nor f32 data on i32 compares
    gate, inv = _dfg("    %o, %q = dataflow.gate %v, %c : f32, i1 -> f32, i1\n"
                     "    %i = dataflow.invariant %q, %o : i1, f32 -> f32\n"
                     "    handshake.sink %i : f32", "%v: f32, %c: i1")
    assert [c.unit for c in candidates(gate, units)] == ["fu_gate"]
    assert [c.unit for c in candidates(inv, units)] == ["fu_invariant"]
    (add,) = _dfg("    %s = arith.addf %a, %b : f32\n    handshake.sink %s : f32",
                  "%a: f32, %b: f32")
    assert candidates(add, units) == []
    # an f64 is wider than the i32 gate: the width rule still holds
    (wide,) = _dfg("    %o, %q = dataflow.gate %v, %c : f64, i1 -> f64, i1\n"
                   "    handshake.sink %o : f64\n    handshake.sink %q : i1", "%v: f64, %c: i1")
    assert candidates(wide, units) == []


def test_a_float_constant_is_its_bit_pattern(units):
    (const,) = _dfg("    %k = handshake.constant %c {value = -1.5 : f32} : f32\n"
                    "    handshake.sink %k : f32", "%c: none")
    (cand,) = candidates(const, units)
    # IEEE binary32 -1.5: sign 1, exponent 127, fraction 0.5
    assert (cand.unit, dict(cand.fields)) == ("fu_const", {"fu.0.value": 0xBFC00000})
