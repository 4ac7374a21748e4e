"""Ops on temporal PEs (mapper/temporal_slots.py, temporal_registers.py):
one op a slot, the slot's tag the one its operands arrive with, C5 when two
slots of a PE would share a tag (LOOM's spec-mapper-model.md: slot and tag
limits must hold), and an edge between two slots of one PE kept in a
register, as LOOM's temporal-pe-registers case maps it (its check.py's
expectations, read through `loom config decode`'s field names). The ADGs:
tb/temporal_adgs.py."""

from __future__ import annotations

import json
from pathlib import Path

from loom.cli import main
from tb.config_decode import decoded_fields
from tb.temporal_adgs import REG_CHAIN, mac_adg


def _map(tmp_path: Path, adg_text: str) -> int:
    (tmp_path / "dfg.mlir").write_text(REG_CHAIN)
    (tmp_path / "a.fabric.mlir").write_text(adg_text)
    return main(["map", str(tmp_path / "dfg.mlir"), "--adg", str(tmp_path / "a.fabric.mlir"),
                 "-o", str(tmp_path / "o")])


def test_slots_tags_and_a_register_as_loom_maps_its_case(tmp_path, capsys):
    assert _map(tmp_path, mac_adg(1, merged=True)) == 0
    capsys.readouterr()
    assert main(["config", "decode", str(tmp_path / "o" / "dfg.a.config.bin"),
                 "--adg", str(tmp_path / "a.fabric.mlir")]) == 0
    out = capsys.readouterr().out.splitlines()
    fields = dict(line.split("  (")[0].strip().split(" = ") for line in out if " = " in line)
    want = {  # temporal-pe-registers/check.py
        "insn0.valid": 1, "insn0.tag": 0, "insn0.opcode": 0,          # the adder, tag 0
        "insn0.in0.sel": 0, "insn0.in1.sel": 1,                       # a and b from inputs
        "insn0.result0.is_reg": 1, "insn0.result0.reg": 0,            # the sum into reg 0
        "insn0.out0.discard": 1,
        "insn1.valid": 1, "insn1.tag": 1, "insn1.opcode": 1,          # the multiplier, tag 1
        "insn1.operand0.is_reg": 1, "insn1.operand0.reg": 0,          # reads reg 0
        "insn1.in0.disconnect": 1, "insn1.in1.sel": 0,                # c from input 0
        "insn1.in1.disconnect": 0, "insn1.out0.sel": 0, "insn1.result0.tag": 1,
    }
    assert {k: int(fields[k]) for k in want} == want
    # each slot's line names its unit (tb/temporal_adgs.py's adder and
    # multiplier) and tag
    assert [line for line in out if line.startswith("  slot ")] == [
        "  slot 0: fu_add on tag 0", "  slot 1: fu_mul on tag 1"]
    report = json.loads((tmp_path / "o" / "dfg.a.map.json").read_text())
    assert [r["kind"] for r in report["edge_routings"]].count("temporal_reg") == 1
    assert [(r["register_index"], r["writer_output_index"], r["reader_input_index"])
            for r in report["temporal_registers"]] == [(0, 0, 0)]
    # map.txt as LOOM's ConfigGenText writes it
    text = (tmp_path / "o" / "dfg.a.map.txt").read_text()
    [inner] = [r["sw_edge"] for r in report["edge_routings"] if r["kind"] == "temporal_reg"]
    assert ": TEMPORAL_REG" in text.split(f"Edge[{inner}] ", 1)[1].splitlines()[0]
    assert f"tpe_0 reg[0] <- edge[{inner}] writer_sw=" in text


def test_two_slots_of_one_pe_may_not_share_a_tag(tmp_path, capsys):
    # c arrives on an input of its own with the tag of a and b, each through a
    # map_tag, so every tag is the ADG's: both slots tag 0
    assert _map(tmp_path, mac_adg(0, merged=False, fixed=True)) == 2
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 1 and "C5: temporal slots 0 and 1 of tpe_0 share tag 0" in err[0], err


def _decoded(tmp_path: Path, capsys) -> dict[str, dict[str, int]]:
    return decoded_fields(tmp_path / "o" / "dfg.a.config.bin", tmp_path / "a.fabric.mlir", capsys)


def test_c_on_its_own_input_with_its_own_tag_maps(tmp_path, capsys):
    assert _map(tmp_path, mac_adg(1, merged=False)) == 0
    fields = _decoded(tmp_path, capsys)
    tpe = fields["tpe_0"]
    # every add_tag drives the PE directly, so its tag is the mapper's: the
    # hints (0, 0, 1) are each slot's, and stay
    assert (tpe["insn0.tag"], tpe["insn1.tag"]) == (0, 1)
    assert [fields[f"add_tag_{k}"]["tag"] for k in range(3)] == [0, 0, 1]


def test_the_mapper_sets_the_tag_of_an_add_tag_before_a_temporal_pe(tmp_path, capsys):
    # c's add_tag drives the PE directly with the hint of a's and b's: the
    # multiplier's slot cannot take tag 0 (the adder's), so the mapper sets
    # c's add_tag to the tag it gives that slot (LOOM, copying the ADG's
    # tags, would refuse it as the test above does)
    assert _map(tmp_path, mac_adg(0, merged=False)) == 0
    fields = _decoded(tmp_path, capsys)
    tpe = fields["tpe_0"]
    assert (tpe["insn0.tag"], tpe["insn1.tag"]) == (0, 1)
    assert tpe["insn1.in0.disconnect"] == 1 and tpe["insn1.operand0.is_reg"] == 1
    c_input = tpe["insn1.in1.sel"]
    assert fields[f"add_tag_{c_input}"]["tag"] == 1
