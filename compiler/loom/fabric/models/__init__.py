"""Reference models of configured fabric components: given a slice's field
values (loom.fabric.config_layout names) and the token streams offered at
the inputs, the token streams at the outputs and how many tokens each input
gives up. Timing-free (Kahn): the RTL must produce exactly these streams.
"""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class Streams:
    outputs: list[list[int]]
    consumed: list[int]


def low_bits(x: int, width: int) -> int:
    """The low `width` bits of a token (values are LSB-aligned)."""
    return x & ((1 << width) - 1)
