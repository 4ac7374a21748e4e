"""handshake.buffer: timing only; in the Kahn model an identity on the token stream."""

from __future__ import annotations

from collections.abc import Sequence

from loom.golden.actor import Actor
from loom.golden.channel import Channel


class Buffer(Actor):
    n_in, n_out = 1, 1

    def __init__(self, slots: int = 1, kind: str = "seq"):
        if slots < 1:
            raise ValueError("a buffer needs at least one slot")
        if kind not in ("seq", "fifo"):
            raise ValueError(f"buffer kind {kind!r} is not seq or fifo")
        self.slots, self.kind = slots, kind

    def fire(self, ins: Sequence[Channel], outs: Sequence[Channel]) -> bool:
        if not ins[0].q:
            return False
        outs[0].push(ins[0].pop())
        return True
