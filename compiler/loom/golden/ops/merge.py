"""handshake.merge: passes on a token from whichever input has one.

The one nondeterministic op (design.md section 4): the model requires its
inputs to be mutually exclusive and reports a violation instead of choosing.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from loom.golden.actor import Actor
from loom.golden.channel import Channel
from loom.golden.rules import Rule, rule


class MergeConflict(Exception):
    """Two inputs of a merge held tokens at once: the result would be timing dependent."""


class Merge(Actor):
    n_out = 1

    def __init__(self, n: int):
        if n < 1:
            raise ValueError("merge needs at least one input")
        self.n_in = n

    def rules(self) -> list[Rule]:
        queues = [f"in{k}" for k in range(self.n_in)]
        return [self._take(i, queues) for i in range(self.n_in)]

    def _take(self, i: int, queues: list[str]) -> Rule:
        """Input i fires alone; with another input holding a token, a conflict."""
        others = [q for k, q in enumerate(queues) if k != i]
        check = [f"if {' or '.join(others)}:",
                 f"    self.conflict([{', '.join(queues)}])"] if others else []
        return rule(f"in{i}", *check, f"v = pop{i}()", *self.emit(i))

    def emit(self, i: int) -> list[str]:
        """What a firing on input i pushes (its token is v)."""
        return ["push0(v)"]

    def conflict(self, queues: Sequence[Any]) -> None:
        ready = [i for i, q in enumerate(queues) if q]
        raise MergeConflict(f"inputs {ready} hold tokens at the same time")

    def waiting_on(self, ins: Sequence[Channel]) -> list[int]:
        return [] if any(ch.q for ch in ins) else list(range(len(ins)))


class ControlMerge(Merge):
    """handshake.control_merge: a merge that also emits the index it took."""

    n_out = 2

    def emit(self, i: int) -> list[str]:
        return ["push0(v)", f"push1({i})"]
