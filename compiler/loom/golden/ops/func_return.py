"""handshake.return: takes one token per result, once per invocation.

Tokens arriving after the invocation's return stay in their channels, so the
quiescence check reports them; `arm` allows the next invocation's return.
"""

from __future__ import annotations

from typing import Any

from loom.golden.actor import Actor
from loom.golden.rules import Rule, ready, rule


class Return(Actor):
    n_out = 0
    assigns = ("values", "done")

    def __init__(self, n: int):
        self.n_in = n
        self.values: list[Any] = []
        self.done = False

    def rules(self) -> list[Rule]:
        values = ", ".join(f"pop{i}()" for i in range(self.n_in))
        return [rule(f"not self.done and {ready(range(self.n_in))}",
                     f"self.values = [{values}]", "self.done = True")]

    def arm(self) -> None:
        """Allow one more return (the next invocation)."""
        self.done = False
