"""Shared pieces of the `fabric` dialect's custom syntax (LOOM's forms).

    @name(%a: T, ...) -> (T, ...)        signature of a definition with a body
    [key = value, flag, ...]             hardware parameters
    (%a, %b)                             operands of an inline instance
    attributes {k = v}                   runtime configuration hints
    : (T, ...) -> (T, ...)               function type of a body-less component

Every op keeps its parameters as attributes under LOOM's names, so the
printer writes back what the parser read.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass

from xdsl.dialects.builtin import (
    ArrayAttr,
    FunctionType,
    IntegerAttr,
    IntegerType,
    StringAttr,
    UnitAttr,
    i64,
)
from xdsl.ir import Attribute, Block, Operation, SSAValue
from xdsl.parser import Parser, UnresolvedOperand

from xdsl.printer import Printer
from xdsl.utils.exceptions import VerifyException

INLINE = "inline_instantiation"


@dataclass(frozen=True)
class HwParam:
    """One `[...]` entry: `key = value` (or a bare `key` when `flag`)."""

    key: str
    attr: str = ""
    flag: bool = False

    @property
    def attr_name(self) -> str:
        return self.attr or self.key


# --- parsing -----------------------------------------------------------------------


def parse_signature(parser: Parser) -> tuple[list[Parser.Argument], FunctionType]:
    """`(%a: T, ...) [-> (T, ...)]`."""
    args = parser.parse_comma_separated_list(
        parser.Delimiter.PAREN, lambda: parser.parse_argument(expect_type=True)
    )
    outs: list[Attribute] = []
    if parser.parse_optional_punctuation("->"):
        outs = parser.parse_comma_separated_list(parser.Delimiter.PAREN, parser.parse_type)
    return args, FunctionType.from_lists([a.type for a in args], outs)


def parse_hw_params(
    parser: Parser, params: Sequence[HwParam], what: str
) -> dict[str, Attribute]:
    """`[key = value, ...]` if present; unknown keys are LOOM's parse error."""
    attrs: dict[str, Attribute] = {}
    if not parser.parse_optional_punctuation("["):
        return attrs
    by_key = {p.key: p for p in params}
    while True:
        pos = parser.pos
        key = parser.parse_identifier()
        param = by_key.get(key)
        if param is None:
            parser.raise_error(f"unexpected keyword '{key}' in {what} hardware parameters",
                               pos, parser.pos)
        if parser.parse_optional_punctuation("="):
            attrs[param.attr_name] = parser.parse_attribute()
        elif param.flag:
            attrs[param.attr_name] = UnitAttr()
        else:
            parser.parse_punctuation("=")
        if not parser.parse_optional_punctuation(","):
            break
    parser.parse_punctuation("]")
    return attrs


def parse_optional_operands(parser: Parser) -> list[UnresolvedOperand] | None:
    """`(%a, %b)` if present (possibly empty)."""
    if parser._current_token.text != "(":  # pyright: ignore[reportPrivateUsage]
        return None
    return parser.parse_comma_separated_list(
        parser.Delimiter.PAREN, parser.parse_unresolved_operand
    )


def parse_runtime_attrs(parser: Parser, bare: bool = True) -> dict[str, Attribute]:
    """`attributes {..}` (LOOM's form), or a bare `{..}` unless a region may follow."""
    if parser.parse_optional_keyword("attributes"):
        if parser._current_token.text != "{":  # pyright: ignore[reportPrivateUsage]
            parser.raise_error("expected '{' after 'attributes'")
        return dict(parser.parse_optional_attr_dict())
    return dict(parser.parse_optional_attr_dict()) if bare else {}


def parse_function_type(parser: Parser) -> FunctionType:
    parser.parse_punctuation(":")
    pos = parser.pos
    t = parser.parse_type()
    if not isinstance(t, FunctionType):
        parser.raise_error("expected a function type '(...) -> (...)'", pos, parser.pos)
    return t


def resolve_all(
    parser: Parser, operands: Sequence[UnresolvedOperand], types: Sequence[Attribute], what: str
) -> list[SSAValue]:
    if len(operands) != len(types):
        parser.raise_error(f"{what}: {len(operands)} operands but {len(types)} types")
    return [parser.resolve_operand(o, t) for o, t in zip(operands, types)]


# --- printing ------------------------------------------------------------------------


def print_symbol(printer: Printer, op: Operation) -> None:
    name = op.attributes.get("sym_name")
    if isinstance(name, StringAttr):
        printer.print_string(f" @{name.data}")


def print_signature(printer: Printer, block: Block, ftype: FunctionType) -> None:
    printer.print_string("(")
    printer.print_list(block.args, lambda a: printer.print_block_argument(a))
    printer.print_string(")")
    if ftype.outputs.data:
        printer.print_string(" -> (")
        printer.print_list(ftype.outputs.data, printer.print_attribute)
        printer.print_string(")")


def print_param_value(printer: Printer, value: Attribute) -> None:
    if isinstance(value, IntegerAttr) and not is_bool(value):
        printer.print_string(str(value.value.data))
    else:
        printer.print_attribute(value)


def print_hw_params(printer: Printer, op: Operation, params: Sequence[HwParam]) -> None:
    entries: list[str | tuple[str, Attribute]] = []
    for p in params:
        value = op.attributes.get(p.attr_name)
        if value is None:
            continue
        entries.append(p.key if isinstance(value, UnitAttr) else (p.key, value))
    if not entries:
        return
    printer.print_string(" [")

    def one(entry: str | tuple[str, Attribute]) -> None:
        if isinstance(entry, str):
            printer.print_string(entry)
        else:
            printer.print_string(f"{entry[0]} = ")
            print_param_value(printer, entry[1])

    printer.print_list(entries, one)
    printer.print_string("]")


def print_runtime_attrs(printer: Printer, op: Operation, reserved: Iterable[str]) -> None:
    printer.print_op_attributes(
        op.attributes, reserved_attr_names=(*reserved, INLINE), print_keyword=True
    )


def print_function_type(printer: Printer, ftype: FunctionType) -> None:
    printer.print_string(" : (")
    printer.print_list(ftype.inputs.data, printer.print_attribute)
    printer.print_string(") -> (")
    printer.print_list(ftype.outputs.data, printer.print_attribute)
    printer.print_string(")")


# --- attribute access ----------------------------------------------------------------


def function_type(op: Operation) -> FunctionType:
    t = op.attributes.get("function_type")
    if not isinstance(t, FunctionType):
        raise VerifyException("requires a function_type")
    return t


def int_param(op: Operation, name: str, default: int | None = None) -> int | None:
    value = op.attributes.get(name)
    if value is None:
        return default
    if not isinstance(value, IntegerAttr) or is_bool(value):
        raise VerifyException(f"{name} must be an integer")
    return value.value.data


def bool_param(op: Operation, name: str, default: bool = False) -> bool:
    value = op.attributes.get(name)
    if value is None:
        return default
    if isinstance(value, UnitAttr):
        return True
    if is_bool(value):
        return bool(value.value.data)  # type: ignore[union-attr]
    raise VerifyException(f"{name} must be a boolean")


def string_rows(op: Operation, name: str) -> list[str] | None:
    """A table of binary strings (`["101", ...]`), or None when absent."""
    value = op.attributes.get(name)
    if value is None:
        return None
    if not isinstance(value, ArrayAttr):
        raise VerifyException(f"{name} must be an array of binary strings")
    rows: list[str] = []
    for i, row in enumerate(value.data):
        if not isinstance(row, StringAttr):
            raise VerifyException(f"{name} row {i} must be a binary string")
        rows.append(row.data)
    return rows


def check_binary_table(rows: list[str] | None, n_rows: int, n_cols: int, name: str) -> None:
    """LOOM's verifyBinaryRowTable."""
    if rows is None:
        return
    if len(rows) != n_rows:
        raise VerifyException(f"{name} must have {n_rows} row(s), got {len(rows)}")
    for i, row in enumerate(rows):
        if len(row) != n_cols:
            raise VerifyException(
                f"{name} row {i} must have {n_cols} column(s), got {len(row)}"
            )
        if set(row) - {"0", "1"}:
            raise VerifyException(f"{name} row {i} must contain only '0' or '1'")


def is_bool(value: Attribute) -> bool:
    """`true` / `false` (xDSL parses them as i1 integers)."""
    return (isinstance(value, IntegerAttr) and isinstance(value.type, IntegerType)
            and value.type.width.data == 1)


def is_inline(op: Operation) -> bool:
    return INLINE in op.attributes


def make_i64(value: int) -> IntegerAttr:
    return IntegerAttr(value, i64)


ParseFn = Callable[[Parser], Operation]
