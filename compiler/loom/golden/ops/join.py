"""handshake.join: waits for one token on every input, emits one control token."""

from __future__ import annotations

from loom.golden.actor import Actor
from loom.golden.rules import Rule, ready, rule


class Join(Actor):
    n_out = 1

    def __init__(self, n: int):
        if n < 1:
            raise ValueError("join needs at least one input")
        self.n_in = n

    def rules(self) -> list[Rule]:
        return [rule(ready(range(self.n_in)),
                     *(f"pop{i}()" for i in range(self.n_in)), "push0(None)")]
