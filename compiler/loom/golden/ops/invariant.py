"""dataflow.invariant: NeedInit / NeedCond of seed 001.

Stores its seed, emits it once, replays it per true condition and resets on
the terminating false (which emits nothing).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from loom.golden.actor import Actor
from loom.golden.channel import Channel


class Invariant(Actor):
    n_in, n_out = 2, 1  # d, a -> o

    def __init__(self) -> None:
        self.need_cond = False
        self.stored: Any = None

    def fire(self, ins: Sequence[Channel], outs: Sequence[Channel]) -> bool:
        d, a = ins
        if not self.need_cond:
            if not a.q:
                return False
            self.stored = a.pop()
            outs[0].push(self.stored)
            self.need_cond = True
        else:
            if not d.q:
                return False
            if d.pop():
                outs[0].push(self.stored)
            else:
                self.need_cond = False
        return True

    def idle(self) -> bool:
        return not self.need_cond

    def phase(self) -> str:
        return "NeedCond" if self.need_cond else "NeedInit"

    def waiting_on(self, ins: Sequence[Channel]) -> list[int]:
        wanted = 0 if self.need_cond else 1
        return [] if ins[wanted].q else [wanted]
