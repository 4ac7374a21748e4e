"""Periodic mapper snapshots: LOOM's `--mapper-snapshot-interval-rounds` and
`--mapper-snapshot-interval-seconds` (docs/spec-cli.md, spec-mapper-output.md).

The mapper calls `checkpoint(trigger, mapping)` at each of its progress
checkpoints (a routing round, a repair round, a throughput round) with the
best mapping so far. With a round interval n, every n-th checkpoint emits a
snapshot; with a time interval x, the first checkpoint at or after each
multiple of x seconds since the mapper started does (LOOM's rule: time is
read at checkpoints only). A snapshot is that mapping's map.json and
viz.html, named as LOOM names them:

    <out>/mapper-snapshots/<stem>.snapshot-<serial>.<trigger>.mapper-<ordinal>.{map.json,viz.html}

serial and ordinal four digits from 1 (one mapper a run, so the two are
equal; LOOM's parallel lanes share the serial). Neither interval set (both
-1, the default): no snapshot. Both set: refused, as LOOM refuses them.
"""

from __future__ import annotations

import re
import time
from collections.abc import Callable
from dataclasses import dataclass, field

from loom.diagnostics import LoomError

DISABLED = -1
"""LOOM's value of an interval that is off."""
LOOM_FLAGS = ("--mapper-snapshot-interval-rounds", "--mapper-snapshot-interval-seconds")
"""LOOM's spellings of the options, which `loom map` also takes: the lines of a
LOOM case's loom.args that our `loom map` understands."""


@dataclass(frozen=True)
class SnapshotPolicy:
    rounds: int = DISABLED
    """Emit at every `rounds`-th checkpoint (> 0), or never (-1)."""
    seconds: float = DISABLED
    """Emit every `seconds` of mapper time (> 0), or never (-1)."""

    def __post_init__(self) -> None:
        for flag, value in (("--snapshot-interval-rounds", self.rounds),
                            ("--snapshot-interval-seconds", self.seconds)):
            if value != DISABLED and value <= 0:
                raise LoomError(f"{flag} must be -1 (off) or greater than 0, not {value}")
        if self.rounds != DISABLED and self.seconds != DISABLED:
            raise LoomError("--snapshot-interval-seconds and --snapshot-interval-rounds cannot "
                            "both be enabled (LOOM's snapshot_interval_seconds and "
                            "snapshot_interval_rounds)")

    @property
    def enabled(self) -> bool:
        return self.rounds != DISABLED or self.seconds != DISABLED


def label(trigger: str) -> str:
    """A trigger as a file-name part: lowercase, runs of other characters one
    dash, no trailing dash (LOOM's sanitizeSnapshotLabel)."""
    return re.sub(r"[^a-z0-9]+", "-", trigger.lower()).rstrip("-")


def snapshot_stem(stem: str, serial: int, trigger: str, ordinal: int) -> str:
    return f"{stem}.snapshot-{serial:04d}.{label(trigger)}.mapper-{ordinal:04d}"


Emit = Callable[[object, str, int], None]
"""(mapping, trigger, ordinal) -> writes the snapshot."""


@dataclass
class Snapshots:
    """Decides at each checkpoint whether a snapshot is due and emits it."""

    policy: SnapshotPolicy
    emit: Emit
    clock: Callable[[], float] = time.monotonic
    ticks: int = field(init=False, default=0)
    """Checkpoints seen (round intervals)."""
    emitted: int = field(init=False, default=0)
    start: float = field(init=False)
    next_at: float = field(init=False)
    """Seconds from `start` at which the next time-interval snapshot is due."""

    def __post_init__(self) -> None:
        self.start = self.clock()
        self.next_at = self.policy.seconds

    def checkpoint(self, trigger: str, mapping: object) -> None:
        if not self._due():
            return
        self.emitted += 1
        self.emit(mapping, trigger, self.emitted)

    def _due(self) -> bool:
        if self.policy.rounds != DISABLED:
            self.ticks += 1
            return self.ticks % self.policy.rounds == 0
        if self.policy.seconds == DISABLED:
            return False
        elapsed = self.clock() - self.start
        if elapsed + 1e-9 < self.next_at:
            return False
        while elapsed + 1e-9 >= self.next_at:
            self.next_at += self.policy.seconds
        return True


Checkpoint = Callable[[str, object], None]
"""What the mapper calls at each progress checkpoint (trigger, best mapping)."""


def no_checkpoint(trigger: str, mapping: object) -> None:
    """The default: snapshots off."""


def loom_flags(words: list[str]) -> list[str]:
    """The words of a LOOM loom.args file that are LOOM_FLAGS options and their values."""
    return [w for k, w in enumerate(words)
            if w.split("=")[0] in LOOM_FLAGS or (k and words[k - 1] in LOOM_FLAGS)]


__all__ = ["Checkpoint", "DISABLED", "LOOM_FLAGS", "SnapshotPolicy", "Snapshots", "label",
           "loom_flags", "no_checkpoint", "snapshot_stem"]
