"""handshake.cond_br: routes the data token to the true or the false output."""

from __future__ import annotations

from collections.abc import Sequence

from loom.golden.actor import Actor
from loom.golden.channel import Channel


class CondBr(Actor):
    n_in, n_out = 2, 2  # cond, data -> true, false

    def fire(self, ins: Sequence[Channel], outs: Sequence[Channel]) -> bool:
        if not (ins[0].q and ins[1].q):
            return False
        cond = ins[0].pop()
        outs[0 if cond else 1].push(ins[1].pop())
        return True
