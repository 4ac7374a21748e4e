"""handshake.fork / lazy_fork: one token in, one copy on every output.

In the Kahn model eager and lazy forks are the same actor; they differ only
in hardware timing.
"""

from __future__ import annotations

from collections.abc import Sequence

from loom.golden.actor import Actor
from loom.golden.channel import Channel


class Fork(Actor):
    n_in = 1

    def __init__(self, n: int):
        if n < 1:
            raise ValueError("fork needs at least one output")
        self.n_out = n

    def fire(self, ins: Sequence[Channel], outs: Sequence[Channel]) -> bool:
        if not ins[0].q:
            return False
        value = ins[0].pop()
        for out in outs:
            out.push(value)
        return True


class LazyFork(Fork):
    pass
