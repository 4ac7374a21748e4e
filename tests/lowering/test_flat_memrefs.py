"""Flat memrefs (lowering/flat_memrefs.py): compiled for an ADG, every access has
one index and every memref rank 1, and the golden run still equals the native C
run on the kernel's own bundle (its arrays are flat and row-major already)."""

from math import prod
from pathlib import Path

import pytest
from xdsl.dialects.builtin import AnyFloat, MemRefType

from loom.cli import main
from loom.diagnostics import LoomError
from loom.fabric.presets import preset
from loom.golden.run import find_func, run_dfg
from loom.ir import load_module, parse_module
from loom.lowering import lower
from loom.lowering.pipeline import lower_module
from loom.mapper.dfg_ops import describe, mapped_ops
from loom.mapper.inventory import hw_units
from loom.mapper.matching import candidates
from loom.fabric.adg_view import adg_view

ROOT = Path(__file__).resolve().parents[2]
MULTI_INDEX_KERNELS = sorted(p.stem for p in (ROOT / "kernels").glob("*.c")
                             if "][" in p.read_text())
"""The kernels that index an array with several subscripts somewhere."""

ACCESSES = ("handshake.load", "handshake.store")
MEMORIES = ("handshake.memory", "handshake.extmemory")


def _memref_types(func) -> list[MemRefType]:
    args = [a.type for a in func.body.block.args if isinstance(a.type, MemRefType)]
    locals_ = [op.properties.get("mem_type", op.attributes.get("mem_type"))
               for op in func.body.block.ops if op.name == "handshake.memory"]
    return args + locals_


def _carries_floats(op) -> bool:
    return any(isinstance(v.type, AnyFloat) for v in (*op.operands, *op.results))


def _address_counts(func) -> set[int]:
    return {len(op.operands) - 2 for op in func.body.block.ops if op.name in ACCESSES}


@pytest.fixture(scope="module")
def chess_2x2():
    """(join fan-in, one unit of each kind): chess-2x2 holds every kind of unit the
    presets have (fabric/presets.py)."""
    module = preset("chess-2x2").build()
    units = {id(u.definition): u for u in hw_units(adg_view(module))}
    return adg_view(module).max_join_fanin, list(units.values())


@pytest.mark.parametrize("name", MULTI_INDEX_KERNELS)
def test_multi_index_kernel_flat_golden_equals_native(compiled, chess_2x2, name):
    arts = compiled(name)
    dfg = arts.dfg_mlir.with_name(f"{name}.flat.dfg.mlir")
    fanin, units = chess_2x2
    lower(arts.scf_mlir, dfg, arts.top, fanin, flat_memrefs=True)
    func = find_func(load_module(dfg), arts.top, str(dfg))
    assert _address_counts(func) == {1}
    # the address arithmetic uses units a fabric has (no index multiplier);
    # ops that carry a float have no fabric unit yet (issue 33), whatever the flattening
    assert not {describe(op) for op in mapped_ops(func.body.block)
                if not candidates(op, units) and not _carries_floats(op)}
    assert all(len(t.get_shape()) == 1 for t in _memref_types(func))
    # the bundle's regions fill the flat memrefs exactly
    args = func.body.block.args
    for region in (*arts.bundle.memory_regions, *arts.bundle.expected_memory_regions):
        assert len(region.values) == prod(args[region.memref_arg_index].type.get_shape())
    run = run_dfg(func, arts.bundle, str(dfg))
    assert run.execution.returned, run.problems()[:10]
    assert not run.execution.problems, run.execution.problems[:10]   # quiescent
    assert not run.mismatches, run.mismatches[:10]                    # == native C


POLYBENCH = """\
#define R 3
#define C 4
void pb(int a[R][C], int b[2][3][4]) {
  int t[2][3];
  for (int i = 0; i < 2; i++)
    for (int j = 0; j < 3; j++)
      t[i][j] = a[i][j + 1] * 2 - a[i + 1][j];
  for (int k = 0; k < R - 1; k++)
    a[k][C] += 5;                        /* past the inner extent: a[k + 1][0] */
  for (int i = 0; i < 2; i++)
    for (int j = 0; j < 3; j++)
      for (int l = 0; l < 4; l++)
        b[i][j][l] = t[i][j] * (l + 1) + a[i + 1][l] - b[1 - i][2 - j][3 - l];
}
int main(void) {
  int a[R][C], b[2][3][4];
  for (int i = 0; i < R; i++)
    for (int j = 0; j < C; j++)
      a[i][j] = 7 * i - 3 * j + 1;
  for (int i = 0; i < 2; i++)
    for (int j = 0; j < 3; j++)
      for (int l = 0; l < 4; l++)
        b[i][j][l] = i * 12 + j * 4 - l;
  pb(a, b);
  return 0;
}
"""
"""PolyBench layout: 2-D and 3-D arguments, a 2-D local array, a row-crossing
access and reads of b in the reverse order of its writes."""


@pytest.mark.parametrize("flat", [False, True])
def test_polybench_layout_both_ways_equals_native(tmp_path, capsys, flat):
    k = tmp_path / "pb.c"
    k.write_text(POLYBENCH)
    out = tmp_path / "o"
    assert main(["run", str(k), *(["--flat-memrefs"] if flat else []), "-o", str(out)]) == 0
    assert "PASS: results and memories match" in capsys.readouterr().out
    func = find_func(load_module(out / "pb.dfg.mlir"), None, "pb.dfg.mlir")
    shapes = sorted(tuple(t.get_shape()) for t in _memref_types(func))
    if flat:
        assert _address_counts(func) == {1}
        assert shapes == [(6,), (12,), (24,)]
    else:
        assert _address_counts(func) == {2, 3}
        assert shapes == [(2, 3), (2, 3, 4), (3, 4)]


def _scf(memref_type: str) -> str:
    return (f"func.func @f(%a: {memref_type}, %i: index, %j: index) -> i32 {{\n"
            f"  %v = memref.load %a[%i, %j] : {memref_type}\n"
            "  func.return %v : i32\n}\n")


def test_dynamic_outer_extent_flattens_to_a_dynamic_memref():
    module, lowered = lower_module(parse_module(_scf("memref<?x5xi32>"), "t.scf.mlir"),
                                   None, 64, "t.scf.mlir", flat_memrefs=True)
    assert str(lowered.func.body.block.args[0].type) == "memref<?xi32>"
    assert _address_counts(lowered.func) == {1}


def test_dynamic_inner_extent_is_an_error():
    scf = parse_module(_scf("memref<4x?xi32>"), "t.scf.mlir")
    with pytest.raises(LoomError, match=r"cannot flatten an access to memref<4x\?xi32>: "
                                        "an inner extent is dynamic"):
        lower_module(scf, None, 64, "t.scf.mlir", flat_memrefs=True)


def test_integer_subscripts_are_extended_and_their_index_casts_go():
    text = ("func.func @f(%a: memref<3x5xi32>, %b: memref<3xi32>, %i: i32, %j: i32) -> i32 {\n"
            "  %ii = arith.index_cast %i : i32 to index\n"
            "  %jj = arith.index_cast %j : i32 to index\n"
            "  %v = memref.load %a[%ii, %jj] : memref<3x5xi32>\n"
            "  %w = memref.load %b[%ii] : memref<3xi32>\n"
            "  %s = arith.addi %v, %w : i32\n"
            "  func.return %s : i32\n}\n")
    _, lowered = lower_module(parse_module(text, "t.scf.mlir"), None, 64, "t.scf.mlir",
                              flat_memrefs=True)
    ops = [op.name for op in lowered.func.body.block.ops]
    # %jj served only the 2-D load; %ii also addresses b, so it stays
    assert ops.count("arith.extsi") == 2 and ops.count("arith.muli") == 1
    assert ops.count("arith.index_cast") == 2          # %ii and the flat sum's
    assert ops.count("arith.addi") == 2                # the sum's and the kernel's
