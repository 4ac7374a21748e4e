"""add_tag: each token leaves as `{tag, value}`, the tag from the slice's
`tag` field, the value LSB-aligned (truncated or zero-extended).

Spec: docs/fabric/add_tag.md
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from loom.fabric.models import Streams, low_bits


def add_tag(fields: Mapping[str, int], stream: Sequence[int], value_bits: int) -> Streams:
    tag = fields.get("tag", 0)
    return Streams([[(tag << value_bits) | low_bits(x, value_bits) for x in stream]],
                   [len(stream)])
