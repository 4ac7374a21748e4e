"""A DFG edge in the golden model: an unbounded FIFO that records its trace.

Token values are unsigned bit patterns of the channel's width (Python ints in
[0, 2**w)); control tokens (`none` / `!handshake.control`) are `None`.
"""

from __future__ import annotations

from collections import deque
from collections.abc import Callable
from typing import Any


class Channel:
    __slots__ = ("name", "q", "trace", "width", "producer", "consumer", "pop")

    def __init__(self, name: str = "", width: int = 0):
        self.name = name
        self.width = width
        self.q: deque[Any] = deque()
        self.trace: list[Any] = []
        #: the oldest token, consumed: the deque's own popleft, so no Python
        #: frame per token (the golden model pops one per firing input)
        self.pop: Callable[[], Any] = self.q.popleft
        # the Nodes at either end (golden/graph.py); None for graph inputs/outputs
        self.producer: Any = None
        self.consumer: Any = None

    def push(self, value: Any) -> None:
        self.q.append(value)
        self.trace.append(value)

    def __len__(self) -> int:
        return len(self.q)

    def __repr__(self) -> str:
        return f"Channel({self.name!r}, {list(self.q)!r})"
