"""dataflow.invariant: NeedInit / NeedCond of seed 001.

Stores its seed, emits it once, replays it per true condition and resets on
the terminating false (which emits nothing).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from loom.golden.actor import Actor
from loom.golden.channel import Channel
from loom.golden.rules import Rule, rule


class Invariant(Actor):
    n_in, n_out = 2, 1  # d, a -> o
    assigns = ("need_cond", "stored")

    def __init__(self) -> None:
        self.need_cond = False
        self.stored: Any = None

    def rules(self) -> list[Rule]:
        return [
            rule("not self.need_cond and in1",
                 "self.stored = pop1()", "push0(self.stored)", "self.need_cond = True"),
            rule("self.need_cond and in0",
                 "if pop0():", "    push0(self.stored)", "else:", "    self.need_cond = False"),
        ]

    def idle(self) -> bool:
        return not self.need_cond

    def phase(self) -> str:
        return "NeedCond" if self.need_cond else "NeedInit"

    def waiting_on(self, ins: Sequence[Channel]) -> list[int]:
        wanted = 0 if self.need_cond else 1
        return [] if ins[wanted].q else [wanted]
