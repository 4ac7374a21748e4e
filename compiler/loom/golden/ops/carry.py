"""dataflow.carry: NeedInit / NeedCond / NeedLoop of seed 001.

Emits the initial value, then one carried value per true condition, and
resets on the terminating false.
"""

from __future__ import annotations

from collections.abc import Sequence

from loom.golden.actor import Actor
from loom.golden.channel import Channel

NEED_INIT, NEED_COND, NEED_LOOP = "NeedInit", "NeedCond", "NeedLoop"


class Carry(Actor):
    n_in, n_out = 3, 1  # d, a, b -> o

    def __init__(self) -> None:
        self.state = NEED_INIT

    def fire(self, ins: Sequence[Channel], outs: Sequence[Channel]) -> bool:
        d, a, b = ins
        if self.state is NEED_INIT:
            if not a.q:
                return False
            outs[0].push(a.pop())
            self.state = NEED_COND
        elif self.state is NEED_COND:
            if not d.q:
                return False
            self.state = NEED_LOOP if d.pop() else NEED_INIT
        else:
            if not b.q:
                return False
            outs[0].push(b.pop())
            self.state = NEED_COND
        return True

    def idle(self) -> bool:
        return self.state is NEED_INIT

    def phase(self) -> str:
        return self.state

    def waiting_on(self, ins: Sequence[Channel]) -> list[int]:
        wanted = {NEED_INIT: 1, NEED_COND: 0, NEED_LOOP: 2}[self.state]
        return [] if ins[wanted].q else [wanted]
