"""handshake.merge: passes on a token from whichever input has one.

The one nondeterministic op (design.md section 4): the model requires its
inputs to be mutually exclusive and reports a violation instead of choosing.
"""

from __future__ import annotations

from collections.abc import Sequence

from loom.golden.actor import Actor
from loom.golden.channel import Channel


class MergeConflict(Exception):
    """Two inputs of a merge held tokens at once: the result would be timing dependent."""


def _pick(ins: Sequence[Channel]) -> int | None:
    ready = [i for i, ch in enumerate(ins) if ch.q]
    if len(ready) > 1:
        raise MergeConflict(f"inputs {ready} hold tokens at the same time")
    return ready[0] if ready else None


class Merge(Actor):
    n_out = 1

    def __init__(self, n: int):
        if n < 1:
            raise ValueError("merge needs at least one input")
        self.n_in = n

    def fire(self, ins: Sequence[Channel], outs: Sequence[Channel]) -> bool:
        i = _pick(ins)
        if i is None:
            return False
        outs[0].push(ins[i].pop())
        return True

    def waiting_on(self, ins: Sequence[Channel]) -> list[int]:
        return [] if any(ch.q for ch in ins) else list(range(len(ins)))


class ControlMerge(Merge):
    """handshake.control_merge: a merge that also emits the index it took."""

    n_out = 2

    def fire(self, ins: Sequence[Channel], outs: Sequence[Channel]) -> bool:
        i = _pick(ins)
        if i is None:
            return False
        outs[0].push(ins[i].pop())
        outs[1].push(i)
        return True
