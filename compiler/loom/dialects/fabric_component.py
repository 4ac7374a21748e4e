"""The common form of LOOM's body-less components (switches, fifo, memories):

    fabric.KIND @name [hw params] : (T, ...) -> (T, ...)                 definition
    %r:N = fabric.KIND @name [hw params] (%a, ...) attributes {..} : ...  inline

An operand list makes the op an inline graph node (`inline_instantiation`).
"""

from __future__ import annotations

from typing import ClassVar

from xdsl.dialects.builtin import StringAttr, UnitAttr
from xdsl.ir import Attribute
from xdsl.irdl import IRDLOperation, var_operand_def, var_result_def
from xdsl.parser import Parser
from xdsl.printer import Printer

from loom.dialects import fabric_syntax as fs
from loom.dialects.fabric_graph import check_graph, check_module_level


class ComponentOp(IRDLOperation):
    """Base of body-less components; subclasses list their `HW_PARAMS`."""

    HW_PARAMS: ClassVar[tuple[fs.HwParam, ...]] = ()
    WHAT: ClassVar[str] = ""
    """The component's name in LOOM's parse errors ("SW", "fifo", ...)."""

    inputs = var_operand_def()
    outputs = var_result_def()

    @classmethod
    def parse(cls, parser: Parser) -> ComponentOp:
        attrs: dict[str, Attribute] = {}
        if (name := parser.parse_optional_symbol_name()) is not None:
            attrs["sym_name"] = name
        attrs |= fs.parse_hw_params(parser, cls.HW_PARAMS, cls.WHAT)
        operands = fs.parse_optional_operands(parser)
        if operands is not None:
            attrs[fs.INLINE] = UnitAttr()
        attrs |= cls.normalize_runtime(fs.parse_runtime_attrs(parser))
        ftype = fs.parse_function_type(parser)
        attrs["function_type"] = ftype
        values = (
            fs.resolve_all(parser, operands, ftype.inputs.data, cls.name) if operands else []
        )
        # Only an inline node has results; a definition just declares its ports.
        results = list(ftype.outputs.data) if operands is not None else []
        return cls.create(operands=values, result_types=results, attributes=attrs)

    @classmethod
    def normalize_runtime(cls, attrs: dict[str, Attribute]) -> dict[str, Attribute]:
        return attrs

    def print(self, printer: Printer) -> None:
        fs.print_symbol(printer, self)
        fs.print_hw_params(printer, self, self.HW_PARAMS)
        if fs.is_inline(self):
            printer.print_string(" ")
            printer.print_operands(self.operands)
        reserved = ("sym_name", "function_type", *(p.attr_name for p in self.HW_PARAMS))
        fs.print_runtime_attrs(printer, self, reserved)
        fs.print_function_type(printer, fs.function_type(self))

    def verify_(self) -> None:
        # LOOM's op verifier first, then its ADG verifier.
        check_module_level(self)
        self.verify_component()
        check_graph(self)

    def verify_component(self) -> None:
        """Rules of the component itself (LOOM's op verifier)."""

    @property
    def sym_name(self) -> str | None:
        name = self.attributes.get("sym_name")
        return name.data if isinstance(name, StringAttr) else None
