"""The integer `arith` ops on w-bit unsigned patterns, with exact wrap-around.

Every op has join semantics: it fires when all operands hold a token.
Corner cases MLIR leaves undefined are fixed here, and the RTL matches them:
division by zero gives all ones (divui, divsi) and the dividend (remui,
remsi); divsi INT_MIN / -1 gives INT_MIN and remsi 0; a shift by >= w gives 0
(shli, shrui) or the sign bit everywhere (shrsi).

Each op states its result as a Python expression of its operands (`expr`,
see golden/rules.py); the rare, longer ones call their `compute`. Signed
comparisons xor both patterns with the sign bit, which orders w-bit patterns
as their two's-complement readings.
"""

from __future__ import annotations

from loom.golden.actor import Actor
from loom.golden.rules import Rule, ready, rule
from loom.golden.values import signed


def _sign_bit(width: int) -> int:
    return 1 << (width - 1) if width else 0


class _Join(Actor):
    """An n-operand, one-result function fired with join semantics."""

    n_out = 1
    #: the operands' names in `expr`, and the result as an expression of them
    args: tuple[str, ...] = ()
    expr = ""

    def rules(self) -> list[Rule]:
        pops = [f"{a} = pop{i}()" for i, a in enumerate(self.args)]
        return [rule(ready(range(self.n_in)), *pops, f"push0({self.expr})")]


class _Binary(_Join):
    n_in = 2
    args = ("a", "b")
    expr = "self.compute(a, b)"

    def __init__(self, width: int):
        if width < 1:
            raise ValueError("integer width must be at least 1")
        self.width = width
        self.mask = (1 << width) - 1
        self.sign = _sign_bit(width)

    def compute(self, a: int, b: int) -> int:
        raise NotImplementedError


def _s(v: int, w: int) -> int:
    return signed(v, w)


def _trunc_div(a: int, b: int) -> int:
    q = abs(a) // abs(b)
    return q if (a < 0) == (b < 0) else -q


class AddI(_Binary):
    expr = "(a + b) & self.mask"


class SubI(_Binary):
    expr = "(a - b) & self.mask"


class MulI(_Binary):
    expr = "(a * b) & self.mask"


class DivUI(_Binary):
    expr = "self.mask if b == 0 else a // b"


class DivSI(_Binary):
    def compute(self, a: int, b: int) -> int:
        if b == 0:
            return self.mask
        return _trunc_div(_s(a, self.width), _s(b, self.width)) & self.mask


class RemUI(_Binary):
    expr = "a if b == 0 else a % b"


class RemSI(_Binary):
    def compute(self, a: int, b: int) -> int:
        if b == 0:
            return a
        sa, sb = _s(a, self.width), _s(b, self.width)
        return (sa - _trunc_div(sa, sb) * sb) & self.mask


class AndI(_Binary):
    expr = "a & b"


class OrI(_Binary):
    expr = "a | b"


class XOrI(_Binary):
    expr = "a ^ b"


class ShLI(_Binary):
    expr = "0 if b >= self.width else (a << b) & self.mask"


class ShRUI(_Binary):
    expr = "0 if b >= self.width else a >> b"


class ShRSI(_Binary):
    def compute(self, a: int, b: int) -> int:
        return (_s(a, self.width) >> min(b, self.width)) & self.mask


class MinSI(_Binary):
    expr = "a if a ^ self.sign <= b ^ self.sign else b"


class MaxSI(_Binary):
    expr = "a if a ^ self.sign >= b ^ self.sign else b"


class MinUI(_Binary):
    expr = "a if a <= b else b"


class MaxUI(_Binary):
    expr = "a if a >= b else b"


#: each predicate as a test of the operand patterns a and b
_TESTS: dict[str, str] = {
    "eq": "a == b",
    "ne": "a != b",
    "slt": "a ^ self.sign < b ^ self.sign",
    "sle": "a ^ self.sign <= b ^ self.sign",
    "sgt": "a ^ self.sign > b ^ self.sign",
    "sge": "a ^ self.sign >= b ^ self.sign",
    "ult": "a < b",
    "ule": "a <= b",
    "ugt": "a > b",
    "uge": "a >= b",
}
#: MLIR's arith.cmpi predicate numbering
PREDICATE_NAMES = ("eq", "ne", "slt", "sle", "sgt", "sge", "ult", "ule", "ugt", "uge")


class CmpI(_Binary):
    def __init__(self, predicate: str, width: int):
        super().__init__(width)
        if predicate not in _TESTS:
            raise ValueError(f"cmpi predicate {predicate!r} is not one of {' '.join(PREDICATE_NAMES)}")
        self.predicate = predicate
        self.expr = f"1 if {_TESTS[predicate]} else 0"


class Select(_Join):
    n_in = 3  # cond, true value, false value
    args = ("c", "t", "f")
    expr = "t if c else f"

    def __init__(self, width: int):
        self.width = width


class _Cast(_Join):
    n_in = 1
    args = ("a",)

    def __init__(self, width_in: int, width_out: int):
        self.width_in, self.width_out = width_in, width_out
        self.mask = (1 << width_out) - 1
        self.sign_in = _sign_bit(width_in)


#: a width_in-bit pattern sign-extended (its signed reading), then wrapped
_SEXT = "((a ^ self.sign_in) - self.sign_in) & self.mask"


class ExtSI(_Cast):
    expr = _SEXT


class ExtUI(_Cast):
    expr = "a"


class TruncI(_Cast):
    expr = "a & self.mask"


class IndexCast(_Cast):
    """arith.index_cast: sign-extends when widening, truncates when narrowing."""

    expr = _SEXT


class IndexCastUI(_Cast):
    expr = "a & self.mask"
