"""handshake.mux: consumes the select, then only the selected data input."""

from __future__ import annotations

from collections.abc import Sequence

from loom.golden.actor import Actor
from loom.golden.channel import Channel


class MuxSelectOutOfRange(Exception):
    pass


class Mux(Actor):
    n_out = 1

    def __init__(self, n: int):
        if n < 1:
            raise ValueError("mux needs at least one data input")
        self.n_in = n + 1

    def fire(self, ins: Sequence[Channel], outs: Sequence[Channel]) -> bool:
        if not ins[0].q:
            return False
        sel = ins[0].q[0]
        if not 0 <= sel < self.n_in - 1:
            raise MuxSelectOutOfRange(f"select {sel} with {self.n_in - 1} data inputs")
        data = ins[1 + sel]
        if not data.q:
            return False
        ins[0].pop()
        outs[0].push(data.pop())
        return True

    def waiting_on(self, ins: Sequence[Channel]) -> list[int]:
        if not ins[0].q:
            return [0]
        sel = ins[0].q[0]
        return [] if ins[1 + sel].q else [1 + sel]
