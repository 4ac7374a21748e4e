"""handshake.mux: consumes the select, then only the selected data input."""

from __future__ import annotations

from collections.abc import Sequence

from loom.golden.actor import Actor
from loom.golden.channel import Channel
from loom.golden.rules import Rule, rule


class MuxSelectOutOfRange(Exception):
    pass


class Mux(Actor):
    n_out = 1

    def __init__(self, n: int):
        if n < 1:
            raise ValueError("mux needs at least one data input")
        self.n_in = n + 1

    def rules(self) -> list[Rule]:
        """Data input j fires when the select (not taken before) says j."""
        n = self.n_in - 1
        return [*(rule(f"in0 and in0[0] == {j} and in{1 + j}", "pop0()", f"v = pop{1 + j}()",
                       "push0(v)") for j in range(n)),
                rule(f"in0 and not 0 <= in0[0] < {n}", "self.out_of_range(in0[0])")]

    def out_of_range(self, sel: int) -> None:
        raise MuxSelectOutOfRange(f"select {sel} with {self.n_in - 1} data inputs")

    def waiting_on(self, ins: Sequence[Channel]) -> list[int]:
        if not ins[0].q:
            return [0]
        sel = ins[0].q[0]
        return [] if ins[1 + sel].q else [1 + sel]
