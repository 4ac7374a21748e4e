"""handshake.join: waits for one token on every input, emits one control token."""

from __future__ import annotations

from collections.abc import Sequence

from loom.golden.actor import Actor
from loom.golden.channel import Channel


class Join(Actor):
    n_out = 1

    def __init__(self, n: int):
        if n < 1:
            raise ValueError("join needs at least one input")
        self.n_in = n

    def fire(self, ins: Sequence[Channel], outs: Sequence[Channel]) -> bool:
        for ch in ins:
            if not ch.q:
                return False
        for ch in ins:
            ch.pop()
        outs[0].push(None)
        return True
