"""Bit-pattern helpers shared by the golden ops: values are unsigned patterns."""

from __future__ import annotations

INDEX_WIDTH = 64


def mask(width: int) -> int:
    return (1 << width) - 1


def wrap(value: int, width: int) -> int:
    """`value` reduced to a `width`-bit unsigned pattern (two's complement wrap)."""
    return value & ((1 << width) - 1)


def signed(value: int, width: int) -> int:
    """The two's-complement reading of a `width`-bit pattern."""
    if width and value >> (width - 1) & 1:
        return value - (1 << width)
    return value
