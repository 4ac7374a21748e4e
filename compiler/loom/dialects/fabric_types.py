"""Types of LOOM's `fabric` dialect: `!fabric.bits<N>` and `!fabric.tagged<V, iK>`.

`bits` is a width-only payload (1..4096 bits) used on routing nodes;
`tagged` pairs a value (bits or native) with a small integer tag (1..16
bits), packed `{tag, data}` with the tag in the high bits. Messages follow
LOOM's FabricTypes.cpp.
"""

from __future__ import annotations

from collections.abc import Sequence

from xdsl.dialects.builtin import (
    BFloat16Type,
    Float16Type,
    Float32Type,
    Float64Type,
    IndexType,
    IntAttr,
    IntegerType,
    MemRefType,
    NoneType,
)
from xdsl.ir import Attribute, ParametrizedAttribute, TypeAttribute
from xdsl.irdl import irdl_attr_definition
from xdsl.parser import AttrParser
from xdsl.printer import Printer
from xdsl.utils.exceptions import VerifyException

INDEX_WIDTH = 32
"""LOOM's configured width of `index` on fabric ports (its default)."""


@irdl_attr_definition
class BitsType(ParametrizedAttribute, TypeAttribute):
    """`!fabric.bits<N>`: N bits without semantic type."""

    name = "fabric.bits"

    width: IntAttr

    def __init__(self, width: int | IntAttr):
        super().__init__(width if isinstance(width, IntAttr) else IntAttr(width))

    def verify(self) -> None:
        n = self.width.data
        if not 1 <= n <= 4096:
            raise VerifyException(f"bits width must be in [1, 4096], got {n}")

    def print_parameters(self, printer: Printer) -> None:
        printer.print_string(f"<{self.width.data}>")

    @classmethod
    def parse_parameters(cls, parser: AttrParser) -> Sequence[Attribute]:
        with parser.in_angle_brackets():
            return (IntAttr(parser.parse_integer(allow_boolean=False, allow_negative=False)),)


@irdl_attr_definition
class TaggedType(ParametrizedAttribute, TypeAttribute):
    """`!fabric.tagged<V, iK>`: value V with a K-bit tag."""

    name = "fabric.tagged"

    value_type: Attribute
    tag_type: IntegerType

    def verify(self) -> None:
        k = self.tag_type.width.data
        if not 1 <= k <= 16:
            raise VerifyException(f"tag width must be in [1, 16], got {k}")

    def print_parameters(self, printer: Printer) -> None:
        with printer.in_angle_brackets():
            printer.print_attribute(self.value_type)
            printer.print_string(", ")
            printer.print_attribute(self.tag_type)

    @classmethod
    def parse_parameters(cls, parser: AttrParser) -> Sequence[Attribute]:
        with parser.in_angle_brackets():
            value = parser.parse_type()
            parser.parse_punctuation(",")
            pos = parser.pos
            tag = parser.parse_type()
            if not isinstance(tag, IntegerType):
                parser.raise_error("tag type must be an integer type", pos, parser.pos)
        return (value, tag)

    @property
    def tag_width(self) -> int:
        return self.tag_type.width.data


def is_tagged(t: Attribute) -> bool:
    return isinstance(t, TaggedType)


def scalar_width(t: Attribute) -> int | None:
    """Bits of a fabric scalar (bits, iN, float, index, none); None for others."""
    match t:
        case BitsType():
            return t.width.data
        case IntegerType():
            return t.width.data
        case Float16Type() | BFloat16Type():
            return 16
        case Float32Type():
            return 32
        case Float64Type():
            return 64
        case IndexType():
            return INDEX_WIDTH
        case NoneType():
            return 0
        case _:
            return None


def is_native_fu_type(t: Attribute) -> bool:
    """A type a function unit's ports and body may use (LOOM's native types)."""
    if isinstance(t, (NoneType, IndexType, Float16Type, BFloat16Type, Float32Type, Float64Type)):
        return True
    return isinstance(t, IntegerType) and t.signedness.data.name == "SIGNLESS"


def hardware_compatible(a: Attribute, b: Attribute) -> bool:
    """LOOM's isHardwarePortCompatible: memref only meets memref; tag kinds match."""
    if isinstance(a, MemRefType) or isinstance(b, MemRefType):
        return isinstance(a, MemRefType) and isinstance(b, MemRefType)
    return is_tagged(a) == is_tagged(b)
