"""dataflow.gate: NeedHead / NeedNext alignment of seed 001.

Turns an N + 1 before-region stream pair into an N body stream pair: the
first true emits only the value, interior trues emit (value, true), the
terminating false emits only after_cond = false; a lone false emits nothing.
"""

from __future__ import annotations

from collections.abc import Sequence

from loom.golden.actor import Actor
from loom.golden.channel import Channel


class Gate(Actor):
    n_in, n_out = 2, 2

    def __init__(self) -> None:
        self.need_next = False  # False: NeedHead, True: NeedNext

    def fire(self, ins: Sequence[Channel], outs: Sequence[Channel]) -> bool:
        if not (ins[0].q and ins[1].q):
            return False
        value, cond = ins[0].pop(), ins[1].pop()
        if not self.need_next:
            if cond:
                outs[0].push(value)
                self.need_next = True
        elif cond:
            outs[0].push(value)
            outs[1].push(1)
        else:
            outs[1].push(0)
            self.need_next = False
        return True

    def idle(self) -> bool:
        return not self.need_next

    def phase(self) -> str:
        return "NeedNext" if self.need_next else "NeedHead"
