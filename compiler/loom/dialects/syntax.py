"""Shared parse/print pieces of the handshake and dataflow custom assembly.

DFG bodies are graph regions: a loop's back edge uses a value before the op
that defines it, so every operand is resolved with a type written in the
syntax (forward references need it).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from xdsl.ir import Attribute, Block, Operation, SSAValue
from xdsl.parser import Parser, UnresolvedOperand
from xdsl.printer import Printer

from loom.dialects.channel_types import parse_edge_type


def parse_operands(parser: Parser) -> list[UnresolvedOperand]:
    """`%a, %b, ...` (possibly empty)."""
    return (
        parser.parse_optional_undelimited_comma_separated_list(
            parser.parse_optional_unresolved_operand, parser.parse_unresolved_operand
        )
        or []
    )


def parse_types(parser: Parser) -> list[Attribute]:
    """`T1, T2, ...` (at least one)."""
    return parser.parse_comma_separated_list(
        parser.Delimiter.NONE, lambda: parse_edge_type(parser)
    )


def parse_paren_types(parser: Parser) -> list[Attribute]:
    """`(T1, T2, ...)` (possibly empty)."""
    return parser.parse_comma_separated_list(
        parser.Delimiter.PAREN, lambda: parse_edge_type(parser)
    )


def parse_result_types(parser: Parser) -> list[Attribute]:
    """The result side of a function type: `(T1, ...)` or one bare type.

    MLIR prints a single result without parentheses (LOOM's DFGs do:
    `: (i32, index) -> none`); we print the parenthesized form.
    """
    if parser.parse_optional_punctuation("(") is None:
        return [parse_edge_type(parser)]
    if parser.parse_optional_punctuation(")") is not None:
        return []
    types = [parse_edge_type(parser)]
    while parser.parse_optional_punctuation(",") is not None:
        types.append(parse_edge_type(parser))
    parser.parse_punctuation(")")
    return types


def resolve(
    parser: Parser,
    operands: Sequence[UnresolvedOperand],
    types: Sequence[Attribute],
    what: str,
) -> list[SSAValue]:
    """Resolve operands against their types; counts must agree."""
    if len(operands) != len(types):
        at = operands[0].span if operands else None
        parser.raise_error(
            f"{what}: {len(operands)} operands but {len(types)} types", at
        )
    return [parser.resolve_operand(o, t) for o, t in zip(operands, types)]


def known_type(parser: Parser, operand: UnresolvedOperand) -> Attribute | None:
    """The type of an operand already defined above (None for a forward use)."""
    values = parser.ssa_values.get(operand.operand_name)
    if values is None or operand.index >= len(values):
        return None
    return values[operand.index].type


def parse_attr_dict(parser: Parser) -> dict[str, Attribute]:
    return parser.parse_optional_attr_dict()


def split_properties(
    attrs: dict[str, Attribute], names: Sequence[str]
) -> dict[str, Attribute]:
    """Move the entries named `names` out of a parsed attr-dict into properties."""
    return {n: attrs.pop(n) for n in names if n in attrs}


def print_operands(printer: Printer, values: Sequence[SSAValue]) -> None:
    printer.print_list(values, printer.print_operand)


def print_types(printer: Printer, types: Sequence[Attribute]) -> None:
    printer.print_list(types, printer.print_attribute)


def print_paren_types(printer: Printer, types: Sequence[Attribute]) -> None:
    with printer.in_parens():
        print_types(printer, types)


def print_attr_dict(
    printer: Printer,
    attributes: Mapping[str, Attribute],
    properties: Mapping[str, Attribute] | None = None,
) -> None:
    """` {props..., attrs...}` (nothing when empty); properties print first."""
    merged = dict(properties or {}) | dict(attributes)
    printer.print_op_attributes(merged)


def defined_before(value: SSAValue, op: Operation) -> bool:
    """Whether `value` is printed before `op` (so a parser knows its type there)."""
    owner = value.owner
    if isinstance(owner, Block):
        return True
    anc: Operation | None = op
    while anc is not None:
        if anc.parent_block() is owner.parent_block():
            return owner.is_before_in_block(anc)
        anc = anc.parent_op()
    return False


def print_operands_and_types(printer: Printer, op: Operation, types: Sequence[Attribute]) -> None:
    """` %a, %b {attrs} : T, U`: the common tail of our custom op syntax."""
    printer.print_string(" ")
    print_operands(printer, op.operands)
    print_attr_dict(printer, op.attributes)
    printer.print_string(" : ")
    print_types(printer, types)
