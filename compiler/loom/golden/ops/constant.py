"""handshake.constant (one value per control token), source and sink."""

from __future__ import annotations

from loom.golden.actor import Actor
from loom.golden.rules import Rule, rule


class Constant(Actor):
    n_in, n_out = 1, 1

    def __init__(self, value: int):
        self.value = value

    def rules(self) -> list[Rule]:
        return [rule("in0", "pop0()", "push0(self.value)")]


class Source(Actor):
    """An endless supply of control tokens, offered one at a time.

    It refills its output only when that channel is empty, so the model stays
    finite; the scheduler ignores a source's pending token at quiescence.
    """

    n_in, n_out = 0, 1

    def rules(self) -> list[Rule]:
        return [rule("not out0", "push0(None)")]


class Sink(Actor):
    n_in, n_out = 1, 0

    def rules(self) -> list[Rule]:
        return [rule("in0", "pop0()")]
