"""handshake.buffer: timing only; in the Kahn model an identity on the token stream."""

from __future__ import annotations

from loom.golden.actor import Actor
from loom.golden.rules import Rule, rule


class Buffer(Actor):
    n_in, n_out = 1, 1

    def __init__(self, slots: int = 1, kind: str = "seq"):
        if slots < 1:
            raise ValueError("a buffer needs at least one slot")
        if kind not in ("seq", "fifo"):
            raise ValueError(f"buffer kind {kind!r} is not seq or fifo")
        self.slots, self.kind = slots, kind

    def rules(self) -> list[Rule]:
        return [rule("in0", "v = pop0()", "push0(v)")]
