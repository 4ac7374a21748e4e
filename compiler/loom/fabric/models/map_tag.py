"""map_tag: a token's tag is replaced by the dst_tag of the first valid
table entry whose src_tag matches; a token with no match stops the stream
(it waits forever, as in LOOM).

Spec: docs/fabric/map_tag.md
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from loom.fabric.config_layout import entry_field
from loom.fabric.models import Streams, low_bits


def map_tag(fields: Mapping[str, int], stream: Sequence[int], value_bits: int,
            entries: int) -> Streams:
    out: list[int] = []
    for x in stream:
        src = x >> value_bits
        dst = next((fields.get(entry_field(e, "dst_tag"), 0) for e in range(entries)
                    if fields.get(entry_field(e, "valid"), 0)
                    and fields.get(entry_field(e, "src_tag"), 0) == src), None)
        if dst is None:
            break
        out.append((dst << value_bits) | low_bits(x, value_bits))
    return Streams([out], [len(out)])
