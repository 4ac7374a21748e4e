"""The float `arith` ops (and math.absf, math.sqrt) on f32 / f64 bit patterns.

Values are unsigned IEEE patterns, like integers; every op is loom.floats'
(issue 33), the one definition the SCF reference run and the RTL's tests
read too: round to nearest even, subnormals kept, canonical NaN results,
minnum/maxnum taking the first of equal operands, float-to-integer saturating
(NaN to 0). Every op has join semantics.

Each op's `expr` calls its loom.floats function through `self.op` (a
staticmethod, so golden/codegen.py binds the plain function once per node).
"""

from __future__ import annotations

from loom import floats
from loom.golden.ops.arith import _Join


def _check(width: int) -> int:
    floats.fmt(width)      # ValueError for a width with no format
    return width


class _Binary(_Join):
    """floats.<op>(width, a, b)."""

    n_in = 2
    args = ("a", "b")
    expr = "self.op(self.width, a, b)"
    op = staticmethod(floats.add)

    def __init__(self, width: int):
        self.width = _check(width)


class AddF(_Binary):
    op = staticmethod(floats.add)


class SubF(_Binary):
    op = staticmethod(floats.sub)


class MulF(_Binary):
    op = staticmethod(floats.mul)


class DivF(_Binary):
    op = staticmethod(floats.div)


class RemF(_Binary):
    op = staticmethod(floats.rem)


class MinNumF(_Binary):
    op = staticmethod(floats.minnum)


class MaxNumF(_Binary):
    op = staticmethod(floats.maxnum)


class CmpF(_Binary):
    """1 or 0; `predicate` is a name of floats.CMPF_NAMES (MLIR's numbering)."""

    expr = "self.op(self.predicate, self.width, a, b)"
    op = staticmethod(floats.cmpf)

    def __init__(self, predicate: str, width: int):
        super().__init__(width)
        if predicate not in floats.CMPF_PREDICATES:
            raise ValueError(f"cmpf predicate {predicate!r} is not one of "
                             f"{' '.join(floats.CMPF_NAMES)}")
        self.predicate = predicate


class _Unary(_Join):
    """floats.<op>(width, a)."""

    n_in = 1
    args = ("a",)
    expr = "self.op(self.width, a)"
    op = staticmethod(floats.neg)

    def __init__(self, width: int):
        self.width = _check(width)


class NegF(_Unary):
    op = staticmethod(floats.neg)


class AbsF(_Unary):
    op = staticmethod(floats.absf)


class SqrtF(_Unary):
    op = staticmethod(floats.sqrt)


class _Cast(_Join):
    """A conversion from a width_in-bit value to a width_out-bit one."""

    n_in = 1
    args = ("a",)

    def __init__(self, width_in: int, width_out: int):
        self.width_in, self.width_out = width_in, width_out


class _FromInt(_Cast):
    """sitofp / uitofp: an integer pattern rounded once to the float format."""

    is_signed: bool   # each op sets it
    expr = "self.op(self.width_out, a, self.width_in, self.is_signed)"
    op = staticmethod(floats.from_int)

    def __init__(self, width_in: int, width_out: int):
        super().__init__(width_in, _check(width_out))


class SIToFP(_FromInt):
    is_signed = True


class UIToFP(_FromInt):
    is_signed = False


class _ToInt(_Cast):
    """fptosi / fptoui: truncated toward zero, saturated, NaN to 0."""

    is_signed: bool   # each op sets it
    expr = "self.op(self.width_in, a, self.width_out, self.is_signed)"
    op = staticmethod(floats.to_int)

    def __init__(self, width_in: int, width_out: int):
        super().__init__(_check(width_in), width_out)


class FPToSI(_ToInt):
    is_signed = True


class FPToUI(_ToInt):
    is_signed = False


class ConvertF(_Cast):
    """extf / truncf: one rounding from one format to the other."""

    expr = "self.op(a, self.width_in, self.width_out)"
    op = staticmethod(floats.convert)

    def __init__(self, width_in: int, width_out: int):
        super().__init__(_check(width_in), _check(width_out))


class Bitcast(_Cast):
    """iN <-> fN of one width: the pattern passes unchanged."""

    expr = "a"

    def __init__(self, width_in: int, width_out: int):
        if width_in != width_out:
            raise ValueError(f"bitcast of {width_in} bits to {width_out} bits")
        super().__init__(width_in, width_out)
