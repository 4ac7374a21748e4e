"""handshake.sync: waits for one token on every input, passes all of them on."""

from __future__ import annotations

from collections.abc import Sequence

from loom.golden.actor import Actor
from loom.golden.channel import Channel


class Sync(Actor):
    def __init__(self, n: int):
        if n < 1:
            raise ValueError("sync needs at least one input")
        self.n_in = self.n_out = n

    def fire(self, ins: Sequence[Channel], outs: Sequence[Channel]) -> bool:
        for ch in ins:
            if not ch.q:
                return False
        for src, dst in zip(ins, outs):
            dst.push(src.pop())
        return True
