"""add_tag, del_tag and map_tag on packed `{tag, value}` tokens (the tag in
the high bits). Values are LSB-aligned: truncated or zero-extended.

Spec: docs/fabric/add_tag.md, docs/fabric/map_tag.md, docs/fabric/del_tag.md
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from loom.fabric.models import Streams


def _mask(width: int) -> int:
    return (1 << width) - 1


def add_tag(fields: Mapping[str, int], stream: Sequence[int], value_bits: int) -> Streams:
    tag = fields.get("tag", 0)
    return Streams([[(tag << value_bits) | (x & _mask(value_bits)) for x in stream]],
                   [len(stream)])


def del_tag(stream: Sequence[int], value_bits: int, out_bits: int) -> Streams:
    return Streams([[x & _mask(min(value_bits, out_bits)) for x in stream]], [len(stream)])


def map_tag(fields: Mapping[str, int], stream: Sequence[int], value_bits: int,
            entries: int) -> Streams:
    """The first valid entry whose src_tag matches gives the new tag; a token
    with no match stops the stream (it waits forever, as in LOOM)."""
    out: list[int] = []
    for x in stream:
        src = x >> value_bits
        dst = next((fields.get(f"entry{e}.dst_tag", 0) for e in range(entries)
                    if fields.get(f"entry{e}.valid", 0)
                    and fields.get(f"entry{e}.src_tag", 0) == src), None)
        if dst is None:
            break
        out.append((dst << value_bits) | (x & _mask(value_bits)))
    return Streams([out], [len(out)])
