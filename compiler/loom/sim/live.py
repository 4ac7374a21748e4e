"""Live progress of a running simulation, read from the trace it writes.

The simulator appends one 16-byte record per transfer to trace.bin
(loom.sim.compare.RECORD); the file's size counts the tokens so far and its
last record holds the latest cycle. The golden run fixed how many tokens
the run carries, so the fraction done gives an estimate of the time left.
A thread polls the file while the simulator runs; nothing in the simulator
changes.
"""

from __future__ import annotations

import threading
import time
from pathlib import Path

from loom.progress import Progress, count, remaining
from loom.sim.compare import RECORD


def trace_position(path: Path) -> tuple[int, int]:
    """(tokens written so far, cycle of the last complete record)."""
    try:
        with open(path, "rb") as f:
            size = f.seek(0, 2)
            whole = size - size % RECORD.size
            if whole == 0:
                return 0, 0
            f.seek(whole - RECORD.size)
            cycle = RECORD.unpack(f.read(RECORD.size))[0]
            return whole // RECORD.size, cycle
    except FileNotFoundError:
        return 0, 0


def status_line(tokens: int, cycle: int, expected: int, elapsed: float) -> str:
    if tokens == 0:
        return f"simulate: starting, {count(expected)} tokens to come"
    pct = f" ({100 * tokens / expected:.0f}%)" if expected else ""
    return (f"simulate: cycle {count(cycle)}, {count(tokens)} of {count(expected)} "
            f"tokens{pct}{remaining(tokens, expected, elapsed)}")


class TraceWatch:
    """`with TraceWatch(...)`: report the trace's progress until the block ends."""

    def __init__(self, path: Path, expected_tokens: int, progress: Progress,
                 poll: float = 0.2):
        self.path, self.expected, self.progress, self.poll = path, expected_tokens, progress, poll
        self._stop = threading.Event()
        self._thread = threading.Thread(target=self._watch, daemon=True)
        self._start = time.monotonic()

    def _watch(self) -> None:
        while not self._stop.wait(self.poll):
            if self.progress.due():
                tokens, cycle = trace_position(self.path)
                self.progress.update(status_line(tokens, cycle, self.expected,
                                                 time.monotonic() - self._start))

    def __enter__(self) -> "TraceWatch":
        if self.progress.enabled:
            self._thread.start()
        return self

    def __exit__(self, *exc: object) -> None:
        self._stop.set()
        if self._thread.is_alive():
            self._thread.join()
        self.progress.clear()
