"""Ops on temporal PEs (mapper/temporal_slots.py, temporal_registers.py):
one op a slot, the slot's tag the one its operands arrive with, C5 when two
slots of a PE would share a tag (LOOM's spec-mapper-model.md: slot and tag
limits must hold), and an edge between two slots of one PE kept in a
register, as LOOM's temporal-pe-registers case maps it (its check.py's
expectations, read through `loom config decode`'s field names)."""

from __future__ import annotations

import json
from pathlib import Path

from loom.cli import main

T = "!fabric.tagged<!fabric.bits<32>, i1>"
DFG = """module {
  handshake.func @temporal_reg_chain(%a: i32, %b: i32, %c: i32, ...) -> (i32)
      attributes {argNames = ["a", "b", "c"], resNames = ["result"]} {
    %sum = arith.addi %a, %b : i32
    %prod = arith.muli %sum, %c : i32
    return %prod : i32
  }
}
"""


def adg(c_tag: int, c_port: str) -> str:
    """A temporal PE of an adder and a multiplier (two slots, two registers);
    `c` enters with tag `c_tag`, `c_port` saying where: `merged`, through a
    temporal switch with `a` into the first of two PE inputs (LOOM's case);
    `own`, on the third of three."""
    merged = c_port == "merged"
    mux = (f'%in0 = fabric.instance @mux(%ta, %tc) {{sym_name = "tsw_0"}} : ({T}, {T}) -> ({T})'
           if merged else "")
    ins = "%in0, %tb" if merged else "%ta, %tb, %tc"
    ports = ", ".join([T] * (2 if merged else 3))
    params = ", ".join(f"%p{i}: {T}" for i in range(2 if merged else 3))
    return f"""module {{
  fabric.temporal_sw @mux [num_route_table = 2, connectivity_table = ["11"]] : ({T}, {T}) -> ({T})
  fabric.temporal_pe @tpe({params}) -> ({T})
      [num_register = 2 : i64, num_instruction = 2 : i64, reg_fifo_depth = 2 : i64] {{
    fabric.function_unit @fu_add(%x: i32, %y: i32) -> (i32) [latency = 1, interval = 1] {{
      %r = arith.addi %x, %y : i32
      fabric.yield %r : i32
    }}
    fabric.function_unit @fu_mul(%x: i32, %y: i32) -> (i32) [latency = 1, interval = 1] {{
      %r = arith.muli %x, %y : i32
      fabric.yield %r : i32
    }}
    fabric.yield
  }}
  fabric.module @m(%a: i32, %b: i32, %c: i32) -> (i32) {{
    %ta = fabric.add_tag %a {{tag = 0 : i64}} : i32 -> {T}
    %tb = fabric.add_tag %b {{tag = 0 : i64}} : i32 -> {T}
    %tc = fabric.add_tag %c {{tag = {c_tag} : i64}} : i32 -> {T}
    {mux}
    %o = fabric.instance @tpe({ins}) {{sym_name = "tpe_0"}} : ({ports}) -> ({T})
    %r = fabric.del_tag %o : {T} -> i32
    fabric.yield %r : i32
  }}
}}
"""


def _map(tmp_path: Path, adg_text: str) -> int:
    (tmp_path / "dfg.mlir").write_text(DFG)
    (tmp_path / "a.fabric.mlir").write_text(adg_text)
    return main(["map", str(tmp_path / "dfg.mlir"), "--adg", str(tmp_path / "a.fabric.mlir"),
                 "-o", str(tmp_path / "o")])


def test_slots_tags_and_a_register_as_loom_maps_its_case(tmp_path, capsys):
    assert _map(tmp_path, adg(1, "merged")) == 0
    capsys.readouterr()
    assert main(["config", "decode", str(tmp_path / "o" / "dfg.a.config.bin"),
                 "--adg", str(tmp_path / "a.fabric.mlir")]) == 0
    fields = dict(line.strip().split(" = ") for line in capsys.readouterr().out.splitlines()
                  if " = " in line)
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
    report = json.loads((tmp_path / "o" / "dfg.a.map.json").read_text())
    assert [r["kind"] for r in report["edge_routings"]].count("temporal_reg") == 1
    assert [(r["register_index"], r["writer_output_index"], r["reader_input_index"])
            for r in report["temporal_registers"]] == [(0, 0, 0)]


def test_two_slots_of_one_pe_may_not_share_a_tag(tmp_path, capsys):
    # c arrives with the tag of a and b on an input of its own: both slots tag 0
    assert _map(tmp_path, adg(0, "own")) == 2
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 1 and "C5: temporal slots 0 and 1 of tpe_0 share tag 0" in err[0], err


def test_c_on_its_own_input_with_its_own_tag_maps(tmp_path):
    assert _map(tmp_path, adg(1, "own")) == 0
