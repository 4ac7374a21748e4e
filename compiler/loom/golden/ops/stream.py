"""dataflow.stream: the two-phase index generator of seed 001.

Phase A (activation) latches start, step and bound; phase B emits one
(idx, cont) pair per firing with cont = (next_idx cont_cond bound), and on a
false cont returns to phase A. A loop of N iterations gives N + 1 pairs.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

from loom.golden.actor import Actor
from loom.golden.channel import Channel
from loom.golden.values import INDEX_WIDTH, signed, wrap

STEP_OPS = ("+=", "-=", "*=", "/=", "<<=", ">>=")
CONT_CONDS = ("<", "<=", ">", ">=", "!=")

# Index arithmetic is signed (MLIR index/integer loop bounds are signed).
_STEP: dict[str, Callable[[int, int], int]] = {
    "+=": lambda x, s: x + s,
    "-=": lambda x, s: x - s,
    "*=": lambda x, s: x * s,
    "/=": lambda x, s: 0 if s == 0 else abs(x) // abs(s) * (1 if (x < 0) == (s < 0) else -1),
    "<<=": lambda x, s: x << s if 0 <= s < 128 else 0,
    ">>=": lambda x, s: x >> s if s >= 0 else x,
}
_COND: dict[str, Callable[[int, int], bool]] = {
    "<": lambda x, b: x < b,
    "<=": lambda x, b: x <= b,
    ">": lambda x, b: x > b,
    ">=": lambda x, b: x >= b,
    "!=": lambda x, b: x != b,
}


class Stream(Actor):
    n_in, n_out = 3, 2

    def __init__(self, step_op: str, cont_cond: str, width: int = INDEX_WIDTH):
        if step_op not in STEP_OPS:
            raise ValueError(f"step_op {step_op!r} is not one of {' '.join(STEP_OPS)}")
        if cont_cond not in CONT_CONDS:
            raise ValueError(f"cont_cond {cont_cond!r} is not one of {' '.join(CONT_CONDS)}")
        self.step_op, self.cont_cond, self.width = step_op, cont_cond, width
        self._step = _STEP[step_op]
        self._cond = _COND[cont_cond]
        self.active = False
        self.next_idx = self.step = self.bound = 0

    def fire(self, ins: Sequence[Channel], outs: Sequence[Channel]) -> bool:
        w = self.width
        if not self.active:  # phase A: activation
            if not (ins[0].q and ins[1].q and ins[2].q):
                return False
            self.next_idx = signed(ins[0].pop(), w)
            self.step = signed(ins[1].pop(), w)
            self.bound = signed(ins[2].pop(), w)
            self.active = True
        # phase B: one (idx, cont) pair
        cont = self._cond(self.next_idx, self.bound)
        outs[0].push(wrap(self.next_idx, w))
        outs[1].push(int(cont))
        if cont:
            self.next_idx = signed(wrap(self._step(self.next_idx, self.step), w), w)
        else:
            self.active = False
        return True

    def idle(self) -> bool:
        return not self.active

    def phase(self) -> str:
        return "B(emit)" if self.active else "A(activation)"

    def waiting_on(self, ins: Sequence[Channel]) -> list[int]:
        return [] if self.active else super().waiting_on(ins)
