"""The reference interpreter's integer semantics against C / MLIR arith rules.

Expected values are written from the C semantics (two's complement, wrap-around
in the operand width, C division truncating toward zero), not from the tool.
"""

from __future__ import annotations

import pytest

from loom.bundle import Bundle, ScalarInput, bits
from loom.frontend.reference import RunFailed, run_reference

BINARY = [
    ("divsi", "i32", -7, 2, -3),
    ("remsi", "i32", -7, 2, -1),
    ("remsi", "i32", 7, -2, 1),
    ("divsi", "i8", -128, -1, -128),          # wraps like the hardware would
    ("divui", "i32", -7, 2, 2147483644),
    ("remui", "i8", 250, 7, 5),
    ("shrsi", "i8", -16, 2, -4),
    ("shrui", "i8", -16, 2, 60),
    ("shli", "i16", 0x4001, 2, 4),
    ("addi", "i8", 127, 1, -128),
    ("subi", "i16", -32768, 1, 32767),
    ("muli", "i64", 1 << 62, 4, 0),
    ("minsi", "i32", -1, 1, -1),
    ("maxsi", "i32", -1, 1, 1),
    ("minui", "i32", -1, 1, 1),
    ("maxui", "i32", -1, 1, -1),
    ("andi", "i8", -1, 0x5A, 0x5A),
    ("ori", "i8", 0x50, 0x0A, 0x5A),
    ("xori", "i64", -1, 1, -2),
]


def _run(tmp_path, body: str, args: list[tuple[str, int]], result: str) -> int:
    params = ", ".join(f"%a{i}: {t}" for i, (t, _) in enumerate(args))
    path = tmp_path / "k.scf.mlir"
    path.write_text(f"func.func @k({params}) -> {result} {{\n{body}\n}}\n")
    bundle = Bundle("k", scalar_inputs=[ScalarInput(i, [v]) for i, (_, v) in enumerate(args)])
    return run_reference(path, bundle, "k").results[0][0]


@pytest.mark.parametrize("op,t,a,b,expected", BINARY)
def test_binary_op(tmp_path, op, t, a, b, expected):
    body = f"  %r = arith.{op} %a0, %a1 : {t}\n  return %r : {t}"
    width = int(t[1:])
    assert _run(tmp_path, body, [(t, a), (t, b)], t) == bits(expected, width)


@pytest.mark.parametrize("pred,a,b,expected", [
    ("slt", -1, 1, 1), ("ult", -1, 1, 0), ("sge", -5, -5, 1), ("ugt", -1, 0, 1),
    ("eq", -1, 0xFFFF, 1), ("ne", 3, 3, 0),
])
def test_compare(tmp_path, pred, a, b, expected):
    body = (f"  %c = arith.cmpi {pred}, %a0, %a1 : i16\n"
            f"  %r = arith.extui %c : i1 to i32\n  return %r : i32")
    assert _run(tmp_path, body, [("i16", a), ("i16", b)], "i32") == expected


@pytest.mark.parametrize("op,src,dst,a,expected", [
    ("extsi", "i8", "i32", -128, -128),
    ("extui", "i8", "i32", -128, 128),
    ("trunci", "i32", "i8", 0x1FF, -1),
    ("extsi", "i16", "i64", -2, -2),
])
def test_casts(tmp_path, op, src, dst, a, expected):
    body = f"  %r = arith.{op} %a0 : {src} to {dst}\n  return %r : {dst}"
    assert _run(tmp_path, body, [(src, a)], dst) == bits(expected, int(dst[1:]))


def test_index_casts_extend_by_signedness(tmp_path):
    body = ("  %s = arith.index_cast %a0 : i8 to index\n"
            "  %u = arith.index_castui %a0 : i8 to index\n"
            "  %d = arith.subi %u, %s : index\n"
            "  %r = arith.index_cast %d : index to i32\n  return %r : i32")
    assert _run(tmp_path, body, [("i8", -1)], "i32") == 256


def test_for_loop_with_signed_i32_bounds(tmp_path):
    body = ("  %c1 = arith.constant 1 : i32\n  %c0 = arith.constant 0 : i32\n"
            "  %s = scf.for %i = %a0 to %a1 step %c1 iter_args(%acc = %c0) -> (i32) : i32 {\n"
            "    %n = arith.addi %acc, %i : i32\n    scf.yield %n : i32\n  }\n"
            "  return %s : i32")
    assert _run(tmp_path, body, [("i32", -3), ("i32", 2)], "i32") == bits(-3 - 2 - 1 + 0 + 1, 32)


def test_unused_poison_is_harmless_but_a_poison_result_fails(tmp_path):
    body = ("  %p = ub.poison : i32\n  %c = arith.cmpi sgt, %a0, %a1 : i32\n"
            "  %r = arith.select %c, %a0, %p : i32\n  return %r : i32")
    assert _run(tmp_path, body, [("i32", 5), ("i32", 1)], "i32") == 5
    with pytest.raises(RunFailed, match="poison"):
        _run(tmp_path, body, [("i32", 1), ("i32", 5)], "i32")


def test_poison_flows_through_float_ops(tmp_path):
    # a float op of an undefined value is undefined (not a NaN): returning it fails
    body = ("  %p = ub.poison : f32\n  %s = arith.addf %a0, %p : f32\n"
            "  %r = arith.fptosi %s : f32 to i32\n  return %r : i32")
    with pytest.raises(RunFailed, match="poison"):
        _run(tmp_path, body, [("f32", 0x3F800000)], "i32")


def test_float_division_by_zero_is_no_error(tmp_path):
    # IEEE: 1 / -0 is -inf, 0 / 0 the canonical NaN (the integer ops' error does not apply)
    body = "  %r = arith.divf %a0, %a1 : f32\n  return %r : f32"
    assert _run(tmp_path, body, [("f32", 0x3F800000), ("f32", 0x80000000)], "f32") == 0xFF800000
    assert _run(tmp_path, body, [("f32", 0), ("f32", 0)], "f32") == 0x7FC00000


def test_oversized_shift_is_poison(tmp_path):
    body = "  %r = arith.shli %a0, %a1 : i8\n  return %r : i8"
    with pytest.raises(RunFailed, match="poison"):
        _run(tmp_path, body, [("i8", 1), ("i8", 8)], "i8")


def test_division_by_zero_fails_the_run(tmp_path):
    body = "  %r = arith.divsi %a0, %a1 : i32\n  return %r : i32"
    with pytest.raises(RunFailed, match="division by zero"):
        _run(tmp_path, body, [("i32", 1), ("i32", 0)], "i32")


def test_out_of_bounds_access_names_the_line(tmp_path):
    path = tmp_path / "oob.scf.mlir"
    path.write_text(
        "func.func @oob(%m: memref<4xi32>, %i: i32) -> i32 {\n"
        "  %x = arith.index_cast %i : i32 to index\n"
        '  %v = memref.load %m[%x] : memref<4xi32> loc("oob.c":7:3)\n'
        "  return %v : i32\n}\n")
    from loom.bundle import MemoryRegion
    bundle = Bundle("oob", scalar_inputs=[ScalarInput(1, [4])],
                    memory_regions=[MemoryRegion(0, 4, [1, 2, 3, 4])])
    with pytest.raises(RunFailed, match=r"oob\.c:7:3: index \[4\] is outside an array "
                                        r"of 4 elements"):
        run_reference(path, bundle, "oob")


def test_an_index_past_an_inner_extent_is_row_major(tmp_path):
    """C's m[0][3] in an int m[2][3] is m[1][0]: read and written there, one warning per line."""
    from loom.bundle import MemoryRegion

    path = tmp_path / "rm.scf.mlir"
    path.write_text(
        "func.func @rm(%m: memref<2x3xi32>, %j: i32) -> i32 {\n"
        "  %c0 = arith.constant 0 : index\n"
        "  %x = arith.index_cast %j : i32 to index\n"
        '  %v = memref.load %m[%c0, %x] : memref<2x3xi32> loc("rm.c":4:3)\n'
        '  memref.store %j, %m[%c0, %x] : memref<2x3xi32> loc("rm.c":5:3)\n'
        "  return %v : i32\n}\n")
    bundle = Bundle("rm", start_token_count=2, scalar_inputs=[ScalarInput(1, [3, 4])],
                    memory_regions=[MemoryRegion(0, 4, [0, 1, 2, 10, 11, 12])])
    out = run_reference(path, bundle, "rm")
    assert out.results == [[10], [11]]
    assert out.memories == {0: [0, 1, 2, 3, 4, 12]}
    assert out.warnings == [
        "rm.c:4:3: warning: index [0, 3] runs past an inner extent of a 2x3 array; "
        "it reaches element 3 (row-major, as C and the hardware do)",
        "rm.c:5:3: warning: index [0, 3] runs past an inner extent of a 2x3 array; "
        "it reaches element 3 (row-major, as C and the hardware do)"]


def test_step_budget_stops_a_livelock(tmp_path):
    path = tmp_path / "spin.scf.mlir"
    path.write_text(
        "func.func @spin(%a: i32) -> i32 {\n"
        "  %r = scf.while (%x = %a) : (i32) -> i32 {\n"
        "    %t = arith.constant true\n    scf.condition(%t) %x : i32\n"
        "  } do {\n  ^bb0(%y: i32):\n    scf.yield %y : i32\n  }\n"
        "  return %r : i32\n}\n")
    with pytest.raises(RunFailed, match="livelock"):
        run_reference(path, Bundle("spin", scalar_inputs=[ScalarInput(0, [1])]), "spin",
                      max_steps=1000)


def test_invocations_run_in_order_on_persistent_arrays(tmp_path):
    """start_token_count 3: three calls, each seeing the previous one's store."""
    from loom.bundle import MemoryRegion

    path = tmp_path / "acc.scf.mlir"
    path.write_text(
        "func.func @acc(%m: memref<2xi32>, %k: i32) -> i32 {\n"
        "  %c1 = arith.constant 1 : index\n"
        "  %v = memref.load %m[%c1] : memref<2xi32>\n"
        "  %w = arith.addi %v, %k : i32\n"
        "  memref.store %w, %m[%c1] : memref<2xi32>\n"
        "  return %w : i32\n}\n")
    bundle = Bundle("acc", start_token_count=3, scalar_inputs=[ScalarInput(1, [5, -2, 10])],
                    memory_regions=[MemoryRegion(0, 4, [0, 100])])
    out = run_reference(path, bundle, "acc")
    assert out.results == [[105], [103], [113]]   # 100 + 5, then - 2, then + 10
    assert out.memories == {0: [0, 113]}
