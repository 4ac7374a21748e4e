"""Mutants of a fabric configuration (issue 36, area `config`): what each
operator changes, read back through the config layout (the same decode
`loom config decode` prints), and the fast sample: on a kernel mapped onto
chess-4x4, every mutant the sample draws that is not shown equivalent is
killed by the fabric run's checks."""

from __future__ import annotations

import random
from dataclasses import replace

import pytest
from xdsl.dialects.builtin import NoneType

from loom.fabric.adg_view import adg_view
from loom.fabric.config_layout import FabricLayout, fabric_layout, join_mask
from loom.fabric.presets import preset
from loom.mutation.config_judge import run_config_campaign
from loom.mutation.config_mutants import CONFIG_OPERATORS, config_mutants
from loom.sim import fabric_flow, profiles
from loom.sim.fabric_flow import FabricSetup
from tb.fabric_runner import mapped_c_kernel

PRESET = "chess-4x4"
KERNEL = """\
int scale(int n) {
  int s = 0;
  for (int i = 0; i < n; i++)
    s += i * 3;
  return s;
}

int main(void) {
  scale(6);
  scale(1);
  scale(0);
  return 0;
}
"""
"""A loop (a stream, carries, a multiply, a reduction) in chess-4x4's 16 PEs,
invoked with n = 6, 1 (the loop guard's boundary) and 0 (its other path,
last: a token a fault strands there stays to the end of the run). The
preset is the one test_fabric_broken_config builds too, so make test builds
it once."""
# the tests that build it run on one worker, beside test_fabric_broken_config's
pytestmark = pytest.mark.xdist_group(PRESET)
SAMPLE = 16
"""Mutants the fast sample judges (about a second each on the cached build)."""


def _layout(name: str) -> FabricLayout:
    return fabric_layout(adg_view(preset(name).build()))


def _one_pe(pe: str, unit: str, fields: dict[str, int]) -> tuple[FabricLayout, int, dict]:
    """chess-2x2 with only `pe` configured, running `unit` with `fields`:
    the layout, the unit's opcode, and every slice's values."""
    layout = _layout("chess-2x2")
    opcode = next(k for k, fu in enumerate(layout.slice(pe).fu_layouts) if fu.name == unit)
    values = {s.name: s.unused() for s in layout.slices}
    values[pe] |= {"enable": 1, "opcode": opcode} | fields
    return layout, opcode, values


def test_a_join_operand_outside_its_mask_is_equivalent_and_the_others_are_not():
    # a hand-written config of chess-2x2's pe_0_1 (a control PE) running its
    # 4-input join on operands 0 and 1: connecting operand 3 changes nothing,
    # disconnecting operand 1 does
    layout, join, values = _one_pe("pe_0_1", "fu_join", {
        "in0.disconnect": 0, "in1.disconnect": 0, "in1.sel": 1, "out0.disconnect": 0,
        "fu.0.value": join_mask([0, 1])})
    pe = layout.slice("pe_0_1")
    made = {m.field: m for m in config_mutants("k@chess-2x2", layout, values)
            if m.slice == "pe_0_1"}
    assert made["in3.disconnect"].equivalent.startswith("join operand 3 is outside")
    assert made["in2.disconnect"].equivalent
    assert not made["in1.disconnect"].equivalent and not made["fu.0.value"].equivalent
    assert "in3.sel" not in made   # a disconnected port: only its disconnect
    # the next unit that is not the join's shape (4 operands, 1 result, a mask)
    other = pe.fu_layouts[made["opcode"].replacement]
    assert made["opcode"].replacement == join + 1 and other.num_inputs != 4
    # every other node is unused: nothing of theirs is mutated
    assert {m.slice for m in config_mutants("k@chess-2x2", layout, values)} == {"pe_0_1"}


def test_a_discarded_result_is_mutated_in_its_discard_only():
    # a cond_br whose false result drains (discard wins over sel and
    # disconnect in the PE's demux, spatial_pe.md): only clearing the
    # discard is a fault; its used true result is mutated in every field
    layout, _, values = _one_pe("pe_0_1", "fu_cond_br", {
        "in0.disconnect": 0, "in1.disconnect": 0, "in1.sel": 1, "out0.disconnect": 0,
        "out0.sel": 2, "out1.disconnect": 0, "out1.discard": 1, "out1.sel": 3})
    values = layout.decode(layout.encode(values))   # every field, as a mapping's config reads
    made = {m.field for m in config_mutants("k@chess-2x2", layout, values) if m.slice == "pe_0_1"}
    assert {"out0.sel", "out0.discard", "out0.disconnect", "out1.discard"} <= made
    assert not made & {"out1.sel", "out1.disconnect"}


def test_an_element_size_or_a_byte_of_offset_under_a_zero_offset_is_equivalent():
    # the element address is (addr_offset + (addr << e)) >> e
    # (docs/fabric/extmemory.md): with the mapper's offset 0 it is addr
    # whatever e, and an offset of 1 vanishes under the shift when e >= 1;
    # with another offset e matters, and on bytes (e = 0) the offset does
    layout = _layout("chess-2x2-ext1")
    values = {s.name: s.unused() for s in layout.slices}
    for offset, e, size_kept, offset_kept in ((0, 2, True, True), (8, 2, False, False),
                                               (0, 0, True, False)):
        values["extmem_0"] = {"region0.valid": 1, "region0.end_lane": 1,
                              "region0.addr_offset": offset, "region0.elem_size_log2": e}
        made = {m.field: m for m in config_mutants("k@chess-2x2-ext1", layout, values)}
        assert bool(made["region0.elem_size_log2"].equivalent) == size_kept
        assert bool(made["region0.addr_offset"].equivalent) == offset_kept
        assert not made["region0.valid"].equivalent and not made["region0.end_lane"].equivalent


def test_what_a_constant_operand_unit_does_not_read_is_equivalent_only_where_no_token_comes():
    # chess-2x2's pe_0_0 (an ALU PE): fu_alu's body (docs/fabric/function_unit.md)
    # is op0 = constant fired by input 2, op1 = mux(input 1, op0), the ALU ops
    # on (input 0, op1), a mux over them. At fu.1.sel 0 the unit adds its two
    # inputs: the constant's value is never read. At 1 it adds the constant:
    # its value matters, and its input 1 is unread, so connecting input 1 is
    # harmless only where its sel names a PE input no connected operand reads
    # (the unread operand drains what comes: fu.py's fabric_mux)
    ports = {"in0.disconnect": 0, "in0.sel": 1, "out0.disconnect": 0, "fu.0.value": 5}
    layout, _, values = _one_pe("pe_0_0", "fu_alu", ports | {
        "in1.disconnect": 0, "in1.sel": 2, "fu.1.sel": 0})

    def made() -> dict:
        return {m.field: m for m in config_mutants("k@chess-2x2", layout, values)
                if m.slice == "pe_0_0"}

    plain = made()
    assert plain["fu.0.value"].equivalent.startswith("body op 0's result feeds only")
    assert not plain["in1.sel"].equivalent and not plain["in0.sel"].equivalent
    for in1_sel, harmless in ((2, True), (1, False)):   # PE input 1 is operand 0's
        values["pe_0_0"] |= ports | {"in1.disconnect": 1, "in1.sel": in1_sel,
                                     "in2.disconnect": 0, "in2.sel": 3, "fu.1.sel": 1}
        constant = made()
        assert not constant["fu.0.value"].equivalent
        assert bool(constant["in1.disconnect"].equivalent) == harmless
        assert not constant["in2.disconnect"].equivalent


@pytest.fixture(scope="module")
def fabric(tmp_path_factory) -> FabricSetup:
    return mapped_c_kernel(KERNEL, "scale", PRESET, tmp_path_factory.mktemp("config_mutants"))


@pytest.mark.rtl
def test_each_mutant_changes_its_own_fields_and_keeps_routes_one_hot(fabric):
    layout = fabric.rtl.layout
    values = layout.decode(fabric.words)
    mutants = config_mutants("scale@" + PRESET, layout, values)
    assert {m.operator for m in mutants} == set(CONFIG_OPERATORS)
    assert len({m.id for m in mutants}) == len(mutants)
    for m in mutants:
        words = layout.encode(m.apply(values))
        changed = {s.name for s in layout.slices
                   if words[s.word_offset:s.word_offset + s.word_count]
                   != fabric.words[s.word_offset:s.word_offset + s.word_count]}
        assert changed == {m.slice}, m.id   # one fault, in its own slice
        got = layout.decode(words)[m.slice]
        assert got[m.field] == (0 if m.operator == "route" else m.replacement), m.id
        if m.operator == "route":   # the output reads the neighbouring input instead
            o = m.field.split(".")[1]
            assert got[f"route.{o}.i{m.replacement}"] == 1
            assert sum(v for k, v in got.items() if k.startswith(f"route.{o}.")) == 1
        if m.operator == "opcode":
            assert got["opcode"] == m.replacement != values[m.slice]["opcode"]
    # only what the mapping uses: enabled PEs, switches that route
    for m in mutants:
        v = values[m.slice]
        assert v.get("enable") == 1 or any(
            x for k, x in v.items() if not k.endswith(".disconnect")), m.id


@pytest.mark.rtl
def test_the_fast_sample_is_killed_by_the_fabric_checks(fabric, tmp_path):
    layout = fabric.rtl.layout
    mutants = config_mutants("scale@" + PRESET, layout, layout.decode(fabric.words))
    picked = random.Random(0).sample(mutants, SAMPLE)
    verdicts = run_config_campaign(fabric, picked, tmp_path / "mutants.jsonl")
    assert len(verdicts) == SAMPLE
    survivors = [v.id for v in verdicts if v.verdict == "survived"]
    assert not survivors
    assert all(v.killed_by for v in verdicts if v.verdict == "killed")


def _discarded_results_broken(fabric, broken: dict, site: str) -> list[str]:
    """Each discarded result (an unused cond_br branch) of an enabled PE
    configured as `broken` says instead, run under stall seed 1: the sites
    (`site` formatted with pe, k and sel) the harness reports tokens left
    at, none other."""
    values = fabric.rtl.layout.decode(fabric.words)
    reported = []
    for pe, v in values.items():
        for k in range(4):
            if v.get(f"out{k}.discard") == 1 and v.get(f"out{k}.disconnect") == 0 \
                    and v.get("enable"):
                words = {n: dict(f) for n, f in values.items()}
                words[pe] |= {name.format(k=k): x for name, x in broken.items()}
                result = fabric_flow.run(replace(fabric, words=fabric.rtl.layout.encode(words)),
                                         profiles.for_seed(1))
                where = site.format(pe=pe, k=k, sel=v[f"out{k}.sel"])
                left = [p for p in result.problems if p.startswith("tokens left in the fabric")]
                assert not left or left[0].endswith(where), (where, result.problems)
                reported += [where] if left else []
    return reported


@pytest.mark.rtl
def test_a_token_stranded_at_an_unrouted_pe_output_is_reported(fabric):
    # a discarded result turned into a real one: its tokens go to the PE
    # output out<k>.sel names, which no switch routes on; the values checked
    # elsewhere stay right, but the harness finds the token still there once
    # the run is over
    assert _discarded_results_broken(fabric, {"out{k}.discard": 0}, "{pe} output {sel}")


@pytest.mark.rtl
def test_a_token_held_in_a_unit_by_a_disconnected_demux_is_reported(fabric):
    # the same results disconnected instead (the unit stalls, spatial_pe.md):
    # the token stays inside the PE, at no port or tap; the harness reads the
    # unit's result valid behind its demux once the run is over (the n = 0
    # invocation is the last: the token it leaves there stays)
    assert _discarded_results_broken(fabric, {"out{k}.discard": 0, "out{k}.disconnect": 1},
                                     "{pe} unit result {k} (its demux disconnected)")


def test_control_inputs_carry_random_data_a_value_edge_would_show(fabric, tmp_path):
    # the campaign's route survivors on sw_2_3 swapped a none token (its
    # data all zero) for a constant 0: the harness now drives a control
    # input's data with seeded random bits of the port's width, which no
    # check reads but a value edge fed by mistake would
    from loom.sim.fabric_harness import fabric_plusargs, top_ports

    widths = {p.name: p.width for p in top_ports(fabric.rtl)[0]}
    args = fabric.func.regions[0].block.args
    (start,) = [a.index for a in args if isinstance(a.type, NoneType)]
    port = fabric.binding.inputs[start]

    def drawn(seed: int) -> list[int]:
        run = tmp_path / str(seed)
        run.mkdir(exist_ok=True)
        fabric_plusargs(fabric.binding, fabric.func, fabric.bundle, fabric.words, run,
                        profiles.for_seed(seed), "scale.c", widths)
        return [int(x, 16) for x in (run / f"in_{port}.hex").read_text().split()]

    one = drawn(1)
    assert len(one) == fabric.bundle.start_token_count == 3
    assert any(one) and all(v < 1 << widths[port] for v in one)
    assert drawn(1) == one != drawn(2)   # the seed's, the same every run
