"""IEEE 754 binary32 and binary64 on bit patterns: the one definition of
floating point that the golden model, the SCF reference run and the RTL's
tests read (issue 33).

Values are unsigned bit patterns, as for integers. Arithmetic is numpy's
float32 / float64 scalar arithmetic, which is the host's IEEE arithmetic:
round to nearest, ties to even, subnormals kept (numpy never sets
flush-to-zero). Where C and MLIR leave a choice, this module makes it once:

- **NaN results are canonical**: the quiet NaN with a clear sign and an
  empty payload (0x7fc00000, 0x7ff8000000000000), whatever the operands'
  NaNs; x86 would give a negative NaN for 0/0. Results are compared with
  `same`, which takes any two NaNs as equal.
- **min / max** (C's fminf / fmaxf, MLIR's minnumf / maxnumf): a NaN operand
  yields the other operand; equal operands (+0 and -0 among them) yield the
  first, as the native x86 build does.
- **float to integer** outside the target's range (undefined in C):
  saturation to the nearest end, NaN to 0, as LLVM's fptosi.sat does.
- Conversions from integers and between the two formats round once
  (numpy's C casts), never through a wider intermediate.
"""

from __future__ import annotations

import math
from collections.abc import Callable
from dataclasses import dataclass

import numpy as np


@dataclass(frozen=True)
class Format:
    """One binary interchange format."""

    width: int
    exponent_bits: int
    dtype: type[np.floating]
    uint: type[np.unsignedinteger]

    @property
    def mantissa_bits(self) -> int:
        return self.width - 1 - self.exponent_bits

    @property
    def sign(self) -> int:
        return 1 << (self.width - 1)

    @property
    def canonical_nan(self) -> int:
        return ((1 << self.exponent_bits) - 1) << self.mantissa_bits | 1 << (self.mantissa_bits - 1)

    def is_nan(self, bits: int) -> bool:
        exponent = (bits >> self.mantissa_bits) & ((1 << self.exponent_bits) - 1)
        fraction = bits & ((1 << self.mantissa_bits) - 1)
        return exponent == (1 << self.exponent_bits) - 1 and fraction != 0

    def value(self, bits: int) -> np.floating:
        """The float a pattern encodes."""
        return np.array([bits], dtype=self.uint).view(self.dtype)[0]

    def bits(self, value: np.floating | float) -> int:
        """The pattern of a float of this format, NaN made canonical."""
        pattern = int(np.array([value], dtype=self.dtype).view(self.uint)[0])
        return self.canonical_nan if self.is_nan(pattern) else pattern


F32 = Format(32, 8, np.float32, np.uint32)
F64 = Format(64, 11, np.float64, np.uint64)
FORMATS = {32: F32, 64: F64}


def fmt(width: int) -> Format:
    try:
        return FORMATS[width]
    except KeyError:
        raise ValueError(f"no binary{width} floating-point format (32 and 64 only)") from None


def same(width: int, a: int, b: int) -> bool:
    """Equal patterns, or both NaN (a kernel's float results are compared so)."""
    f = fmt(width)
    return a == b or (f.is_nan(a) and f.is_nan(b))


# --- arithmetic -----------------------------------------------------------------------


Binary = Callable[[np.floating, np.floating], np.floating]


def _binary(op: Binary) -> Callable[[int, int, int], int]:
    def apply(width: int, a: int, b: int) -> int:
        f = fmt(width)
        with np.errstate(all="ignore"):
            return f.bits(op(f.value(a), f.value(b)))
    return apply


add = _binary(lambda x, y: x + y)
sub = _binary(lambda x, y: x - y)
mul = _binary(lambda x, y: x * y)
div = _binary(lambda x, y: x / y)
rem = _binary(np.fmod)        # C's fmod: the remainder of the truncated quotient


def sqrt(width: int, a: int) -> int:
    f = fmt(width)
    with np.errstate(all="ignore"):
        return f.bits(np.sqrt(f.value(a)))


def neg(width: int, a: int) -> int:
    """Sign flipped, NaN included (negf is a sign operation, then made canonical)."""
    f = fmt(width)
    return f.canonical_nan if f.is_nan(a) else a ^ f.sign


def absf(width: int, a: int) -> int:
    f = fmt(width)
    return f.canonical_nan if f.is_nan(a) else a & (f.sign - 1)


def _pick(width: int, a: int, b: int, take_b: Callable[[np.floating, np.floating], bool]) -> int:
    f = fmt(width)
    if f.is_nan(a):
        return f.canonical_nan if f.is_nan(b) else b
    if f.is_nan(b):
        return a
    return b if take_b(f.value(a), f.value(b)) else a


def minnum(width: int, a: int, b: int) -> int:
    return _pick(width, a, b, lambda x, y: bool(y < x))


def maxnum(width: int, a: int, b: int) -> int:
    return _pick(width, a, b, lambda x, y: bool(y > x))


# --- comparison -----------------------------------------------------------------------

#: MLIR's arith.cmpf predicates, in its numbering: (ordered relation, true when unordered)
CMPF_PREDICATES: dict[str, tuple[str | None, bool]] = {
    "false": (None, False), "oeq": ("eq", False), "ogt": ("gt", False), "oge": ("ge", False),
    "olt": ("lt", False), "ole": ("le", False), "one": ("ne", False), "ord": ("any", False),
    "ueq": ("eq", True), "ugt": ("gt", True), "uge": ("ge", True), "ult": ("lt", True),
    "ule": ("le", True), "une": ("ne", True), "uno": (None, True), "true": ("any", True),
}
CMPF_NAMES = tuple(CMPF_PREDICATES)
_RELATIONS: dict[str, Callable[[np.floating, np.floating], bool]] = {
    "eq": lambda x, y: bool(x == y), "ne": lambda x, y: bool(x != y),
    "lt": lambda x, y: bool(x < y), "le": lambda x, y: bool(x <= y),
    "gt": lambda x, y: bool(x > y), "ge": lambda x, y: bool(x >= y),
    "any": lambda x, y: True,
}


def cmpf(predicate: str, width: int, a: int, b: int) -> int:
    """1 or 0: an ordered predicate is false on a NaN operand, an unordered one true."""
    relation, unordered = CMPF_PREDICATES[predicate]
    f = fmt(width)
    if f.is_nan(a) or f.is_nan(b):
        return int(unordered)
    return int(relation is not None and _RELATIONS[relation](f.value(a), f.value(b)))


# --- conversions ----------------------------------------------------------------------


def from_int(width: int, a: int, int_width: int, is_signed: bool) -> int:
    """sitofp / uitofp: the integer pattern `a` of `int_width` bits, rounded once."""
    value = a - (1 << int_width) if is_signed and a >> (int_width - 1) & 1 else a
    source = np.int64 if is_signed else np.uint64
    return fmt(width).bits(np.array([value], dtype=source).astype(fmt(width).dtype)[0])


def int_range(int_width: int, is_signed: bool) -> tuple[int, int]:
    """The least and greatest integer of the type."""
    if is_signed:
        return -(1 << (int_width - 1)), (1 << (int_width - 1)) - 1
    return 0, (1 << int_width) - 1


def to_int(width: int, a: int, int_width: int, is_signed: bool) -> int:
    """fptosi / fptoui: truncated toward zero; saturated outside the range, NaN to 0."""
    f = fmt(width)
    if f.is_nan(a):
        return 0
    low, high = int_range(int_width, is_signed)
    x = float(f.value(a))
    value = high if x == math.inf else low if x == -math.inf else math.trunc(x)
    return min(max(value, low), high) & ((1 << int_width) - 1)


def convert(a: int, width_in: int, width_out: int) -> int:
    """extf / truncf: one rounding from binary`width_in` to binary`width_out`."""
    src, dst = fmt(width_in), fmt(width_out)
    with np.errstate(all="ignore"):
        return dst.bits(dst.dtype(src.value(a)))
