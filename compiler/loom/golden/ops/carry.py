"""dataflow.carry: NeedInit / NeedCond / NeedLoop of seed 001.

Emits the initial value, then one carried value per true condition, and
resets on the terminating false.
"""

from __future__ import annotations

from collections.abc import Sequence

from loom.golden.actor import Actor
from loom.golden.channel import Channel
from loom.golden.rules import Rule, rule

NEED_INIT, NEED_COND, NEED_LOOP = "NeedInit", "NeedCond", "NeedLoop"


class Carry(Actor):
    n_in, n_out = 3, 1  # d, a, b -> o
    assigns = ("state",)

    def __init__(self) -> None:
        self.state = NEED_INIT

    def rules(self) -> list[Rule]:
        return [
            rule("self.state == 'NeedInit' and in1",
                 "v = pop1()", "push0(v)", "self.state = 'NeedCond'"),
            rule("self.state == 'NeedCond' and in0",
                 "self.state = 'NeedLoop' if pop0() else 'NeedInit'"),
            rule("self.state == 'NeedLoop' and in2",
                 "v = pop2()", "push0(v)", "self.state = 'NeedCond'"),
        ]

    def idle(self) -> bool:
        return self.state == NEED_INIT

    def phase(self) -> str:
        return self.state

    def waiting_on(self, ins: Sequence[Channel]) -> list[int]:
        wanted = {NEED_INIT: 1, NEED_COND: 0, NEED_LOOP: 2}[self.state]
        return [] if ins[wanted].q else [wanted]
