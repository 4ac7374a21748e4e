"""handshake.constant (one value per control token), source and sink."""

from __future__ import annotations

from collections.abc import Sequence

from loom.golden.actor import Actor
from loom.golden.channel import Channel


class Constant(Actor):
    n_in, n_out = 1, 1

    def __init__(self, value: int):
        self.value = value

    def fire(self, ins: Sequence[Channel], outs: Sequence[Channel]) -> bool:
        if not ins[0].q:
            return False
        ins[0].pop()
        outs[0].push(self.value)
        return True


class Source(Actor):
    """An endless supply of control tokens, offered one at a time.

    It refills its output only when that channel is empty, so the model stays
    finite; the scheduler ignores a source's pending token at quiescence.
    """

    n_in, n_out = 0, 1

    def fire(self, ins: Sequence[Channel], outs: Sequence[Channel]) -> bool:
        if outs[0].q:
            return False
        outs[0].push(None)
        return True


class Sink(Actor):
    n_in, n_out = 1, 0

    def fire(self, ins: Sequence[Channel], outs: Sequence[Channel]) -> bool:
        if not ins[0].q:
            return False
        ins[0].pop()
        return True
