"""handshake.return: takes one token per result, once per invocation.

Tokens arriving after the invocation's return stay in their channels, so the
quiescence check reports them; `arm` allows the next invocation's return.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from loom.golden.actor import Actor
from loom.golden.channel import Channel


class Return(Actor):
    n_out = 0

    def __init__(self, n: int):
        self.n_in = n
        self.values: list[Any] = []
        self.done = False

    def fire(self, ins: Sequence[Channel], outs: Sequence[Channel]) -> bool:
        if self.done:
            return False
        for ch in ins:
            if not ch.q:
                return False
        self.values = [ch.pop() for ch in ins]
        self.done = True
        return True

    def arm(self) -> None:
        """Allow one more return (the next invocation)."""
        self.done = False
