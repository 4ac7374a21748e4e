"""handshake.sync: waits for one token on every input, passes all of them on."""

from __future__ import annotations

from loom.golden.actor import Actor
from loom.golden.rules import Rule, ready, rule


class Sync(Actor):
    def __init__(self, n: int):
        if n < 1:
            raise ValueError("sync needs at least one input")
        self.n_in = self.n_out = n

    def rules(self) -> list[Rule]:
        return [rule(ready(range(self.n_in)),
                     *(line for i in range(self.n_in) for line in (f"v = pop{i}()", f"push{i}(v)")))]
