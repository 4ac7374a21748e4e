"""Explicit channel types of the handshake dialect (seed 004).

`!handshake.control` is a control-only token (valid/ready, no data);
`!handshake.channel<T, [extras]>` carries data of type T plus optional extra
signals, each downstream (default) or upstream (`(U)`), optionally named.
Native types stay valid on every DFG edge as shorthand: `i32` means
`!handshake.channel<i32>` and `none` means `!handshake.control`.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import NamedTuple

from xdsl.dialects.builtin import (
    AnyFloat,
    ArrayAttr,
    IndexType,
    IntAttr,
    IntegerType,
    NoneType,
    StringAttr,
)
from xdsl.ir import Attribute, ParametrizedAttribute, TypeAttribute
from xdsl.irdl import irdl_attr_definition
from xdsl.parser import AttrParser
from xdsl.printer import Printer
from xdsl.utils.exceptions import VerifyException

INDEX_WIDTH = 64
"""Bits of an `index` value on a channel (design.md: index = 64 bits)."""


@irdl_attr_definition
class ControlType(ParametrizedAttribute, TypeAttribute):
    """`!handshake.control`: a dataflow token without data."""

    name = "handshake.control"


@irdl_attr_definition
class ExtraSignalAttr(ParametrizedAttribute):
    """One extra signal of a channel: `name: (U) type` (name and `(U)` optional).

    `signal_name` is "" for an unnamed signal; `upstream` is 1 for `(U)`.
    """

    name = "handshake.extra_signal"

    signal_name: StringAttr
    type: Attribute
    upstream: IntAttr

    def verify(self) -> None:
        _check_signal_type(self.type, "extra signal")
        if self.upstream.data not in (0, 1):
            raise VerifyException("extra signal direction must be 0 (down) or 1 (up)")

    def print_inline(self, printer: Printer) -> None:
        if self.signal_name.data:
            printer.print_string(f"{self.signal_name.data}: ")
        if self.upstream.data:
            printer.print_string("(U) ")
        printer.print_attribute(self.type)

    def print_parameters(self, printer: Printer) -> None:
        with printer.in_angle_brackets():
            self.print_inline(printer)

    @classmethod
    def parse_parameters(cls, parser: AttrParser) -> Sequence[Attribute]:
        with parser.in_angle_brackets():
            return _parse_extra(parser).parameters


@irdl_attr_definition
class ChannelType(ParametrizedAttribute, TypeAttribute):
    """`!handshake.channel<T, [extras]>`: data of type T plus extra signals."""

    name = "handshake.channel"

    data_type: Attribute
    extra_signals: ArrayAttr[ExtraSignalAttr]

    def __init__(
        self,
        data_type: Attribute,
        extra_signals: Sequence[ExtraSignalAttr] | ArrayAttr[ExtraSignalAttr] = (),
    ):
        if not isinstance(extra_signals, ArrayAttr):
            extra_signals = ArrayAttr(extra_signals)
        super().__init__(data_type, extra_signals)

    def verify(self) -> None:
        _check_signal_type(self.data_type, "channel data")
        names = [e.signal_name.data for e in self.extra_signals if e.signal_name.data]
        for name in names:
            if names.count(name) > 1:
                raise VerifyException(f"duplicate extra signal name '{name}' in channel")

    def print_parameters(self, printer: Printer) -> None:
        with printer.in_angle_brackets():
            printer.print_attribute(self.data_type)
            if self.extra_signals.data:
                printer.print_string(", [")
                printer.print_list(self.extra_signals.data, lambda e: e.print_inline(printer))
                printer.print_string("]")

    @classmethod
    def parse_parameters(cls, parser: AttrParser) -> Sequence[Attribute]:
        parser.parse_punctuation("<")
        pos = parser.pos
        data = parser.parse_type()
        _reject_bad_signal(parser, data, "channel data", pos)
        extras: list[ExtraSignalAttr] = []
        if parser.parse_optional_punctuation(","):
            extras = parser.parse_comma_separated_list(
                parser.Delimiter.SQUARE, lambda: _parse_extra(parser)
            )
        parser.parse_punctuation(">")
        names = [e.signal_name.data for e in extras if e.signal_name.data]
        dup = next((n for n in names if names.count(n) > 1), None)
        if dup is not None:
            parser.raise_error(f"duplicate extra signal name '{dup}' in channel", pos)
        return (data, ArrayAttr(extras))


def extra_signal(type: Attribute, name: str = "", upstream: bool = False) -> ExtraSignalAttr:
    """Build one extra signal (unnamed and downstream unless told otherwise)."""
    return ExtraSignalAttr(StringAttr(name), type, IntAttr(int(upstream)))


def _signal_problem(t: Attribute) -> str | None:
    """Why `t` cannot be the data of a channel or an extra signal (None = fine)."""
    if isinstance(t, IndexType):
        return None
    if isinstance(t, IntegerType):
        if t.width.data == 0:
            return "has zero width (use !handshake.control for a control-only channel)"
        return None
    return "is not an integer or index type"


def _check_signal_type(t: Attribute, what: str) -> None:
    if (problem := _signal_problem(t)) is not None:
        raise VerifyException(f"invalid {what} type {t}: it {problem}")


def _reject_bad_signal(parser: AttrParser, t: Attribute, what: str, pos: int) -> None:
    if (problem := _signal_problem(t)) is not None:
        parser.raise_error(f"invalid {what} type {t}: it {problem}", pos, parser.pos)


def _parse_extra(parser: AttrParser) -> ExtraSignalAttr:
    """`name: (U) type`, name and `(U)` optional."""
    name = ""
    start = parser.pos
    ident = parser.parse_optional_identifier()
    if ident is not None and parser.parse_optional_punctuation(":"):
        name = ident
    elif ident is not None:
        # It was a type keyword such as `i2`: re-read it as a type.
        parser._resume_from(start)  # pyright: ignore[reportPrivateUsage]
    upstream = False
    if parser.parse_optional_punctuation("("):
        parser.parse_keyword("U", " (extra signal direction, `(U)` = upstream)")
        parser.parse_punctuation(")")
        upstream = True
    pos = parser.pos
    t = parser.parse_type()
    _reject_bad_signal(parser, t, "extra signal", pos)
    return extra_signal(t, name, upstream)


def parse_edge_type(parser: AttrParser) -> Attribute:
    """A type on a DFG edge; also accepts seed 004's bare `control` / `channel<...>`."""
    if parser.parse_optional_keyword("control") is not None:
        return ControlType()
    if parser.parse_optional_keyword("channel") is not None:
        return ChannelType.new(ChannelType.parse_parameters(parser))
    return parser.parse_type()


# --- queries used by verifiers, the golden model and the RTL side ----------------


class Extra(NamedTuple):
    """One extra signal: name (None if unnamed), bit width, upstream direction."""

    name: str | None
    width: int
    upstream: bool


def is_control(t: Attribute) -> bool:
    """`none` or `!handshake.control`."""
    return isinstance(t, NoneType | ControlType)


def canonical_type(t: Attribute) -> Attribute:
    """The explicit form of an edge type: `i32` -> channel<i32>, `none` -> control."""
    if isinstance(t, NoneType):
        return ControlType()
    if isinstance(t, IntegerType | IndexType) and _signal_problem(t) is None:
        return ChannelType(t)
    return t


def same_edge_type(a: Attribute, b: Attribute) -> bool:
    """Equal up to the native shorthand (`i32` == `!handshake.channel<i32>`)."""
    return canonical_type(a) == canonical_type(b)


def data_type(t: Attribute) -> Attribute | None:
    """The data type carried by an edge (None for control-only)."""
    if is_control(t):
        return None
    if isinstance(t, ChannelType):
        return t.data_type
    return t


def edge_type_problem(t: Attribute) -> str | None:
    """Why `t` cannot be a DFG edge type (None = fine)."""
    if is_control(t) or isinstance(t, ChannelType | AnyFloat):
        return None
    if isinstance(t, IntegerType | IndexType):
        return _signal_problem(t)
    return (
        "is not a channel type (expected an integer, index, float, none, "
        "!handshake.control or !handshake.channel type)"
    )


def check_edge_type(t: Attribute, what: str) -> None:
    """Raise a VerifyException naming `what` when `t` is not a valid edge type."""
    if (problem := edge_type_problem(t)) is not None:
        raise VerifyException(f"{what} has type {t}, which {problem}")


def _bits(t: Attribute) -> int:
    if isinstance(t, IndexType):
        return INDEX_WIDTH
    if isinstance(t, IntegerType):
        return t.width.data
    if isinstance(t, AnyFloat):
        return t.bitwidth
    raise ValueError(f"type {t} has no bit width")


def data_width(t: Attribute) -> int:
    """Data bits of an edge: 0 for control/none, 64 for index."""
    d = data_type(t)
    return 0 if d is None else _bits(d)


def extras(t: Attribute) -> list[Extra]:
    """Extra signals of an edge in declaration order (native types have none)."""
    if not isinstance(t, ChannelType):
        return []
    return [
        Extra(e.signal_name.data or None, _bits(e.type), bool(e.upstream.data))
        for e in t.extra_signals
    ]
