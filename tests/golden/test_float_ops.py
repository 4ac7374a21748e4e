"""The golden float ops (golden/ops/arith_float.py) against loom.floats, the one
definition of floating point (tests/test_floats.py checks it against C), on the
corner patterns: NaNs (quiet, signalling, negative), signed zeros, subnormals,
infinities, the extremes and ordinary values; and the op table of golden/build.py."""

from __future__ import annotations

import itertools

import pytest

from loom import floats
from loom.diagnostics import LoomError
from loom.golden.actor import run_actor
from loom.golden.build import _FLOAT_BINARY, _FLOAT_CASTS, _FLOAT_UNARY, _float
from loom.golden.ops import arith_float as af
from loom.ir import parse_module

#: per width: +-0, the least subnormal, the greatest subnormal, the least normal,
#: 1, 1.5, -2.75, the greatest finite, +-inf, the quiet NaN, a signalling and a negative NaN
PATTERNS = {
    32: [0x00000000, 0x80000000, 0x00000001, 0x007FFFFF, 0x00800000, 0x3F800000, 0x3FC00000,
         0xC0300000, 0x7F7FFFFF, 0x7F800000, 0xFF800000, 0x7FC00000, 0x7F800001, 0xFFC00001],
    64: [0, 1 << 63, 1, (1 << 52) - 1, 1 << 52, 0x3FF0000000000000, 0x3FF8000000000000,
         0xC006000000000000, 0x7FEFFFFFFFFFFFFF, 0x7FF0000000000000, 0xFFF0000000000000,
         0x7FF8000000000000, 0x7FF0000000000001, 0xFFF8000000000001],
}
WIDTHS = (32, 64)

BINARY = {af.AddF: floats.add, af.SubF: floats.sub, af.MulF: floats.mul, af.DivF: floats.div,
          af.RemF: floats.rem, af.MinNumF: floats.minnum, af.MaxNumF: floats.maxnum}
UNARY = {af.NegF: floats.neg, af.AbsF: floats.absf, af.SqrtF: floats.sqrt}


def _pairs(width: int) -> tuple[list[int], list[int]]:
    pairs = list(itertools.product(PATTERNS[width], repeat=2))
    return [a for a, _ in pairs], [b for _, b in pairs]


@pytest.mark.parametrize("width", WIDTHS)
@pytest.mark.parametrize("cls", list(BINARY), ids=lambda c: c.__name__)
def test_binary_op_is_loom_floats(cls, width):
    a, b = _pairs(width)
    (got,) = run_actor(cls(width), [a, b])
    assert got == [BINARY[cls](width, x, y) for x, y in zip(a, b)]


@pytest.mark.parametrize("width", WIDTHS)
@pytest.mark.parametrize("cls", list(UNARY), ids=lambda c: c.__name__)
def test_unary_op_is_loom_floats(cls, width):
    a = PATTERNS[width]
    (got,) = run_actor(cls(width), [a])
    assert got == [UNARY[cls](width, x) for x in a]


@pytest.mark.parametrize("width", WIDTHS)
@pytest.mark.parametrize("predicate", floats.CMPF_NAMES)
def test_cmpf_is_loom_floats(predicate, width):
    a, b = _pairs(width)
    (got,) = run_actor(af.CmpF(predicate, width), [a, b])
    assert got == [floats.cmpf(predicate, width, x, y) for x, y in zip(a, b)]


def test_nan_results_are_canonical():
    # a signalling and a negative NaN in, the canonical quiet NaN out
    nans = [0x7F800001, 0xFFC00001]
    for cls in (af.AddF, af.MulF, af.MinNumF):
        assert run_actor(cls(32), [nans, nans])[0] == [0x7FC00000] * 2
    assert run_actor(af.NegF(32), [nans])[0] == [0x7FC00000] * 2
    assert run_actor(af.SqrtF(64), [[0xBFF0000000000000]])[0] == [0x7FF8000000000000]


def test_signed_zero_and_subnormal_corners():
    # -0 + -0 is -0, +0 - +0 is +0, the least subnormal halves to 0 (a tie: even)
    assert run_actor(af.AddF(32), [[0x80000000], [0x80000000]])[0] == [0x80000000]
    assert run_actor(af.SubF(32), [[0], [0]])[0] == [0]
    assert run_actor(af.MulF(32), [[0x00000001], [0x3F000000]])[0] == [0]
    # minnum / maxnum of +0 and -0 give the first operand
    assert run_actor(af.MinNumF(32), [[0, 0x80000000], [0x80000000, 0]])[0] == [0, 0x80000000]
    assert run_actor(af.MaxNumF(64), [[1 << 63], [0]])[0] == [1 << 63]


INT_WIDTHS = (1, 8, 16, 32, 64)


def _ints(width: int) -> list[int]:
    """0, 1, the signed extremes, all ones and a mid value, as patterns."""
    mask = (1 << width) - 1
    return sorted({0, 1 & mask, 1 << (width - 1), mask >> 1, mask, 0x5A5A5A5A5A5A5A5A & mask})


@pytest.mark.parametrize("width", WIDTHS)
@pytest.mark.parametrize("int_width", INT_WIDTHS)
@pytest.mark.parametrize("cls,signed", [(af.SIToFP, True), (af.UIToFP, False)],
                         ids=["sitofp", "uitofp"])
def test_int_to_float_is_loom_floats(cls, signed, int_width, width):
    a = _ints(int_width)
    (got,) = run_actor(cls(int_width, width), [a])
    assert got == [floats.from_int(width, x, int_width, signed) for x in a]


@pytest.mark.parametrize("width", WIDTHS)
@pytest.mark.parametrize("int_width", INT_WIDTHS)
@pytest.mark.parametrize("cls,signed", [(af.FPToSI, True), (af.FPToUI, False)],
                         ids=["fptosi", "fptoui"])
def test_float_to_int_is_loom_floats(cls, signed, int_width, width):
    a = PATTERNS[width]
    (got,) = run_actor(cls(width, int_width), [a])
    assert got == [floats.to_int(width, x, int_width, signed) for x in a]
    assert all(0 <= v < 1 << int_width for v in got)


def test_sitofp_of_i1_true_is_minus_one():
    assert run_actor(af.SIToFP(1, 32), [[1]])[0] == [0xBF800000]
    assert run_actor(af.UIToFP(1, 32), [[1]])[0] == [0x3F800000]


@pytest.mark.parametrize("width_in,width_out", [(32, 64), (64, 32)])
def test_extf_truncf_are_loom_floats(width_in, width_out):
    a = PATTERNS[width_in]
    (got,) = run_actor(af.ConvertF(width_in, width_out), [a])
    assert got == [floats.convert(x, width_in, width_out) for x in a]


def test_bitcast_keeps_the_pattern_and_needs_one_width():
    assert run_actor(af.Bitcast(32, 32), [[0x7F800001]])[0] == [0x7F800001]
    with pytest.raises(ValueError):
        af.Bitcast(32, 64)


def test_a_width_without_a_format_is_refused():
    for make in (lambda: af.AddF(16), lambda: af.SIToFP(32, 16), lambda: af.CmpF("oeq", 80)):
        with pytest.raises(ValueError):
            make()
    with pytest.raises(ValueError, match="cmpf predicate"):
        af.CmpF("slt", 32)


# --- golden/build.py: which actor each op of a DFG becomes ---------------------------

OPS = """
func.func @k(%a: f32, %b: f32, %i: i32, %d: f64) -> () {
  %0 = arith.addf %a, %b : f32
  %1 = arith.subf %a, %b : f32
  %2 = arith.mulf %a, %b : f32
  %3 = arith.divf %a, %b : f32
  %4 = arith.remf %a, %b : f32
  %5 = arith.minnumf %a, %b : f32
  %6 = arith.maxnumf %a, %b : f32
  %7 = arith.negf %a : f32
  %8 = math.absf %a : f32
  %9 = math.sqrt %a : f32
  %10 = arith.cmpf uge, %a, %b : f32
  %11 = arith.sitofp %i : i32 to f64
  %12 = arith.uitofp %i : i32 to f32
  %13 = arith.fptosi %d : f64 to i32
  %14 = arith.fptoui %a : f32 to i32
  %15 = arith.extf %a : f32 to f64
  %16 = arith.truncf %d : f64 to f32
  %17 = arith.bitcast %i : i32 to f32
  return
}
"""


def _ops() -> list:
    module = parse_module(OPS, "ops.mlir")
    return [op for op in module.walk()
            if op.name.startswith(("arith.", "math.")) and op.results]


def test_every_float_op_has_its_actor():
    actors = {op.name.split(".")[-1]: _float(op) for op in _ops()}
    for kind, cls in {**_FLOAT_BINARY, **_FLOAT_UNARY, **_FLOAT_CASTS}.items():
        assert type(actors[kind]) is cls, kind
    cmpf = actors["cmpf"]
    assert isinstance(cmpf, af.CmpF) and cmpf.predicate == "uge" and cmpf.width == 32
    sitofp, fptosi = actors["sitofp"], actors["fptosi"]
    assert (sitofp.width_in, sitofp.width_out) == (32, 64)
    assert (fptosi.width_in, fptosi.width_out) == (64, 32)


def test_an_f16_op_is_a_located_refusal():
    module = parse_module("func.func @k(%a: f16) -> f16 {\n"
                          "  %r = arith.addf %a, %a : f16\n  return %r : f16\n}\n", "h.mlir")
    add = next(op for op in module.walk() if op.name == "arith.addf")
    with pytest.raises(LoomError, match="arith.addf: no binary16"):
        _float(add)
