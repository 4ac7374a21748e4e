"""handshake.fork / lazy_fork: one token in, one copy on every output.

In the Kahn model eager and lazy forks are the same actor; they differ only
in hardware timing.
"""

from __future__ import annotations

from loom.golden.actor import Actor
from loom.golden.rules import Rule, rule


class Fork(Actor):
    n_in = 1

    def __init__(self, n: int):
        if n < 1:
            raise ValueError("fork needs at least one output")
        self.n_out = n

    def rules(self) -> list[Rule]:
        return [rule("in0", "v = pop0()", *(f"push{j}(v)" for j in range(self.n_out)))]


class LazyFork(Fork):
    pass
