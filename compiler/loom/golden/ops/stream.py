"""dataflow.stream: the two-phase index generator of seed 001.

Phase A (activation) latches start, step and bound; phase B emits one
(idx, cont) pair per firing with cont = (next_idx cont_cond bound), and on a
false cont returns to phase A. A loop of N iterations gives N + 1 pairs.
"""

from __future__ import annotations

from collections.abc import Sequence

from loom.golden.actor import Actor
from loom.golden.channel import Channel
from loom.golden.rules import Rule, ready, rule
from loom.golden.values import INDEX_WIDTH

STEP_OPS = ("+=", "-=", "*=", "/=", "<<=", ">>=")
CONT_CONDS = ("<", "<=", ">", ">=", "!=")

# Index arithmetic is signed (MLIR index/integer loop bounds are signed):
# the next index from x and the step s, and the continue test of x and the bound b.
_STEP: dict[str, str] = {
    "+=": "x + s",
    "-=": "x - s",
    "*=": "x * s",
    "/=": "(0 if s == 0 else abs(x) // abs(s) * (1 if (x < 0) == (s < 0) else -1))",
    "<<=": "(x << s if 0 <= s < 128 else 0)",
    ">>=": "(x >> s if s >= 0 else x)",
}
_COND: dict[str, str] = {c: f"x {c} b" for c in CONT_CONDS}


class Stream(Actor):
    n_in, n_out = 3, 2
    assigns = ("active", "next_idx", "step", "bound")

    def __init__(self, step_op: str, cont_cond: str, width: int = INDEX_WIDTH):
        if step_op not in STEP_OPS:
            raise ValueError(f"step_op {step_op!r} is not one of {' '.join(STEP_OPS)}")
        if cont_cond not in CONT_CONDS:
            raise ValueError(f"cont_cond {cont_cond!r} is not one of {' '.join(CONT_CONDS)}")
        self.step_op, self.cont_cond, self.width = step_op, cont_cond, width
        self.mask = (1 << width) - 1
        self.sign = 1 << (width - 1)
        self.active = False
        self.next_idx = self.step = self.bound = 0

    def rules(self) -> list[Rule]:
        # a w-bit pattern's signed reading: xor with the sign bit, minus it
        signed = "(pop{}() ^ self.sign) - self.sign".format
        activate = ["self.next_idx = " + signed(0), "self.step = " + signed(1),
                    "self.bound = " + signed(2), "self.active = True"]
        emit = ["x, s, b = self.next_idx, self.step, self.bound",
                "push0(x & self.mask)",
                f"if {_COND[self.cont_cond]}:",
                "    push1(1)",
                f"    self.next_idx = ((({_STEP[self.step_op]}) & self.mask) ^ self.sign) - self.sign",
                "else:",
                "    push1(0)",
                "    self.active = False"]
        return [rule(f"not self.active and {ready([0, 1, 2])}", *activate, *emit),  # phase A
                rule("self.active", *emit)]                                          # phase B
    def idle(self) -> bool:
        return not self.active

    def phase(self) -> str:
        return "B(emit)" if self.active else "A(activation)"

    def waiting_on(self, ins: Sequence[Channel]) -> list[int]:
        return [] if self.active else super().waiting_on(ins)
