"""Progress of long work (golden firings, simulated cycles) on one status line.

On a terminal the line is redrawn in place a few times a second and erased
when the work ends. Elsewhere (CI logs, pipes) nothing is printed unless
asked for (`--progress`); then a plain line every few seconds. The text of
each update comes from the caller; this module only decides when and how it
is shown.
"""

from __future__ import annotations

import sys
import time
from collections.abc import Callable
from typing import TextIO

Tick = Callable[[str], None]
"""What long work calls with its status text (Progress.update, or `quiet`)."""

TTY_INTERVAL = 0.2      # seconds between redraws on a terminal
LOG_INTERVAL = 5.0      # seconds between lines in a log (--progress)


class Progress:
    def __init__(self, stream: TextIO | None = None, enabled: bool | None = None,
                 interval: float | None = None, clock: Callable[[], float] = time.monotonic):
        """`enabled` None: on when `stream` is a terminal."""
        self.stream = stream or sys.stderr
        self.tty = self.stream.isatty()
        self.enabled = self.tty if enabled is None else enabled
        self.interval = interval if interval is not None else \
            TTY_INTERVAL if self.tty else LOG_INTERVAL
        self.clock = clock
        self._last = clock()
        self._width = 0         # of the line drawn in place, to erase it

    def due(self) -> bool:
        """True when an update would be shown now (callers skip building the text otherwise)."""
        return self.enabled and self.clock() - self._last >= self.interval

    def update(self, text: str) -> None:
        if not self.due():
            return
        self._last = self.clock()
        if self.tty:
            pad = max(0, self._width - len(text))
            self.stream.write("\r" + text + " " * pad)
            self._width = len(text)
        else:
            self.stream.write(text + "\n")
        self.stream.flush()

    def clear(self) -> None:
        """Erase the status line (the work it described is over)."""
        if self.tty and self._width:
            self.stream.write("\r" + " " * self._width + "\r")
            self.stream.flush()
        self._width = 0


def quiet(text: str) -> None:
    """A Tick that shows nothing."""


def count(n: float) -> str:
    """A count in a few characters: 950, 12.3k, 4.1M."""
    for div, unit in ((1e9, "G"), (1e6, "M"), (1e3, "k")):
        if n >= div:
            return f"{n / div:.1f}{unit}"
    return f"{n:.0f}"


def remaining(done: float, total: float, elapsed: float) -> str:
    """'about 35 s left' from the fraction done so far ('' before anything is done)."""
    if done <= 0 or total <= done:
        return ""
    left = elapsed * (total - done) / done
    return f", about {left:.0f} s left" if left < 120 else f", about {left / 60:.0f} min left"
