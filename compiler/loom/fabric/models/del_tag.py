"""del_tag: each `{tag, value}` token leaves as its value, LSB-aligned in the
output (truncated or zero-extended).

Spec: docs/fabric/del_tag.md
"""

from __future__ import annotations

from collections.abc import Sequence

from loom.fabric.models import Streams, low_bits


def del_tag(stream: Sequence[int], value_bits: int, out_bits: int) -> Streams:
    return Streams([[low_bits(x, min(value_bits, out_bits)) for x in stream]], [len(stream)])
