"""!fabric.bits<N> and !fabric.tagged<V, iK> against LOOM's FabricTypes.cpp."""

from __future__ import annotations

import pytest

from loom.dialects.fabric_types import BitsType, TaggedType, hardware_compatible, scalar_width


def module(t: str) -> str:
    return f"module {{\n  fabric.fifo @f [depth = 1] : ({t}) -> ({t})\n}}"


@pytest.mark.parametrize("t", ["!fabric.bits<1>", "!fabric.bits<4096>",
                               "!fabric.tagged<!fabric.bits<32>, i1>",
                               "!fabric.tagged<i32, i16>", "!fabric.tagged<none, i4>"])
def test_types_round_trip(checked, t):
    fifo = next(iter(checked(module(t)).ops))
    assert str(fifo.attributes["function_type"].inputs.data[0]) == t


@pytest.mark.parametrize(("t", "message"), [
    ("!fabric.bits<0>", "bits width must be in [1, 4096], got 0"),
    ("!fabric.bits<4097>", "bits width must be in [1, 4096], got 4097"),
    ("!fabric.tagged<!fabric.bits<32>, i17>", "tag width must be in [1, 16], got 17"),
    ("!fabric.tagged<!fabric.bits<32>, f32>", "tag type must be an integer type"),
])
def test_type_limits(error, t, message):
    err = error(module(t))
    assert message in err.message and err.loc is not None and err.loc.line == 2


def test_widths_and_port_compatibility():
    from xdsl.dialects.builtin import IndexType, MemRefType, i1, i32

    tagged = TaggedType(BitsType(32), i1)
    assert [scalar_width(t) for t in (BitsType(57), i32, IndexType())] == [57, 32, 32]
    # LOOM's isHardwarePortCompatible: only the tag kind matters; memref meets memref.
    assert hardware_compatible(BitsType(64), i32)
    assert not hardware_compatible(tagged, i32)
    assert not hardware_compatible(MemRefType(i32, [4]), BitsType(64))
