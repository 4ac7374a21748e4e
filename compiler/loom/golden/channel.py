"""A DFG edge in the golden model: an unbounded FIFO that records its trace.

Token values are unsigned bit patterns of the channel's width (Python ints in
[0, 2**w)); control tokens (`none` / `!handshake.control`) are `None`.
A run that needs no trace folds it now and then into the channel's summary
(loom.stream_summary): memory stays flat in the token count. `q` and `trace`
stay the same objects for the channel's life (emptied, never replaced): a
graph's compiled step function (golden/codegen.py) holds them.
"""

from __future__ import annotations

from collections import deque
from collections.abc import Callable
from typing import Any

from loom.stream_summary import StreamSummary, fold


class Channel:
    __slots__ = ("name", "q", "trace", "summary", "width", "producer", "consumer", "pop")

    def __init__(self, name: str = "", width: int = 0):
        self.name = name
        self.width = width
        self.q: deque[Any] = deque()
        self.trace: list[Any] = []
        #: the tokens folded out of `trace` (the stream's first summary.count)
        self.summary = StreamSummary(0, 0)
        #: the oldest token, consumed: the deque's own popleft, so no Python
        #: frame per token (the golden model pops one per firing input)
        self.pop: Callable[[], Any] = self.q.popleft
        # the Nodes at either end (golden/graph.py); None for graph inputs/outputs
        self.producer: Any = None
        self.consumer: Any = None

    def push(self, value: Any) -> None:
        self.q.append(value)
        self.trace.append(value)

    def fold(self) -> None:
        """Move the trace's tokens into the summary."""
        if self.trace:
            self.summary = fold(self.summary, self.trace)
            self.trace.clear()

    @property
    def count(self) -> int:
        """Tokens pushed so far, folded or not."""
        return self.summary.count + len(self.trace)

    def __len__(self) -> int:
        return len(self.q)

    def __repr__(self) -> str:
        return f"Channel({self.name!r}, {list(self.q)!r})"
