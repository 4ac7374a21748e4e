"""fifo: identity on the stream, buffered or bypassed (the config bit
changes timing only).

Spec: docs/fabric/fifo.md
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from loom.fabric.models import Streams


def fifo(fields: Mapping[str, int], stream: Sequence[int]) -> Streams:
    return Streams([list(stream)], [len(stream)])
