"""The integer `arith` ops on w-bit unsigned patterns, with exact wrap-around.

Every op has join semantics: it fires when all operands hold a token.
Corner cases MLIR leaves undefined are fixed here, and the RTL matches them:
division by zero gives all ones (divui, divsi) and the dividend (remui,
remsi); divsi INT_MIN / -1 gives INT_MIN and remsi 0; a shift by >= w gives 0
(shli, shrui) or the sign bit everywhere (shrsi).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

from loom.golden.actor import Actor
from loom.golden.channel import Channel
from loom.golden.values import signed


class _Join(Actor):
    """An n-operand, one-result function fired with join semantics."""

    n_out = 1

    def compute(self, *args: int) -> int:
        raise NotImplementedError

    def fire(self, ins: Sequence[Channel], outs: Sequence[Channel]) -> bool:
        for ch in ins:
            if not ch.q:
                return False
        outs[0].push(self.compute(*[ch.pop() for ch in ins]))
        return True


class _Binary(_Join):
    n_in = 2

    def __init__(self, width: int):
        if width < 1:
            raise ValueError("integer width must be at least 1")
        self.width = width
        self.mask = (1 << width) - 1

    def fire(self, ins: Sequence[Channel], outs: Sequence[Channel]) -> bool:
        a, b = ins   # _Join.fire for two operands, without its list (runs per token)
        if not (a.q and b.q):
            return False
        outs[0].push(self.compute(a.pop(), b.pop()))
        return True


def _s(v: int, w: int) -> int:
    return signed(v, w)


def _trunc_div(a: int, b: int) -> int:
    q = abs(a) // abs(b)
    return q if (a < 0) == (b < 0) else -q


class AddI(_Binary):
    def compute(self, a: int, b: int) -> int:
        return (a + b) & self.mask


class SubI(_Binary):
    def compute(self, a: int, b: int) -> int:
        return (a - b) & self.mask


class MulI(_Binary):
    def compute(self, a: int, b: int) -> int:
        return (a * b) & self.mask


class DivUI(_Binary):
    def compute(self, a: int, b: int) -> int:
        return self.mask if b == 0 else a // b


class DivSI(_Binary):
    def compute(self, a: int, b: int) -> int:
        if b == 0:
            return self.mask
        return _trunc_div(_s(a, self.width), _s(b, self.width)) & self.mask


class RemUI(_Binary):
    def compute(self, a: int, b: int) -> int:
        return a if b == 0 else a % b


class RemSI(_Binary):
    def compute(self, a: int, b: int) -> int:
        if b == 0:
            return a
        sa, sb = _s(a, self.width), _s(b, self.width)
        return (sa - _trunc_div(sa, sb) * sb) & self.mask


class AndI(_Binary):
    def compute(self, a: int, b: int) -> int:
        return a & b


class OrI(_Binary):
    def compute(self, a: int, b: int) -> int:
        return a | b


class XOrI(_Binary):
    def compute(self, a: int, b: int) -> int:
        return a ^ b


class ShLI(_Binary):
    def compute(self, a: int, b: int) -> int:
        return 0 if b >= self.width else (a << b) & self.mask


class ShRUI(_Binary):
    def compute(self, a: int, b: int) -> int:
        return 0 if b >= self.width else a >> b


class ShRSI(_Binary):
    def compute(self, a: int, b: int) -> int:
        return (_s(a, self.width) >> min(b, self.width)) & self.mask


class MinSI(_Binary):
    def compute(self, a: int, b: int) -> int:
        return a if _s(a, self.width) <= _s(b, self.width) else b


class MaxSI(_Binary):
    def compute(self, a: int, b: int) -> int:
        return a if _s(a, self.width) >= _s(b, self.width) else b


class MinUI(_Binary):
    def compute(self, a: int, b: int) -> int:
        return min(a, b)


class MaxUI(_Binary):
    def compute(self, a: int, b: int) -> int:
        return max(a, b)


_PREDICATES: dict[str, Callable[[int, int, int], bool]] = {
    "eq": lambda a, b, w: a == b,
    "ne": lambda a, b, w: a != b,
    "slt": lambda a, b, w: _s(a, w) < _s(b, w),
    "sle": lambda a, b, w: _s(a, w) <= _s(b, w),
    "sgt": lambda a, b, w: _s(a, w) > _s(b, w),
    "sge": lambda a, b, w: _s(a, w) >= _s(b, w),
    "ult": lambda a, b, w: a < b,
    "ule": lambda a, b, w: a <= b,
    "ugt": lambda a, b, w: a > b,
    "uge": lambda a, b, w: a >= b,
}
#: MLIR's arith.cmpi predicate numbering
PREDICATE_NAMES = ("eq", "ne", "slt", "sle", "sgt", "sge", "ult", "ule", "ugt", "uge")


class CmpI(_Binary):
    def __init__(self, predicate: str, width: int):
        super().__init__(width)
        if predicate not in _PREDICATES:
            raise ValueError(f"cmpi predicate {predicate!r} is not one of {' '.join(PREDICATE_NAMES)}")
        self.predicate = predicate
        self._test = _PREDICATES[predicate]

    def compute(self, a: int, b: int) -> int:
        return int(self._test(a, b, self.width))


class Select(_Join):
    n_in = 3  # cond, true value, false value

    def __init__(self, width: int):
        self.width = width

    def compute(self, c: int, t: int, f: int) -> int:
        return t if c else f


class _Cast(_Join):
    n_in = 1

    def __init__(self, width_in: int, width_out: int):
        self.width_in, self.width_out = width_in, width_out
        self.mask = (1 << width_out) - 1


class ExtSI(_Cast):
    def compute(self, a: int) -> int:
        return _s(a, self.width_in) & self.mask


class ExtUI(_Cast):
    def compute(self, a: int) -> int:
        return a


class TruncI(_Cast):
    def compute(self, a: int) -> int:
        return a & self.mask


class IndexCast(_Cast):
    """arith.index_cast: sign-extends when widening, truncates when narrowing."""

    def compute(self, a: int) -> int:
        return _s(a, self.width_in) & self.mask


class IndexCastUI(_Cast):
    def compute(self, a: int) -> int:
        return a & self.mask
