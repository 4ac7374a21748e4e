"""loom.ir: context, parse/verify/print, one-line located errors, source locations."""

from __future__ import annotations

import shutil
import subprocess
from pathlib import Path

import pytest

from loom.diagnostics import Location, LoomError
from loom.ir import (
    load_module,
    make_context,
    normalize_locations,
    op_location,
    parse,
    parse_module,
    print_module,
    set_op_location,
    verify_module,
)

DATA = Path(__file__).parent / "dialects" / "data"
MLIR_OPT = shutil.which("mlir-opt-22") or shutil.which("mlir-opt-19")

UPSTREAM = """module attributes {loom.adg_max_join_fanin = 4 : i64, loom.name = "k"} {
  func.func @k(%a: memref<16xi32>, %n: index) -> i32 {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %z = arith.constant 0 : i32
    %s = scf.for %i = %c0 to %n step %c1 iter_args(%acc = %z) -> (i32) {
      %v = memref.load %a[%i] : memref<16xi32>
      %w = arith.addi %acc, %v : i32
      scf.yield %w : i32
    }
    cf.br ^bb1
  ^bb1:
    func.return %s : i32
  }
}
"""


def test_context_reads_upstream_and_loom_dialects():
    ctx = make_context()
    assert not ctx.allow_unregistered
    for name in ("builtin", "arith", "func", "scf", "cf", "memref", "llvm", "handshake", "dataflow"):
        assert name in ctx.registered_dialect_names or name in {d.name for d in ctx.loaded_dialects}
    module = parse_module(UPSTREAM, "k.mlir")
    assert [op.name for op in module.walk()][:3] == ["builtin.module", "func.func", "arith.constant"]


def test_module_attributes_survive(tmp_path):
    text = print_module(parse_module(UPSTREAM))
    assert "loom.adg_max_join_fanin = 4 : i64" in text
    path = tmp_path / "k.mlir"
    path.write_text(text)
    assert load_module(path).attributes["loom.adg_max_join_fanin"].value.data == 4


def test_round_trip_is_a_fixed_point():
    once = print_module(parse_module(UPSTREAM))
    assert print_module(parse_module(once)) == once


def test_example_dfg_loads_and_round_trips():
    path = DATA / "vecadd_like.dfg.mlir"
    module = load_module(path)
    printed = print_module(module)
    assert print_module(parse_module(printed, "printed")) == printed
    names = [op.name for op in module.walk()]
    for op in ("dataflow.stream", "dataflow.gate", "dataflow.invariant", "dataflow.carry",
               "handshake.load", "handshake.store", "handshake.extmemory"):
        assert op in names
    stream = next(op for op in module.walk() if op.name == "dataflow.stream")
    assert op_location(stream) == Location("vecadd_like.c", 3, 3)


def line_col_of(text: str, needle: str) -> tuple[int, int]:
    """1-based line and column of `needle` in `text` (the independent reference)."""
    for number, line in enumerate(text.splitlines(), start=1):
        if needle in line:
            return number, line.index(needle) + 1
    raise AssertionError(needle)


@pytest.mark.parametrize(
    "bad, needle, at, fragment",
    [
        ("%w = arith.addi %acc, %v : i32", "%w = arith.addi %acc, %v i32", "i32", "':'"),
        ("%v = memref.load %a[%i] : memref<16xi32>",
         "%v = memref.load %a[%i] : memref<16xi32> foo", "foo", "foo is not registered"),
        ("%z = arith.constant 0 : i32", "%z = arith.frobnicate 0 : i32", "arith.frobnicate",
         "arith.frobnicate is not registered"),
        ("%w = arith.addi %acc, %v : i32", "%w = arith.addi %acc, %undefined : i32",
         "%undefined", "value %undefined is used but never defined"),
    ],
)
def test_malformed_file_gives_located_one_line_error(tmp_path, bad, needle, at, fragment):
    text = UPSTREAM.replace(bad, needle)
    path = tmp_path / "bad.mlir"
    path.write_text(text)
    with pytest.raises(LoomError) as info:
        load_module(path)
    err = info.value
    line, col = line_col_of(text, needle)
    assert err.loc == Location(str(path), line, col + needle.index(at))
    formatted = err.format()
    assert formatted.startswith(f"{path}:{err.loc.line}:{err.loc.col}: error: ")
    assert "\n" not in formatted
    assert fragment in err.message


def test_verify_error_points_at_the_op(tmp_path):
    text = (DATA / "vecadd_like.dfg.mlir").read_text().replace(
        'cont_cond = "<"', 'cont_cond = "=<"'
    )
    path = tmp_path / "bad.dfg.mlir"
    path.write_text(text)
    with pytest.raises(LoomError) as info:
        load_module(path)
    assert info.value.loc == Location(str(path), *line_col_of(text, "%idx, %cont = dataflow.stream"))
    assert info.value.format().endswith(
        "error: 'dataflow.stream' op invalid cont_cond \"=<\": expected one of < <= > >= != "
        "(source vecadd_like.c:3:3)"
    )


def test_unregistered_ops_are_rejected_by_default():
    with pytest.raises(LoomError, match="not registered"):
        parse_module('"foo.bar"() : () -> ()', "x.mlir")


def test_missing_and_undecodable_files(tmp_path):
    with pytest.raises(LoomError, match="cannot read"):
        load_module(tmp_path / "nope.mlir")
    raw = tmp_path / "raw.mlir"
    raw.write_bytes(b"\xff\xfe\x00")
    with pytest.raises(LoomError, match="cannot read"):
        load_module(raw)


# --- source locations ------------------------------------------------------------------

LOCATED = """module {
  func.func @f(%a: i32 loc("k.c":1:10), %b: i32) -> i32 {
    %c = arith.addi %a, %b : i32 loc("k.c":12:3)
    %d = arith.muli %c, %b : i32 loc(callsite("k.c":13:5 at "main.c":2:1))
    %e = arith.subi %d, %b : i32 loc(fused["k.c":14:7, "k.c":14:9])
    %g = arith.xori %e, %b : i32 loc("acc"("k.c":15:1))
    func.return %g : i32
  } loc("k.c":1:1)
}
"""


def test_locations_are_kept_on_ops_and_arguments():
    module = parse_module(LOCATED, "f.mlir")
    ops = {op.name: op for op in module.walk()}
    assert op_location(ops["arith.addi"]) == Location("k.c", 12, 3)
    assert op_location(ops["arith.muli"]) == Location("k.c", 13, 5)
    assert op_location(ops["arith.subi"]) == Location("k.c", 14, 7)
    assert op_location(ops["arith.xori"]) == Location("k.c", 15, 1)
    assert op_location(ops["func.return"]) is None
    func = ops["func.func"]
    assert op_location(func) == Location("k.c", 1, 1)
    assert op_location(func.body.block.args[0]) == Location("k.c", 1, 10)
    assert op_location(func.body.block.args[1]) is None


def test_locations_round_trip_and_unknown_ones_are_not_printed():
    printed = print_module(parse_module(LOCATED))
    assert 'loc("k.c":12:3)' in printed
    assert "loc(unknown)" not in printed
    assert print_module(parse_module(printed)) == printed


def test_set_op_location():
    module = parse_module(LOCATED)
    ret = next(op for op in module.walk() if op.name == "func.return")
    set_op_location(ret, Location("k.c", 20, 4))
    printed = print_module(module)
    assert 'func.return %g : i32 loc("k.c":20:4)' in printed
    again = next(op for op in parse_module(printed).walk() if op.name == "func.return")
    assert op_location(again) == Location("k.c", 20, 4)


MLIR_OPT_STYLE = """#loc1 = loc("k.c":1:1)
module {
  func.func @f(%arg0: i32 loc("k.c":1:1), %arg1: i32 loc("t.mlir":2:40)) -> i32 {
    %0 = arith.addi %arg0, %arg1 : i32 loc(#loc3)
    %1 = arith.muli %0, %arg1 : i32 loc(#loc4)
    return %1 : i32 loc(#loc5)
  } loc(#loc1)
} loc(#loc)
#loc = loc("t.mlir":1:1)
#loc3 = loc("k.c":2:3)
#loc4 = loc("k.c":3:5 to :9)
#loc5 = loc(callsite(#loc3 at #loc1))
"""


def test_mlir_opt_location_aliases_and_ranges_are_understood():
    module = parse_module(MLIR_OPT_STYLE, "t.mlir")
    ops = {op.name: op for op in module.walk()}
    assert op_location(ops["arith.addi"]) == Location("k.c", 2, 3)
    assert op_location(ops["arith.muli"]) == Location("k.c", 3, 5)
    assert op_location(ops["func.return"]) == Location("k.c", 2, 3)
    # the alias lines are blanked, not removed: line numbers stay
    assert normalize_locations(MLIR_OPT_STYLE).count("\n") == MLIR_OPT_STYLE.count("\n")


@pytest.mark.skipif(MLIR_OPT is None, reason="mlir-opt not installed")
def test_real_mlir_opt_output_keeps_locations(tmp_path):
    """mlir-opt prints our locations back; we read its alias-style output."""
    src = tmp_path / "in.mlir"
    src.write_text(print_module(parse_module(LOCATED)))
    out = subprocess.run(
        [MLIR_OPT, "--mlir-print-debuginfo", str(src)], capture_output=True, text=True, check=True
    ).stdout
    ops = {op.name: op for op in parse_module(out, "opt.mlir").walk()}
    assert op_location(ops["arith.addi"]) == Location("k.c", 12, 3)
    assert op_location(ops["arith.muli"]) == Location("k.c", 13, 5)
    assert op_location(ops["arith.xori"]) == Location("k.c", 15, 1)


def test_arith_index_castui_is_available():
    """MLIR emits it; xDSL 0.74 lacks it (arith_extras.py)."""
    text = """func.func @f(%x: i32) -> index {
  %i = arith.index_castui %x : i32 to index
  func.return %i : index
}
"""
    assert "arith.index_castui %x : i32 to index" in print_module(parse_module(text))
    bad = text.replace(": i32 to index", ": i32 to i64").replace("-> index", "-> i64").replace(
        "%i : index", "%i : i64")
    with pytest.raises(LoomError, match="cast incompatible"):
        parsed = parse(bad, "f.mlir")
        verify_module(parsed.module, "f.mlir", parsed.op_positions)


def test_verify_error_of_a_built_module_names_the_source_line():
    """Without text positions (IR built by a pass) the C location is used."""
    from xdsl.dialects.builtin import UNKNOWN_LOC, StringAttr

    module = parse_module((DATA / "vecadd_like.dfg.mlir").read_text())
    stream = next(op for op in module.walk() if op.name == "dataflow.stream")
    stream.properties["step_op"] = StringAttr("+")
    with pytest.raises(LoomError) as info:
        verify_module(module)
    assert info.value.loc == Location("vecadd_like.c", 3, 3)
    # no location on the op itself: the enclosing function's
    stream.location = UNKNOWN_LOC
    set_op_location(stream.parent_op(), Location("vecadd_like.c", 1, 1))
    with pytest.raises(LoomError) as info:
        verify_module(module)
    assert info.value.loc == Location("vecadd_like.c", 1, 1)


_SIGNATURES = """\
fabric.spatial_sw @sw [connectivity_table = ["11", "11"]] : (!fabric.bits<32>, !fabric.bits<32>) -> (!fabric.bits<32>, !fabric.bits<32>)
fabric.module @top(%a: !fabric.bits<32>, %b: !fabric.bits<32>) -> (!fabric.bits<32>, !fabric.bits<32>) {
  %0:2 = fabric.instance @sw(%a, %b) {sym_name = "s0"} : (!fabric.bits<32>, !fabric.bits<32>) -> (!fabric.bits<32>, !fabric.bits<32>)
  %1:2 = fabric.instance @sw(%0#0, %0#1) {sym_name = "s1"} : (!fabric.bits<32>, !fabric.bits<32>) -> (!fabric.bits<32>, !fabric.bits<32>)
  %2 = fabric.fifo @f [depth = 2] (%1#0) : (!fabric.bits<32>) -> (!fabric.bits<32>)
  fabric.yield %2, %1#1 : !fabric.bits<32>, !fabric.bits<32>
}
"""


def test_a_repeated_port_signature_parses_as_xdsl_parses_it():
    """The parser reads a function type's text once per file (ir.py
    _LocatingParser.parse_type); xDSL's own parser is the reference."""
    from xdsl.parser import Parser
    ours = parse(_SIGNATURES, "sig.mlir")
    reference = Parser(make_context(), _SIGNATURES, "sig.mlir").parse_module()
    assert str(ours.module) == str(reference)
    positions = sorted((loc.line, loc.col) for loc in ours.op_positions.values())
    assert (3, 3) in positions and (4, 3) in positions and (5, 3) in positions


def test_a_repeated_signature_with_a_bad_type_still_fails_where_it_is():
    bad = _SIGNATURES.replace(
        '{sym_name = "s1"} : (!fabric.bits<32>, !fabric.bits<32>)',
        '{sym_name = "s1"} : (!fabric.bits<32>, !fabric.bogus<32>)')
    with pytest.raises(LoomError) as err:
        parse(bad, "sig.mlir")
    assert err.value.loc is not None and err.value.loc.line == 4
