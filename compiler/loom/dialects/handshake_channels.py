"""Seed 004's explicit-channel ops: bundle/unbundle and compose/decompose.

    %ctrl, %data, %t1, %t2 = handshake.unbundle %ch : control, i32, i2, i4
    %ch2 = handshake.bundle %ctrl, %data [%t1, %t2] : channel<i32, [t1: i2, t2: i4]>
    %wide = handshake.compose %ch : channel<i32, [i2, i4]> -> channel<i38>
    %ch3 = handshake.decompose %wide : channel<i38> -> channel<i32, [i2, i4]>

Upstream extra signals flow against the channel: they are operands of
unbundle and results of bundle. A control token unbundles into its valid
signal and takes its ready signal: `%valid = handshake.unbundle %c, %ready : i1`.
"""

from __future__ import annotations

from xdsl.dialects.builtin import i1
from xdsl.ir import Attribute, Operation
from xdsl.irdl import (
    IRDLOperation,
    irdl_op_definition,
    operand_def,
    result_def,
    var_operand_def,
    var_result_def,
)
from xdsl.parser import Parser, UnresolvedOperand
from xdsl.printer import Printer
from xdsl.utils.exceptions import VerifyException

from loom.dialects import syntax
from loom.dialects.channel_types import (
    ChannelType,
    ControlType,
    canonical_type,
    data_width,
    is_control,
)
from loom.dialects.syntax import defined_before


def _split_extras(ch: ChannelType) -> tuple[list[Attribute], list[Attribute]]:
    """(downstream extra types, upstream extra types)."""
    down = [e.type for e in ch.extra_signals if not e.upstream.data]
    up = [e.type for e in ch.extra_signals if e.upstream.data]
    return down, up


def _bundle_signature(t: Attribute) -> tuple[list[Attribute], list[Attribute]]:
    """For bundling into `t`: (operand types, result types).

    channel: operands control, data, downstream extras; results channel, upstream extras.
    control: operand valid (i1); results control, ready (i1).
    """
    if isinstance(t, ChannelType):
        down, up = _split_extras(t)
        return [ControlType(), t.data_type, *down], [t, *up]
    if isinstance(t, ControlType):
        return [i1], [t, i1]
    raise VerifyException(f"can only bundle into !handshake.channel or !handshake.control, got {t}")


@irdl_op_definition
class BundleOp(IRDLOperation):
    """Seed 004: `%ch = handshake.bundle %ctrl, %data [%tag1, %tag2] : channel<...>`;
    upstream extras are extra results (`%ch, %ready = ... : channel<i32, [r: (U) i1]>`);
    `%c, %ready = handshake.bundle %valid : control, i1` for a control token."""

    name = "handshake.bundle"

    signals = var_operand_def()
    outputs = var_result_def()

    @classmethod
    def parse(cls, parser: Parser) -> BundleOp:
        first = syntax.parse_operands(parser)
        downs: list[UnresolvedOperand] = []
        if parser.parse_optional_punctuation("["):
            downs = syntax.parse_operands(parser)
            parser.parse_punctuation("]")
        attrs = syntax.parse_attr_dict(parser)
        parser.parse_punctuation(":")
        pos = parser.pos
        types = syntax.parse_types(parser)
        t = types[0]
        if not isinstance(t, ChannelType | ControlType):
            parser.raise_error(f"{cls.name} result must be a channel or control type", pos)
        if isinstance(t, ChannelType) and len(types) != 1:
            parser.raise_error(f"{cls.name} into a channel takes just the channel type", pos)
        if isinstance(t, ControlType) and len(types) > 2:
            parser.raise_error(f"{cls.name} into control takes `control, i1`", pos)
        if isinstance(t, ControlType) and downs:
            parser.raise_error(f"{cls.name} into control has no extra signals", pos)
        in_types, out_types = _bundle_signature(t)
        if isinstance(t, ControlType) and len(types) == 2:
            in_types, out_types = [types[1]], [t, types[1]]
        values = syntax.resolve(parser, [*first, *downs], in_types, cls.name)
        return cls.create(operands=values, result_types=out_types, attributes=attrs)

    def print(self, printer: Printer) -> None:
        t = self.results[0].type
        printer.print_string(" ")
        if isinstance(t, ChannelType):
            syntax.print_operands(printer, self.operands[:2])
            if len(self.operands) > 2:
                printer.print_string(" [")
                syntax.print_operands(printer, self.operands[2:])
                printer.print_string("]")
        else:
            syntax.print_operands(printer, self.operands)
        syntax.print_attr_dict(printer, self.attributes)
        printer.print_string(" : ")
        syntax.print_types(printer, self.result_types if isinstance(t, ControlType) else [t])

    def verify_(self) -> None:
        if not self.results:
            raise VerifyException("needs a result")
        ins, outs = _bundle_signature(self.results[0].type)
        _verify_signature(self, ins, outs)


def _verify_signature(op: Operation, ins: list[Attribute], outs: list[Attribute]) -> None:
    if len(op.operands) != len(ins) or len(op.results) != len(outs):
        raise VerifyException(
            f"has {len(op.operands)} operands and {len(op.results)} results, expected "
            f"{len(ins)} and {len(outs)} for this channel type"
        )
    for i, (v, t) in enumerate(zip(op.operands, ins)):
        if v.type != t and not (is_control(t) and is_control(v.type)):
            raise VerifyException(f"operand #{i} has type {v.type}, expected {t}")
    for i, (r, t) in enumerate(zip(op.results, outs)):
        if r.type != t and not (is_control(t) and is_control(r.type)):
            raise VerifyException(f"result #{i} has type {r.type}, expected {t}")


@irdl_op_definition
class UnbundleOp(IRDLOperation):
    """Seed 004: `%ctrl, %data, %t1, %t2 = handshake.unbundle %ch : control, i32, i2, i4`;
    upstream extras are extra operands (`handshake.unbundle %ch, %ready : control, i32`);
    `%valid = handshake.unbundle %ctrl, %ready : i1` for a control token.

    The listed types are the results; the channel's own type comes from its
    definition above. When the channel is defined later in the text (a back
    edge), it is written explicitly: `: <channel type> -> <result types>`.
    """

    name = "handshake.unbundle"

    signals = var_operand_def()
    outputs = var_result_def()

    @classmethod
    def parse(cls, parser: Parser) -> UnbundleOp:
        operands = syntax.parse_operands(parser)
        if not operands:
            parser.raise_error(f"{cls.name} needs a channel operand")
        attrs = syntax.parse_attr_dict(parser)
        parser.parse_punctuation(":")
        types = syntax.parse_types(parser)
        if parser.parse_optional_punctuation("->"):
            if len(types) != 1:
                parser.raise_error(f"{cls.name}: write one channel type before '->'")
            ch_t = types[0]
            types = syntax.parse_types(parser)
        else:
            known = syntax.known_type(parser, operands[0])
            if known is None:
                parser.raise_error(
                    f"type of %{operands[0].operand_name} is not known here; write "
                    f"`: <channel type> -> <result types>`",
                    operands[0].span,
                )
            ch_t = known
        if isinstance(ch_t, ChannelType):
            down, up = _split_extras(ch_t)
            in_types = [ch_t, *up]
        elif is_control(ch_t):
            in_types = [ch_t, i1]
        else:
            parser.raise_error(
                f"{cls.name} operand must be a channel or control, got {ch_t}", operands[0].span
            )
        values = syntax.resolve(parser, operands, in_types, cls.name)
        return cls.create(operands=values, result_types=types, attributes=attrs)

    def print(self, printer: Printer) -> None:
        printer.print_string(" ")
        syntax.print_operands(printer, self.operands)
        syntax.print_attr_dict(printer, self.attributes)
        printer.print_string(" : ")
        if self.operands and not defined_before(self.operands[0], self):
            printer.print_attribute(self.operands[0].type)
            printer.print_string(" -> ")
        syntax.print_types(printer, self.result_types)

    def verify_(self) -> None:
        if not self.operands:
            raise VerifyException("needs a channel operand")
        t = self.operands[0].type
        if isinstance(t, ChannelType):
            down, up = _split_extras(t)
            ins, outs = [t, *up], [ControlType(), t.data_type, *down]
        elif is_control(t):
            ins, outs = [t, i1], [i1]
        else:
            raise VerifyException(f"operand must be a channel or control, got {t}")
        _verify_signature(self, ins, outs)


def _composed_ok(composed: ChannelType, original: ChannelType) -> str | None:
    """Why `composed` is not `original` with same-direction signals composed (None = it is).

    Two forms (seed 004): all downstream extras folded into the data bus
    (`channel<i32, [i2, i4]> -> channel<i38>`), or each direction's extras
    folded into one extra (`-> channel<i32, [i6, (U) i12]>`).
    """
    o_down = [data_width(e.type) for e in original.extra_signals if not e.upstream.data]
    o_up = [data_width(e.type) for e in original.extra_signals if e.upstream.data]
    c_down = [data_width(e.type) for e in composed.extra_signals if not e.upstream.data]
    c_up = [data_width(e.type) for e in composed.extra_signals if e.upstream.data]
    if len(c_up) > 1 or sum(c_up) != sum(o_up):
        return (
            f"upstream extras must compose into at most one signal of {sum(o_up)} bits"
        )
    o_data, c_data = data_width(original.data_type), data_width(composed.data_type)
    if not c_down and c_data == o_data + sum(o_down):
        return None
    if c_data == o_data and len(c_down) <= 1 and sum(c_down) == sum(o_down):
        return None
    return (
        f"downstream signals ({o_data} data bits + extras {o_down}) must compose into "
        f"the data bus or into one extra signal"
    )


class _ComposeLike(IRDLOperation):
    """`%r = op %x attr-dict : channel<...> -> channel<...>`."""

    @classmethod
    def parse(cls, parser: Parser):
        operand = parser.parse_unresolved_operand()
        attrs = syntax.parse_attr_dict(parser)
        parser.parse_punctuation(":")
        in_t = syntax.parse_types(parser)
        parser.parse_punctuation("->")
        out_t = syntax.parse_types(parser)
        value = syntax.resolve(parser, [operand], in_t, cls.name)[0]
        return cls.create(operands=[value], result_types=out_t, attributes=attrs)

    def print(self, printer: Printer) -> None:
        printer.print_string(" ")
        printer.print_operand(self.operands[0])
        syntax.print_attr_dict(printer, self.attributes)
        printer.print_string(" : ")
        printer.print_attribute(self.operands[0].type)
        printer.print_string(" -> ")
        syntax.print_types(printer, self.result_types)

    def _verify_compose(self, composed_is_result: bool) -> None:
        if len(self.results) != 1:
            raise VerifyException("has exactly one result")
        a, r = canonical_type(self.operands[0].type), canonical_type(self.results[0].type)
        if not isinstance(a, ChannelType) or not isinstance(r, ChannelType):
            raise VerifyException("operand and result must be channels")
        composed, original = (r, a) if composed_is_result else (a, r)
        if (problem := _composed_ok(composed, original)) is not None:
            raise VerifyException(f"cannot turn {a} into {r}: {problem}")


@irdl_op_definition
class ComposeOp(_ComposeLike):
    """Folds a channel's same-direction extra signals together (seed 004)."""

    name = "handshake.compose"

    operand = operand_def()
    result = result_def()

    def verify_(self) -> None:
        self._verify_compose(composed_is_result=True)


@irdl_op_definition
class DecomposeOp(_ComposeLike):
    """Undoes handshake.compose."""

    name = "handshake.decompose"

    operand = operand_def()
    result = result_def()

    def verify_(self) -> None:
        self._verify_compose(composed_is_result=False)
