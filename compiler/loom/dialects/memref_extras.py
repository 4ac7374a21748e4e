"""Upstream `memref` syntax that xDSL 0.74 lacks.

MLIR prints a constant table (the front end's `memref.global` for a C
`const` array) in its custom form, which xDSL 0.74 cannot parse:

    memref.global "private" constant @t : memref<16xi8> = dense<[7, 3, ...]>

`memref_dialect()` is xDSL's memref dialect with `memref.global` reading and
writing that form (the dense value's type is the memref's shape as a tensor,
as in MLIR).
"""

from __future__ import annotations

import io

from xdsl.dialects import memref
from xdsl.dialects.builtin import (I64, DenseIntOrFPElementsAttr, IntegerAttr, MemRefType,
                                   StringAttr, SymbolNameConstraint, TensorType, UnitAttr)
from xdsl.ir import Attribute, Dialect
from xdsl.irdl import IRDLOperation, irdl_op_definition, opt_prop_def, prop_def, traits_def
from xdsl.parser import Parser
from xdsl.printer import Printer
from xdsl.traits import MemoryAllocEffect, SymbolOpInterface


@irdl_op_definition
class GlobalOp(IRDLOperation):
    """`memref.global "private" constant @name : memref<...> = dense<...>`
    (xDSL's memref.global, its fields and traits, with MLIR's syntax)."""

    name = "memref.global"

    sym_name = prop_def(SymbolNameConstraint())
    sym_visibility = prop_def(StringAttr)
    type = prop_def(MemRefType)
    initial_value = prop_def(UnitAttr | DenseIntOrFPElementsAttr)
    constant = opt_prop_def(UnitAttr)
    alignment = opt_prop_def(IntegerAttr[I64])

    traits = traits_def(SymbolOpInterface(), MemoryAllocEffect())

    @staticmethod
    def get(sym_name: StringAttr, sym_type: Attribute, initial_value: Attribute,
            constant: UnitAttr | None = None) -> GlobalOp:
        return GlobalOp.build(properties={"sym_name": sym_name, "type": sym_type,
                                          "initial_value": initial_value,
                                          "sym_visibility": StringAttr("private"),
                                          "constant": constant})

    @classmethod
    def parse(cls, parser: Parser) -> GlobalOp:
        visibility = parser.parse_optional_str_literal()
        constant = parser.parse_optional_keyword("constant") is not None
        sym = parser.parse_symbol_name()
        parser.parse_punctuation(":")
        mtype = parser.parse_type()
        if not isinstance(mtype, MemRefType):
            parser.raise_error(f"memref.global: expected a memref type, got {mtype}")
        value: UnitAttr | DenseIntOrFPElementsAttr = UnitAttr()
        if parser.parse_optional_punctuation("=") is not None:
            if parser.parse_optional_keyword("uninitialized") is None:
                parser.parse_keyword("dense")
                value = parser.parse_dense_int_or_fp_elements_attr(
                    TensorType(mtype.element_type, mtype.get_shape()))
        attrs = parser.parse_optional_attr_dict()
        props = {"sym_name": sym, "type": mtype, "initial_value": value,
                 "sym_visibility": StringAttr(visibility or "public")}
        if constant:
            props["constant"] = UnitAttr()
        return cls.create(properties=props, attributes=attrs)

    def print(self, printer: Printer) -> None:
        printer.print_string(f' "{self.sym_visibility.data}"')
        if self.constant is not None:
            printer.print_string(" constant")
        printer.print_string(f" @{self.sym_name.data} : ")
        printer.print_attribute(self.type)
        if isinstance(self.initial_value, DenseIntOrFPElementsAttr):
            # MLIR writes the value without its type (the memref's shape gives it)
            text = io.StringIO()
            Printer(stream=text).print_attribute(self.initial_value)
            printer.print_string(" = " + text.getvalue().rsplit(" : ", 1)[0])
        printer.print_op_attributes(self.attributes)


def memref_dialect() -> Dialect:
    """xDSL's memref dialect with `memref.global` in MLIR's custom syntax."""
    ops = [GlobalOp if op is memref.GlobalOp else op for op in memref.MemRef.operations]
    return Dialect("memref", ops, list(memref.MemRef.attributes),
                   list(memref.MemRef._interfaces))  # pyright: ignore[reportPrivateUsage]


__all__ = ["GlobalOp", "memref_dialect"]
