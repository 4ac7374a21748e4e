"""The ADG presets: each one parses, verifies and round-trips with our fabric
dialect; its config word count, recomputed here from LOOM's per-component
sizes, equals config_layout's; its PEs hold every op kind our lowering emits;
its largest join is what the summary reports."""

from __future__ import annotations

from collections import Counter
from pathlib import Path

import pytest
from xdsl.dialects.builtin import MemRefType, ModuleOp
from xdsl.ir import Operation

from loom.diagnostics import LoomError
from loom.dialects.fabric_types import scalar_width
from loom.fabric.config_layout import fabric_layout
from loom.fabric.presets import JOIN_FANIN, MemoryGroup, parse_preset, preset, presets
from loom.fabric.summary import summarize
from loom.ir import parse, print_module, verify_module
from loom.lowering.region import ARITH_OPS
from loom.rtl.units import ALU_OPS, DIV_OPS
from loom.fabric.adg_view import adg_view

SMALL = [p.name for p in presets() if p.rows <= 8]
LARGE = [p.name for p in presets() if p.rows > 8]
QUICK = {"chess-8x8", "chess-8x8-ext2x2", "chess-16x16-ext2x2"}
"""The presets of 8x8 and over the default run checks; the others run under -m slow."""


def _marked(names: list[str]) -> list:
    return [n if n in QUICK or parse_preset(n).rows < 8 else pytest.param(n, marks=pytest.mark.slow)
            for n in names]


def _written(name: str, tmp_path) -> tuple[str, ModuleOp]:
    mlir, _ = preset(name).write(tmp_path, name)
    text = mlir.read_text()
    parsed = parse(text, str(mlir))
    verify_module(parsed.module, str(mlir), parsed.op_positions)
    return text, parsed.module


def _round_trips(module: ModuleOp) -> None:
    printed = print_module(module)
    again = parse(printed, "printed.mlir")
    verify_module(again.module, "printed.mlir", again.op_positions)
    assert print_module(again.module) == printed


def _cw(n: int) -> int:
    return (n - 1).bit_length() if n > 1 else 0


def _words(bits: int) -> int:
    return -(-bits // 32)


def _fu_payload(fu: Operation) -> int:
    """LOOM's FU config fields (ConfigGenConfig.cpp, docs/loom-fabric-notes.md section 4.5;
    a configurable fabric.mux: ADGFlattenerWiring.cpp's extractFUConfigFieldWidths)."""
    bits = 0
    for op in fu.regions[0].block.ops:
        if op.name == "fabric.mux" and not len(op.operands) == len(op.results) == 1:
            n = max(len(op.operands), len(op.results))
            bits += (n - 1).bit_length() + 2
        elif op.name == "handshake.constant":
            bits += scalar_width(op.results[0].type) or 0
        elif op.name in ("arith.cmpi", "arith.cmpf"):
            bits += 4
        elif op.name == "dataflow.stream":
            bits += 5
        elif op.name == "handshake.join":
            bits += len(op.operands)
    return bits


def _loom_word_count(module: ModuleOp) -> int:
    """Config words by LOOM's sizes, from the parsed ADG alone."""
    defs = {op.attributes["sym_name"].data: op for op in module.ops
            if "sym_name" in op.attributes}
    top = next(op for op in module.ops if op.name == "fabric.module")
    words = 0
    for node in top.regions[0].block.ops:
        target = defs.get(node.attributes["module"].data) if node.name == "fabric.instance" else node
        if target is None:
            continue
        if target.name == "fabric.spatial_sw":
            table = "".join(s.data for s in target.attributes["connectivity_table"].data)
            words += _words(table.count("1"))
        elif target.name == "fabric.temporal_sw":
            table = "".join(s.data for s in target.attributes["connectivity_table"].data)
            tag = target.attributes["function_type"].inputs.data[0].tag_width  # type: ignore[attr-defined]
            slots = target.attributes["num_route_table"].value.data
            words += _words(slots * (1 + tag + table.count("1")))
        elif target.name == "fabric.add_tag":
            words += 1
        elif target.name in ("fabric.extmemory", "fabric.memory"):
            words += 5 * (target.attributes["numRegion"].value.data
                          if "numRegion" in target.attributes else 1)
        elif target.name == "fabric.spatial_pe":
            fus = [op for op in target.regions[0].block.ops if op.name == "fabric.function_unit"]
            n_in, n_out = len(target.regions[0].block.args), len(target.attributes["function_type"].outputs.data)  # type: ignore[attr-defined]
            max_in = max(len(f.regions[0].block.args) for f in fus)
            max_out = max(len(f.attributes["function_type"].outputs.data) for f in fus)  # type: ignore[attr-defined]
            bits = 1 + _cw(len(fus)) + max_in * (_cw(n_in) + 2) + max_out * (_cw(n_out) + 2)
            words += _words(bits + max(_fu_payload(f) for f in fus))
        elif target.name == "fabric.temporal_pe":
            words += _words(_temporal_pe_bits(target))
    return words


def _temporal_pe_bits(pe: Operation) -> int:
    """LOOM's temporal PE slice: per instruction valid, tag, opcode, per FU
    input a register read (1 + cw(R), with registers) and a mux, per FU
    output a demux and a result tag (and register write); then every FU's
    payload (spec-fabric-temporal_pe.md; test_config_layout's formula)."""
    fus = [op for op in pe.regions[0].block.ops if op.name == "fabric.function_unit"]
    ftype = pe.attributes["function_type"]
    n_in, n_out = len(ftype.inputs.data), len(ftype.outputs.data)  # type: ignore[attr-defined]
    tag = ftype.inputs.data[0].tag_width  # type: ignore[attr-defined]
    max_in = max(len(f.regions[0].block.args) for f in fus)
    max_out = max(len(f.attributes["function_type"].outputs.data) for f in fus)  # type: ignore[attr-defined]
    regs = pe.attributes["num_register"].value.data  # type: ignore[attr-defined]
    insns = pe.attributes["num_instruction"].value.data  # type: ignore[attr-defined]
    reg = 1 + _cw(regs) if regs else 0
    per_insn = (1 + tag + _cw(len(fus)) + max_in * (reg + _cw(n_in) + 2)
                + max_out * (_cw(n_out) + 2 + tag + reg))
    return insns * per_insn + sum(_fu_payload(f) for f in fus)


@pytest.mark.parametrize("name", _marked(SMALL))
def test_preset_parses_verifies_round_trips(name, tmp_path):
    _, module = _written(name, tmp_path)
    _round_trips(module)
    assert fabric_layout(adg_view(module)).word_count == _loom_word_count(module)
    assert summarize(adg_view(module)).config_words == _loom_word_count(module)


@pytest.mark.parametrize("name", _marked(LARGE))
def test_large_preset_parses_verifies_round_trips(name, tmp_path):
    _, module = _written(name, tmp_path)
    _round_trips(module)
    assert fabric_layout(adg_view(module)).word_count == _loom_word_count(module)


def _pe_ops(module: ModuleOp) -> dict[str, list[set[str]]]:
    """PE definition -> the op names of each of its function units."""
    return {pe.attributes["sym_name"].data: [
        {op.name for op in fu.regions[0].block.ops if op.name != "fabric.yield"}
        for fu in pe.regions[0].block.ops if fu.name == "fabric.function_unit"]
        for pe in module.ops if pe.name == "fabric.spatial_pe"}


# LOOM allows no min/max op in a unit body; its mapper hosts minsi/maxsi on cmpi+select.
MIN_MAX = {"arith.minsi", "arith.maxsi", "arith.minui", "arith.maxui"}
CONTROL_OPS = {"handshake.constant", "handshake.join", "handshake.mux", "handshake.cond_br",
               "handshake.load", "handshake.store", "dataflow.stream", "dataflow.gate",
               "dataflow.carry", "dataflow.invariant"}


def test_smallest_preset_covers_every_lowered_op(tmp_path):
    _, module = _written("chess-2x2", tmp_path)
    units = [ops for pe in _pe_ops(module).values() for ops in pe]
    singles = {next(iter(ops)) for ops in units if len(ops) == 1}
    # a unit with a fabric.mux over binary ops hosts each of them on its own
    choices = {op for ops in units if "fabric.mux" in ops for op in ops - {"fabric.mux"}}
    assert (ARITH_OPS - MIN_MAX) | CONTROL_OPS <= singles | choices
    assert {"arith.cmpi", "arith.select"} in units
    assert {f"arith.{op}" for op in DIV_OPS} | {"fabric.mux"} in units


def test_frequent_ops_sit_in_every_pe(tmp_path):
    _, module = _written("chess-4x4", tmp_path)
    for pe, units in _pe_ops(module).items():
        singles = {next(iter(ops)) for ops in units if len(ops) == 1}
        choices = {op for ops in units if "fabric.mux" in ops for op in ops - {"fabric.mux"}}
        assert {"handshake.cond_br", "handshake.constant", "dataflow.carry",
                "dataflow.invariant", "arith.index_cast", "arith.cmpi"} <= singles, pe
        assert "arith.addi" in singles | choices, pe
        if pe != "pe_ctrl":   # the ALU PEs: adds, logic ops and shifts in one unit,
            # whose right operand may be a constant of its own
            assert {f"arith.{op}" for op in ALU_OPS} | {"fabric.mux", "handshake.constant"} \
                in units, pe
            assert not singles & {f"arith.{op}" for op in ALU_OPS}, pe
    # the checkerboard: half control PEs; dividers in one PE of 16 (-d4, the
    # default), the central one of each 4x4 block, or of 4 (-d2)
    assert _kinds(module) == (8, 7, [(2, 2)])
    assert _kinds(_written("chess-4x4-d2", tmp_path / "d2")[1]) == (
        8, 4, [(1, 1), (1, 3), (3, 1), (3, 3)])
    assert _kinds(_written("chess-8x8-m1", tmp_path / "8")[1]) == (
        32, 28, [(2, 2), (2, 6), (6, 2), (6, 6)])


def _multiplier_rows(name: str, tmp_path: Path) -> tuple[dict[str, list[set[str]]], set[int]]:
    """The PE definitions' units, and the rows of the PEs that hold a multiplier."""
    module = _written(name, tmp_path)[1]
    ops = _pe_ops(module)
    with_mul = {kind for kind, units in ops.items() if any("arith.muli" in u for u in units)}
    return ops, {int(pe.split("_")[1]) for pe, kind in _pe_kinds(module).items()
                 if kind in with_mul}


def test_multipliers_in_one_row_of_k(tmp_path):
    # -m2, the 8x8's default: the ALU PEs of even rows keep the 64-bit
    # multiplier, those of odd rows are pe_alu_nomul, the same units but
    # muli; the divider PEs hold the units every PE has and the dividers
    ops, rows = _multiplier_rows("chess-8x8", tmp_path)
    assert parse_preset("chess-8x8") == parse_preset("chess-8x8-m2")
    assert ops["pe_alu_nomul"] == [u for u in ops["pe_alu"] if "arith.muli" not in u]
    *common, div64, div32 = ops["pe_alu_div"]
    assert common == ops["pe_ctrl"][:len(common)]
    assert div64 == div32 == {f"arith.{op}" for op in DIV_OPS} | {"fabric.mux"}
    # with every ALU PE multiplying (-m1), a divider PE is an ALU PE without it
    dense, _ = _multiplier_rows("chess-8x8-m1", tmp_path / "m1")
    assert dense["pe_alu_div"][:len(ops["pe_alu_nomul"])] == ops["pe_alu_nomul"]
    assert rows == {0, 2, 4, 6}
    # 32 ALU cells (r + c even), 4 on each row: the 16 of rows 0, 2, 4, 6 but
    # the four divider PEs multiply
    assert _kinds(_written("chess-8x8", tmp_path / "m2")[1])[1] == 12
    # below 8x8 every ALU PE but the divider's multiplies (a 2x2 has two)
    assert _multiplier_rows("chess-2x2", tmp_path / "2")[1] == {1}
    assert _kinds(_written("chess-4x4", tmp_path / "4")[1]) == (8, 7, [(2, 2)])
    assert parse_preset("chess-4x4").name == "chess-4x4"
    assert parse_preset("chess-8x8-m1").name == "chess-8x8-m1"
    assert parse_preset("chess-4x4-m2").name == "chess-4x4-m2"


def _pe_kinds(module: ModuleOp) -> dict[str, str]:
    """PE instance name -> its PE definition."""
    top = next(op for op in module.ops if op.name == "fabric.module")
    return {op.attributes["sym_name"].data: op.attributes["module"].data
            for op in top.regions[0].block.ops
            if op.name == "fabric.instance" and op.attributes["sym_name"].data.startswith("pe_")}


def _kinds(module: ModuleOp) -> tuple[int, int, list[tuple[int, int]]]:
    """Control PEs, plain ALU PEs, and the (row, column) of each divider PE."""
    pes = _pe_kinds(module)
    kinds = list(pes.values())
    dividers = sorted(tuple(int(x) for x in name.split("_")[1:]) for name, kind in pes.items()
                      if kind.startswith("pe_alu_div"))
    return kinds.count("pe_ctrl"), kinds.count("pe_alu"), dividers


def test_grid_names_and_join_fanin(tmp_path):
    _, module = _written("chess-2x2-ext2x2", tmp_path)
    names = {op.attributes["sym_name"].data for op in module.walk() if op.name == "fabric.instance"}
    assert {f"pe_{r}_{c}" for r in range(2) for c in range(2)} <= names
    assert {f"sw_{r}_{c}" for r in range(3) for c in range(3)} <= names
    assert adg_view(module).max_join_fanin == 4
    summary = summarize(adg_view(module))
    assert summary.components == {"spatial_pe": 4, "spatial_sw": 11, "temporal_sw": 4,
                                  "extmemory": 2, "add_tag": 8, "del_tag": 10}
    assert (summary.inputs, summary.memref_inputs, summary.outputs) == (10, 2, 4)


def test_preset_names():
    assert [p.name for p in presets()][:4] == ["chess-2x2", "chess-2x2-ext1", "chess-2x2-ext2",
                                               "chess-2x2-ext2x2"]
    assert {16} <= {p.rows for p in presets()}
    p = parse_preset("chess-3x5-ext3x4")
    assert (p.rows, p.cols, p.ext, p.on_chip, p.name) == (
        3, 5, MemoryGroup(3, 4), MemoryGroup(), "chess-3x5-ext3x4")
    p = parse_preset("chess-8x8-ext6x4s2")
    assert (p.ext, p.name) == (MemoryGroup(6, 4, 2), "chess-8x8-ext6x4s2")
    assert "6 extmemory (4 tagged load lanes, 2 store lanes)" in p.description
    p = parse_preset("chess-16x16-ext4x4s2-mem2x2s20")
    assert (p.ext, p.on_chip, p.name) == (MemoryGroup(4, 4, 2), MemoryGroup(2, 2, 20),
                                          "chess-16x16-ext4x4s2-mem2x2s20")
    assert p.description.endswith(", 2 on-chip memref<256xi64> memory (2 tagged load lanes, "
                                  "20 store lanes)")
    assert parse_preset("chess-4x4-mem3").on_chip == MemoryGroup(3)
    p = parse_preset("chess-16x16-t2-ext8x9s3")
    assert (p.tracks, p.ext, p.name) == (2, MemoryGroup(8, 9, 3), "chess-16x16-t2-ext8x9s3")
    assert "2 links each way between switches" in p.description
    assert parse_preset("chess-2x2-t1").name == "chess-2x2"
    p = parse_preset("chess-4x4-ext2x3-b2")
    assert (p.bridge_fanin, p.name) == (2, "chess-4x4-ext2x3-b2")
    assert "bridge switches of at most 2 lanes" in p.description
    assert parse_preset("chess-4x4-ext2x3-b32").name == "chess-4x4-ext2x3"
    p = parse_preset("chess-4x4-ext2x3-mem1x1s4-ring-b2")
    assert (p.ring, p.bridge_fanin, p.name) == (True, 2, "chess-4x4-ext2x3-mem1x1s4-ring-b2")
    assert "memory lanes around all four sides" in p.description
    assert not parse_preset("chess-4x4-ext2x3").ring
    # sha256_block's 222 memory lanes on a 4x4's 12 side switches: 33 ports on one
    with pytest.raises(LoomError, match=r"^ADG preset 'chess-4x4-t3-ext3x15s8-mem1x1s64-ring': "
                                        r"switch \S+: 33 output ports \(a switch has 1..32\)$"):
        preset("chess-4x4-t3-ext3x15s8-mem1x1s64-ring")
    for bad in ("mesh-2x2", "chess-2x2-ext", "chess-0x2", "chess-2x2-ext0", "chess-2x2-ext2x2s0",
                "chess-2x2-ext2s2", "chess-2x2-mem", "chess-2x2-mem0", "chess-2x2-mem1-ext1",
                "chess-2x2-mem2s2", "chess-2x2-t0", "chess-2x2-ext1-t2", "chess-2x2-t",
                "chess-2x2-ext2x2-b1", "chess-2x2-ext2x2-b33", "chess-2x2-b2-ext2x2",
                "chess-2x2-ext2-b2-ring", "chess-2x2-ring-ext2", "chess-2x2-ext2-ring2"):
        with pytest.raises(LoomError):
            parse_preset(bad)


# --- widths: every op our lowering emits for C integer kernels has a unit --------------
# The mapper's width rule (mapper/port_types.py) binds compares, division, right
# shifts, casts, streams and conditions only to units of the exact width, and
# index only to index. The signatures below are written from C's types (int is
# i32, long i64, char/short i8/i16 widened for arithmetic, _Bool i1, array
# subscripts index), one line per (op, widths) the kernels of kernels/ lower to.

C_INT_SIGNATURES = [
    # (DFG op line, its arguments)
    *((f"%r = arith.{op} %a, %b : {t}", f"%a: {t}, %b: {t}")
      for op in ("addi", "subi", "muli", "andi", "ori", "xori", "shli", "shrsi", "shrui",
                 "divsi", "divui", "remsi", "remui", "minsi", "maxsi", "minui", "maxui")
      for t in ("i32", "i64")),
    *((f"%r = arith.cmpi {p}, %a, %b : i32", "%a: i32, %b: i32")
      for p in ("eq", "ne", "slt", "sle", "sgt", "sge", "ult", "ule", "ugt", "uge")),
    *((f"%r = arith.cmpi {p}, %a, %b : {t}", f"%a: {t}, %b: {t}")
      for p in ("eq", "ne", "slt", "ult") for t in ("i64", "i16", "i8")),
    ("%r = arith.cmpi eq, %a, %b : i1", "%a: i1, %b: i1"),
    *((f"%r = arith.{op} %a : {s} to {d}", f"%a: {s}")
      for op, s, d in (("extsi", "i8", "i32"), ("extsi", "i16", "i32"), ("extsi", "i32", "i64"),
                       ("extsi", "i8", "i64"), ("extui", "i1", "i32"), ("extui", "i1", "i8"),
                       ("extui", "i8", "i32"), ("extui", "i16", "i32"), ("extui", "i32", "i64"),
                       ("extui", "i16", "i64"), ("trunci", "i32", "i1"), ("trunci", "i32", "i8"),
                       ("trunci", "i32", "i16"), ("trunci", "i64", "i32"), ("trunci", "i8", "i1"),
                       ("index_cast", "i32", "index"), ("index_cast", "i64", "index"))),
    *((f"%r = arith.select %c, %a, %b : {t}", f"%c: i1, %a: {t}, %b: {t}")
      for t in ("i8", "i32", "i64")),
    *((f"%r = handshake.constant %s {{value = 1 : {t}}} : {t}", "%s: none")
      for t in ("i1", "i8", "i16", "i32", "i64", "index")),
    *((f"%t, %f = handshake.cond_br %c, %a : {t}", f"%c: i1, %a: {t}")
      for t in ("none", "i8", "i32", "i64", "index")),
    *((f"%r = handshake.mux %c [%a, %b] : i1, {t}", f"%c: i1, %a: {t}, %b: {t}")
      for t in ("none", "i1", "i32", "i64")),
    *((f"%r = dataflow.carry %c, %a, %b : i1, {t}, {t} -> {t}", f"%c: i1, %a: {t}, %b: {t}")
      for t in ("none", "i8", "i32", "i64")),
    *((f"%r = dataflow.invariant %c, %a : i1, {t} -> {t}", f"%c: i1, %a: {t}")
      for t in ("none", "i1", "i32", "i64", "index")),
    *((f"%r, %k = dataflow.gate %a, %c : {t}, i1 -> {t}, i1", f"%a: {t}, %c: i1")
      for t in ("i1", "i32", "index")),
    *((f'%i, %k = dataflow.stream %a, %b, %e {{step_op = "+=", cont_cond = "{c}"}} '
       f": ({t}, {t}, {t}) -> ({t}, i1)", f"%a: {t}, %b: {t}, %e: {t}")
      for c in ("<", "!=") for t in ("i32", "i64", "index")),
    *((f"%r = handshake.join {', '.join(['%a'] * n)} : {', '.join(['none'] * n)}", "%a: none")
      for n in (2, 3, 4)),
    *((f"%d, %x = handshake.{op} [%i] %v, %s : index, {t}", f"%i: index, %v: {t}, %s: none")
      for op in ("load", "store") for t in ("i8", "i16", "i32", "i64")),
]


def _ops(line: str, args: str) -> list[Operation]:
    from loom.mapper.dfg_ops import mapped_ops
    text = (f"module {{\n  handshake.func @k({args}) -> () {{\n    {line}\n"
            "    handshake.return\n  }\n}\n")
    func = next(iter(parse(text, "k.dfg.mlir").module.ops))
    return mapped_ops(func.regions[0].block)


@pytest.fixture(scope="module")
def chess_2x2_units():
    from loom.mapper.inventory import hw_units
    return hw_units(adg_view(preset("chess-2x2").build()))


@pytest.mark.parametrize("line, args", C_INT_SIGNATURES)
def test_smallest_preset_hosts_each_c_integer_width(chess_2x2_units, line, args):
    from loom.mapper.dfg_ops import describe
    from loom.mapper.matching import candidates
    (op,) = _ops(line, args)
    assert candidates(op, chess_2x2_units), describe(op)


def test_no_unit_for_widths_no_c_kernel_has(chess_2x2_units):
    # the exact-width rule is what made the widths above necessary: an i16
    # division has no unit (C promotes shorts to int before dividing)
    from loom.mapper.matching import candidates
    (op,) = _ops("%r = arith.divsi %a, %b : i16", "%a: i16, %b: i16")
    assert not candidates(op, chess_2x2_units)


# kernels whose ops, together, span every (op, width) the kernels of kernels/ with
# one-dimensional arrays lower to (a greedy cover measured over all of them)
COVER = ["present_sbox", "hist_bytes", "bsearch_u16", "bitonic_sort", "mixed_types"]
COVER_SLOW = ["collatz", "elementwise_minmax", "insertion_sort", "crc16", "factmod",
              "isqrt_sum", "kmp", "mask_compact", "shifts", "bitrev", "digits", "gcd_sub"]


@pytest.mark.parametrize("name", COVER + [pytest.param(n, marks=pytest.mark.slow)
                                          for n in COVER_SLOW])
def test_every_lowered_op_of_a_kernel_has_a_unit(compiled, chess_2x2_units, tmp_path, name):
    from loom.lowering.pipeline import lower_file
    from loom.mapper.dfg_ops import describe, mapped_ops
    from loom.mapper.matching import candidates
    arts = compiled(name)
    dfg = tmp_path / f"{name}.dfg.mlir"
    lower_file(arts.scf_mlir, dfg, arts.top, max_join_fanin=JOIN_FANIN)
    func = next(iter(parse(dfg.read_text(), str(dfg)).module.ops))
    missing = sorted({describe(op) for op in mapped_ops(func.regions[0].block)
                      if not candidates(op, chess_2x2_units)})
    assert not missing, missing


def test_store_lanes_reach_the_extmemory(tmp_path):
    # the `s<S>` suffix: S store lanes on every extmemory, tagged by
    # cw(max(ld, st)) bits (memory_bridge.py)
    text, module = _written("chess-8x8-ext4x4s2", tmp_path)
    assert len([op for op in module.walk() if op.name == "fabric.extmemory"]) == 4
    assert text.count("ldCount = 4, stCount = 2,") == 4
    summary = summarize(adg_view(module))
    # per memory: add_tag per request lane (4 ld_addr + 2 st_addr + 2 st_data),
    # del_tag per response lane (4 ld_data + 4 ld_done + 2 st_done)
    assert (summary.components["add_tag"], summary.components["del_tag"]) == (4 * 8, 4 * 10)


def test_each_memory_can_drive_all_its_request_lanes_at_once():
    # a switch sends at most as many distinct values to its boundary outputs
    # as it has inputs from the fabric (its links and PEs); clamp's three
    # stores to one array need all six store lanes of one memory at once, so
    # no switch may hold more of one memory's request lanes than that
    b = preset("chess-8x8-ext6x6s3")
    fabric_inputs: dict[str, int] = {}
    for dst, src in b.drivers.items():
        if dst.node.startswith("sw_") and src.node.startswith(("sw_", "pe_")):
            fabric_inputs[dst.node] = fabric_inputs.get(dst.node, 0) + 1
    lanes: dict[tuple[str, str], int] = {}  # (memory, switch) -> request lanes
    for dst, src in b.drivers.items():
        node = b.nodes.get(dst.node)
        if node is not None and node.kind == "add_tag" and src.node.startswith("sw_"):
            memory = _memory_fed_by(b, dst.node)
            lanes[(memory, src.node)] = lanes.get((memory, src.node), 0) + 1
    assert len({m for m, _ in lanes}) == 6
    assert all(n <= fabric_inputs[sw] for (_, sw), n in lanes.items()), lanes


def _memory_fed_by(b, node: str) -> str:
    """The memory a request lane's add_tag (through its merge switch) feeds."""
    while b.nodes[node].kind not in ("extmemory", "memory"):
        node = next(dst.node for dst, src in b.drivers.items() if src.node == node)
    return node


def test_on_chip_memories_are_loom_memories(tmp_path, capsys):
    # the `-mem` suffix: private fabric.memory nodes in LOOM's syntax
    # (docs/loom-fabric-notes.md 1.3, tests/unit/memory-loadstore): no memref
    # operand, families ld_addr, st_addr, st_data -> ld_data, ld_done,
    # st_done, tagged by cw(max(ld, st)) = 2 bits for 2 load and 3 store
    # lanes; `loom adg check` reads the file back
    from loom.cli import main
    text, module = _written("chess-2x2-ext1-mem2x2s3", tmp_path)
    memories = [op for op in module.walk() if op.name == "fabric.memory"]
    assert len(memories) == 2
    assert not any(isinstance(v.type, MemRefType) for m in memories for v in m.operands)
    assert text.count("ldCount = 2, stCount = 3, lsqDepth = 0, memrefType = memref<256xi64>") == 2
    assert "(!fabric.tagged<!fabric.bits<64>, i2>, !fabric.tagged<!fabric.bits<64>, i2>, " \
        "!fabric.tagged<!fabric.bits<64>, i2>) -> (!fabric.tagged<!fabric.bits<64>, i2>, " \
        "!fabric.tagged<!fabric.bits<64>, i2>, !fabric.tagged<!fabric.bits<64>, i2>)" in text
    summary = summarize(adg_view(module))
    # per memory: add_tag per request lane (2 ld_addr + 3 st_addr + 3 st_data),
    # del_tag per response lane (2 ld_data + 2 ld_done + 3 st_done)
    assert (summary.components["memory"], summary.components["extmemory"]) == (2, 1)
    assert (summary.components["add_tag"], summary.components["del_tag"]) == (2 * 8, 2 * 7)
    assert summary.memref_inputs == 1  # on-chip memories take no memref argument
    assert main(["adg", "check", str(tmp_path / "chess-2x2-ext1-mem2x2s3.fabric.mlir")]) == 0
    assert "2 memory, 1 extmemory" in capsys.readouterr().out


def test_on_chip_variants_come_last_in_their_size():
    names = [p.name for p in presets()]
    # the 16x16's on-chip variants, then its float ones (issue 33), then 20x20
    assert names[-8:] == ["chess-16x16-t2-ext2x2-mem2", "chess-16x16-t2-ext4x4s2-mem4x2s8",
                          "chess-16x16-t3-ext4x4s2-mem2x2s20", "chess-16x16-t2-ext8x9s3-fp",
                          "chess-16x16-t2-ext8x9s4-fp", "chess-16x16-t2-ext8x9s4-d2-fp",
                          "chess-20x20-t2-ext6x8s4-mem2x3s2",
                          "chess-20x20-t3-ext3x15s8-mem1x1s64-ring"]
    # one small on-chip variant, the last integer 8x8 (issue 31 item 3), none
    # smaller; then the float one (issue 33), so no integer kernel takes it
    eights = [n for n in names if parse_preset(n).rows == 8]
    assert [n for n in eights if "-mem" in n] == eights[-2:-1] == ["chess-8x8-ext2-mem1x2s2"]
    assert [n for n in names if parse_preset(n).floats] == [
        *eights[-1:], "chess-16x16-t2-ext8x9s3-fp", "chess-16x16-t2-ext8x9s4-fp",
        "chess-16x16-t2-ext8x9s4-d2-fp"] == [
        "chess-8x8-ext4-d2-fp", "chess-16x16-t2-ext8x9s3-fp", "chess-16x16-t2-ext8x9s4-fp",
        "chess-16x16-t2-ext8x9s4-d2-fp"]
    assert not any("-mem" in n for n in names if parse_preset(n).rows < 8)


def test_two_tracks_from_16x16_on_and_one_8x8():
    dense = ("-mem2x2s20", "-mem1x1s64")   # DENSE_STORES: three tracks
    assert {(p.rows, p.tracks) for p in presets() if p.tracks == 3} == {(16, 3), (20, 3)}
    assert all(any(d in p.name for d in dense) for p in presets() if p.tracks == 3)
    assert {(p.rows, p.tracks) for p in presets() if not any(d in p.name for d in dense)} == {
        (2, 1), (4, 1), (4, 2), (8, 1), (8, 2), (16, 2), (20, 2)}
    # one 4x4 with two tracks, the temporal one after its one-track twin
    assert [p.name for p in presets() if (p.rows, p.tracks) == (4, 2)] == [
        "chess-4x4-t2-ext2-tpe4"]
    # one 8x8 with two tracks and pairs of branches (TWO_TRACK_VARIANTS),
    # after the one-track variant of its memories: `--adg auto` tries that first
    names = [p.name for p in presets()]
    assert [p.name for p in presets() if (p.rows, p.tracks) == (8, 2)] == [
        "chess-8x8-t2-ext4x4s2-p"]
    assert names.index("chess-8x8-ext4x4s2") < names.index("chess-8x8-t2-ext4x4s2-p")


def test_tpe_makes_the_alu_pes_temporal_behind_tag_ops(tmp_path):
    # -tpe4: the ALU cells but the divider's hold temporal PEs of 4 slots
    # (a 2-bit tag), without the dataflow units; every port of each sits
    # behind a tag op of its own: an add_tag (tag 0, the mapper's hint)
    # before each input, a del_tag after each output
    _, module = _written("chess-4x4-ext2-tpe4", tmp_path)
    kinds = _pe_kinds(module)
    temporal = sorted(n for n, k in kinds.items() if k == "pe_alu_t")
    assert len(temporal) == 7 and Counter(kinds.values())["pe_ctrl"] == 8
    assert [n for n, k in kinds.items() if k.startswith("pe_alu_div")] == ["pe_2_2"]
    (pe,) = [op for op in module.ops if op.name == "fabric.temporal_pe"]
    assert pe.attributes["num_instruction"].value.data == 4
    assert all(t.tag_width == 2 for t in pe.attributes["function_type"].inputs.data)
    bodies = [o.name for o in pe.walk() if o.parent_op() is not pe and "." in o.name]
    assert not [b for b in bodies if b.startswith(("dataflow.", "handshake.load", "handshake.mux"))]
    assert "arith.addi" in bodies and "handshake.cond_br" in bodies
    top = next(op for op in module.ops if op.name == "fabric.module")
    for inst in top.regions[0].block.ops:
        if inst.name == "fabric.instance" and inst.attributes["sym_name"].data in temporal:
            assert [v.owner.name for v in inst.operands] == ["fabric.add_tag"] * 4
            assert all(v.owner.attributes["tag"].value.data == 0 for v in inst.operands)
            assert [u.operation.name for r in inst.results for u in r.uses] == \
                ["fabric.del_tag"] * 4


def test_fp_puts_float_units_beside_the_dividers(tmp_path):
    # -fp: the divider PEs (and only they) hold addf, subf, mulf, divf,
    # sqrt, negf and cmpf on f32 and f64, each at its unit's default latency
    _, module = _written("chess-4x4-d2-fp", tmp_path)
    assert _kinds(module) == (8, 4, [(1, 1), (1, 3), (3, 1), (3, 3)])
    float_ops = {"arith.addf", "arith.subf", "arith.mulf", "arith.divf", "math.sqrt", "arith.negf",
                 "arith.cmpf"}
    for pe, units in _pe_ops(module).items():
        singles = {next(iter(ops)) for ops in units if len(ops) == 1}
        assert (float_ops <= singles) == (pe == "pe_alu_div_fp"), pe
    latencies = {op.attributes["sym_name"].data: op.attributes["latency"].value.data
                 for op in module.walk() if op.name == "fabric.function_unit"}
    # Dynamatic's FloPoCo stage counts (rtl/units.FLOAT_LATENCY), written out
    assert {k: latencies[k] for k in ("fu_addf_f32", "fu_addf_f64", "fu_mulf_f32",
                                      "fu_mulf_f64", "fu_divf_f64", "fu_sqrt_f32")} == {
        "fu_addf_f32": 6, "fu_addf_f64": 7, "fu_mulf_f32": 2, "fu_mulf_f64": 3,
        "fu_divf_f64": 36, "fu_sqrt_f32": 15}
    p = parse_preset("chess-4x4-d2-fp-f")
    assert (p.floats, p.pe_fifos, p.name) == (True, True, "chess-4x4-d2-fp-f")
    assert "with f32 and f64 float units" in p.description


def test_f_with_a_depth_sizes_every_pe_input_fifo():
    # `-f<D>`: each PE input's fifo of D slots; outputs and backward links keep two
    def depths(name: str) -> Counter[int]:
        module = preset(name).build()
        return Counter(op.attributes["depth"].value.data for op in module.walk()
                       if op.name == "fabric.fifo")

    plain, deep = depths("chess-2x2-ext1-f"), depths("chess-2x2-ext1-f8")
    assert plain[4] == deep[8] > 0 and 8 not in plain and 4 not in deep
    assert plain[2] == deep[2] > 0
    assert parse_preset("chess-2x2-ext1-f8").name == "chess-2x2-ext1-f8"
    assert parse_preset("chess-2x2-ext1-f4") == parse_preset("chess-2x2-ext1-f")


@pytest.mark.parametrize("name", ["chess-2x2-ext1x3s2", "chess-2x2-ext1x3s2-f"])
def test_each_tagged_response_lane_has_its_own_buffer(name):
    # a lane of a shared (tagged) response port must not wait behind another
    # lane's consumer (the head-of-line rule of AdgView.link_buffer): every
    # del_tag feeds a two-slot buffer, the fabric top's link buffer or, on
    # `-f`, a bypassable fifo that keeps its slots when bypassed
    view = adg_view(preset(name).build())
    drops = view.of_kind("del_tag")
    assert len(drops) == 3 + 3 + 2   # ld_data and ld_done x 3 lanes, st_done x 2
    for drop in drops:
        [(consumer, _)] = view.consumers(drop.outputs[0])
        node = view.node(consumer)
        if name.endswith("-f"):
            assert node.kind == "fifo" and "bypassable" in node.definition.attributes
            assert node.definition.attributes["depth"].value.data == 2
            assert view.link_buffer(node, drop.outputs[0]) is None
        else:
            assert view.link_buffer(node, drop.outputs[0]) == "lane"
