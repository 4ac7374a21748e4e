"""Live progress of a running simulation, read from the position file it writes.

Every few thousand cycles the top's LOOM_SIM block rewrites progress.txt in
place with "<cycle> <tokens>" (templates/kernel_top.sv.j2). The golden run
fixed how many tokens the run carries, so the fraction done gives an
estimate of the time left. A thread polls the file while the simulator
runs; Python stays out of the simulation loop.
"""

from __future__ import annotations

import threading
import time
from pathlib import Path

from loom.progress import Progress, count, remaining


def sim_position(path: Path) -> tuple[int, int]:
    """(tokens so far, cycle) from the position file; (0, 0) before its first write."""
    try:
        fields = path.read_text().split()
    except FileNotFoundError:
        return 0, 0
    if len(fields) < 2 or not all(f.isdigit() for f in fields[:2]):
        return 0, 0             # caught between the simulator's seek and write
    return int(fields[1]), int(fields[0])


def status_line(tokens: int, cycle: int, expected: int, elapsed: float) -> str:
    if tokens == 0:
        return f"simulate: starting, {count(expected)} tokens to come"
    pct = f" ({100 * tokens / expected:.0f}%)" if expected else ""
    return (f"simulate: cycle {count(cycle)}, {count(tokens)} of {count(expected)} "
            f"tokens{pct}{remaining(tokens, expected, elapsed)}")


class SimWatch:
    """`with SimWatch(...)`: report the simulation's progress until the block ends."""

    def __init__(self, path: Path, expected_tokens: int, progress: Progress,
                 poll: float = 0.2):
        self.path, self.expected, self.progress, self.poll = path, expected_tokens, progress, poll
        self._stop = threading.Event()
        self._thread = threading.Thread(target=self._watch, daemon=True)
        self._start = time.monotonic()

    def _watch(self) -> None:
        while not self._stop.wait(self.poll):
            if self.progress.due():
                tokens, cycle = sim_position(self.path)
                self.progress.update(status_line(tokens, cycle, self.expected,
                                                 time.monotonic() - self._start))

    def __enter__(self) -> "SimWatch":
        if self.progress.enabled:
            self._thread.start()
        return self

    def __exit__(self, *exc: object) -> None:
        self._stop.set()
        if self._thread.is_alive():
            self._thread.join()
        self.progress.clear()
