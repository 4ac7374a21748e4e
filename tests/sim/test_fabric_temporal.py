"""A kernel on a temporal PE, from the mapper to the per-edge check (issue 35
items 2 and 4). The ADG is LOOM's temporal-pe-registers case (tests/unit of
PolyArch/loom; tb/temporal_adgs.py) with a done token beside it: a temporal PE of an
adder and a multiplier, two slots, two registers; a temporal switch merges
`a` (tag 0) and `c` (tag 1) onto its first input. The kernel computes
(a + b) * c. What the mapping must be is LOOM's (that case's check.py: the
adder in slot 0 with tag 0 writes register 0, the multiplier in slot 1 with
tag 1 reads it and takes `c` from input 0); the values come from the C.
Broken configurations (a wrong slot tag, a wrong opcode, a wrong
route-table entry) must fail the per-edge check on the edge they break."""

from __future__ import annotations

import json
import re
from dataclasses import replace

import pytest

from loom.cli import main
from loom.sim import fabric_flow, profiles
from loom.sim.fabric_flow import FabricSetup
from tb.fabric_runner import mapped_c_kernel
from tb.temporal_adgs import DUAL_SLOT, REG_CHAIN, mac_adg, slots_adg

pytestmark = [pytest.mark.rtl, pytest.mark.xdist_group("temporal_mac")]

ADG = mac_adg(done=True)
KERNEL = """\
int mac3(int a, int b, int c) {
  return (a + b) * c;
}

int main(void) {
  mac3(3, 4, 5);
  mac3(-7, 2, 9);
  return 0;
}
"""
RESULT = (3 + 4) * 5
"""Invocation 0's result."""


@pytest.fixture(scope="module")
def fabric(tmp_path_factory) -> FabricSetup:
    root = tmp_path_factory.mktemp("temporal")
    (root / "tpe_mac.fabric.mlir").write_text(ADG)
    return mapped_c_kernel(KERNEL, "mac3", str(root / "tpe_mac.fabric.mlir"), root)


def _edge(s: FabricSetup, src_op: str, dst_op: str | None) -> int:
    """The DFG edge from the node running `src_op` (or argument `src_op`) to
    the one running `dst_op` (None: a result)."""
    m = s.mapped.mapping

    def named(n, op):
        return n.op_name == op if n.op is not None else f"arg{n.index}" == op

    return next(e.id for e in m.sw.edges if named(m.sw.nodes[e.src], src_op) and (
        m.sw.nodes[e.dst].kind == "output" if dst_op is None else named(m.sw.nodes[e.dst], dst_op)))


def test_maps_as_loom_maps_its_case(fabric):
    values = fabric.rtl.layout.decode(fabric.words)["tpe_0"]
    add = {k.split(".", 1)[1]: v for k, v in values.items() if k.startswith("insn0.")}
    mul = {k.split(".", 1)[1]: v for k, v in values.items() if k.startswith("insn1.")}
    assert (add["valid"], add["tag"], add["opcode"]) == (1, 0, 0)
    assert (add["in0.sel"], add["in0.disconnect"], add["in1.sel"], add["in1.disconnect"]) == (
        0, 0, 1, 0)
    assert (add["result0.is_reg"], add["result0.reg"], add["out0.discard"]) == (1, 0, 1)
    assert (mul["valid"], mul["tag"], mul["opcode"]) == (1, 1, 1)
    assert (mul["operand0.is_reg"], mul["operand0.reg"], mul["in0.disconnect"]) == (1, 0, 1)
    assert (mul["in1.sel"], mul["in1.disconnect"], mul["out0.sel"], mul["result0.tag"]) == (
        0, 0, 0, 1)
    report = json.loads(fabric.mapped.written.paths["map.json"].read_text())
    kinds = {r["sw_edge"]: r["kind"] for r in report["edge_routings"]}
    inner = _edge(fabric, "arith.addi", "arith.muli")
    assert [e for e, k in kinds.items() if k == "temporal_reg"] == [inner]
    [binding] = report["temporal_registers"]
    assert (binding["register_index"], binding["writer_output_index"],
            binding["reader_input_index"]) == (0, 0, 0)


@pytest.mark.parametrize("seed", [1, 2])
def test_passes_under_stalls(fabric, seed):
    result = fabric_flow.run(fabric, profiles.for_seed(seed))
    assert result.passed, result.problems
    assert result.report["edges"]["unobserved"] == []


def _broken(s: FabricSetup, values: dict) -> tuple[int, str, list[str]]:
    """(edge, the rest of the line) of the first divergence, and every problem."""
    result = fabric_flow.run(replace(s, words=s.rtl.layout.encode(values)), profiles.for_seed(1))
    assert not result.passed
    found = [m for p in result.problems
             if (m := re.match(r"first divergence on DFG edge (\d+) (.*)", p))]
    assert len(found) == 1, result.problems
    return int(found[0].group(1)), found[0].group(2), result.problems


def _first_divergence(s: FabricSetup, values: dict) -> tuple[int, str]:
    edge, rest, _ = _broken(s, values)
    return edge, rest


def test_a_wrong_slot_tag_leaves_its_operand_waiting_at_the_pe(fabric):
    values = fabric.rtl.layout.decode(fabric.words)
    values["tpe_0"]["insn1.tag"] = 0   # the multiplier's slot no longer takes c's tag 1
    # c reaches the PE and waits there; the PE's result is what goes wrong
    edge, rest, problems = _broken(fabric, values)
    assert edge == _edge(fabric, "arith.muli", None)
    assert f"expected {RESULT}, got nothing" in rest
    c = _edge(fabric, "arg2", "arith.muli")
    assert any(p.startswith(f"stuck at valid && !ready: DFG edge {c} ") for p in problems)


def test_a_wrong_opcode_shows_on_the_result(fabric):
    values = fabric.rtl.layout.decode(fabric.words)
    values["tpe_0"]["insn0.opcode"] = 1   # slot 0 multiplies: (3 * 4) * 5
    edge, rest = _first_divergence(fabric, values)
    assert edge == _edge(fabric, "arith.muli", None)
    assert f"expected {RESULT}, got {3 * 4 * 5}" in rest


def test_a_wrong_route_table_entry_stops_the_flow_it_drops(fabric):
    values = fabric.rtl.layout.decode(fabric.words)
    c_slot = next(t for t in range(2) if values["tsw_in0"][f"slot{t}.tag"] == 1)
    values["tsw_in0"][f"slot{c_slot}.route.o0.i1"] = 0   # c's tag routed nowhere
    edge, rest = _first_divergence(fabric, values)
    assert edge == _edge(fabric, "arg2", "arith.muli")
    assert "expected 5, got nothing" in rest


T2 = "!fabric.tagged<!fabric.bits<32>, i2>"
SHARED_ADG = f"""module {{
  fabric.temporal_pe @tpe_add(%p0: {T2}, %p1: {T2}, %p2: {T2}, %p3: {T2}) -> ({T2})
      [num_register = 2 : i64, num_instruction = 3 : i64, reg_fifo_depth = 1 : i64] {{
    fabric.function_unit @fu_add(%a: i32, %b: i32) -> (i32) [latency = 1, interval = 1] {{
      %r = arith.addi %a, %b : i32
      fabric.yield %r : i32
    }}
    fabric.yield
  }}
  fabric.module @tpe_add3(%a: i32, %b: i32, %c: i32, %d: i32, %start: none) -> (i32, none) {{
    %ta = fabric.add_tag %a {{tag = 0 : i64}} : i32 -> {T2}
    %tb = fabric.add_tag %b {{tag = 0 : i64}} : i32 -> {T2}
    %tc = fabric.add_tag %c {{tag = 1 : i64}} : i32 -> {T2}
    %td = fabric.add_tag %d {{tag = 1 : i64}} : i32 -> {T2}
    %o = fabric.instance @tpe_add(%ta, %tb, %tc, %td) {{sym_name = "tpe_0"}}
        : ({T2}, {T2}, {T2}, {T2}) -> ({T2})
    %r = fabric.del_tag %o : {T2} -> i32
    fabric.yield %r, %start : i32, none
  }}
}}
"""
"""One adder in a temporal PE of three slots: the kernel's three adds share it."""
SUM4 = """\
int sum4(int a, int b, int c, int d) {
  return (a + b) + (c + d);
}

int main(void) {
  sum4(1, 2, 3, 4);
  sum4(-5, 8, 100, -1);
  return 0;
}
"""


@pytest.fixture(scope="module")
def shared(tmp_path_factory) -> FabricSetup:
    root = tmp_path_factory.mktemp("temporal_shared")
    (root / "tpe_add3.fabric.mlir").write_text(SHARED_ADG)
    return mapped_c_kernel(SUM4, "sum4", str(root / "tpe_add3.fabric.mlir"), root)


def test_three_adds_share_one_unit_in_three_slots(shared):
    values = shared.rtl.layout.decode(shared.words)["tpe_0"]
    assert [values[f"insn{s}.valid"] for s in range(3)] == [1, 1, 1]
    assert [values[f"insn{s}.opcode"] for s in range(3)] == [0, 0, 0]   # the one adder
    assert len({values[f"insn{s}.tag"] for s in range(3)}) == 3         # LOOM: one tag a slot
    # a + b and c + d arrive with their add_tags' tags; their sum reads both from registers
    report = json.loads(shared.mapped.written.paths["map.json"].read_text())
    assert [r["kind"] for r in report["edge_routings"]].count("temporal_reg") == 2
    last = next(s for s in range(3) if values[f"insn{s}.operand0.is_reg"])
    assert values[f"insn{last}.operand1.is_reg"] == 1
    assert {values[f"insn{s}.tag"] for s in range(3) if s != last} == {0, 1}


@pytest.mark.parametrize("seed", [1, 2])
def test_shared_unit_passes_under_stalls(shared, seed):
    result = fabric_flow.run(shared, profiles.for_seed(seed))
    assert result.passed, result.problems


def _bundle(name: str, inputs: list[list[int]], outputs: list[list[int]]) -> str:
    """A sim bundle: per argument its value per invocation, per result the
    value expected (computed here from the DFG's arithmetic)."""
    return json.dumps({
        "case_name": name, "start_token_count": len(inputs[0]),
        "scalar_inputs": [{"arg_index": k, "data": d} for k, d in enumerate(inputs)],
        "memory_regions": [], "expected_memory_regions": [],
        "expected_outputs": [{"result_index": k, "data": d} for k, d in enumerate(outputs)]})


@pytest.mark.parametrize("case", ["dual_slot", "reg_chain"])
def test_loom_temporal_cases_simulate(tmp_path, capsys, case):
    # LOOM's temporal-pe-slots and temporal-pe-registers, their DFGs run on
    # their ADGs under stall seed 2 with a bundle of two invocations
    a, b, c = [3, -7], [4, 2], [5, 6]
    if case == "dual_slot":
        dfg, adg = DUAL_SLOT, slots_adg()
        inputs = [a, b, c, [7, -3]]
        outputs = [[x + y for x, y in zip(a, b)], [x * y for x, y in zip(c, [7, -3])]]
    else:
        dfg, adg = REG_CHAIN, mac_adg()
        inputs = [a, b, c]
        outputs = [[(x + y) * z for x, y, z in zip(a, b, c)]]
    (tmp_path / f"{case}.dfg.mlir").write_text(dfg)
    (tmp_path / "t.fabric.mlir").write_text(adg)
    (tmp_path / "b.json").write_text(_bundle(case, inputs, outputs))
    status = main(["sim", str(tmp_path / f"{case}.dfg.mlir"), "--adg",
                   str(tmp_path / "t.fabric.mlir"), "--bundle", str(tmp_path / "b.json"),
                   "--seed", "2", "-o", str(tmp_path / "o")])
    out = capsys.readouterr().out
    assert status == 0, out
    assert f"\nPASS: {case} on t seed2: " in out, out
