"""LOOM's `fabric` dialect: the architecture description graph (ADG).

    module {
      fabric.spatial_pe @pe(%a: !fabric.bits<64>) -> (!fabric.bits<64>) { ... }
      fabric.module @top(%in: !fabric.bits<64>) -> (!fabric.bits<64>) {
        %o = fabric.instance @pe(%in) {sym_name = "pe_0"} : (!fabric.bits<64>) -> (!fabric.bits<64>)
        fabric.yield %o : !fabric.bits<64>
      }
    }

This module holds `fabric.module`, `fabric.instance` and `fabric.yield`
and gathers the dialect; the components live in fabric_pe.py,
fabric_switch.py, fabric_memory.py and fabric_tag.py, the types in
fabric_types.py and the ADG's scoping rules in fabric_graph.py. The syntax
and verifier messages are LOOM's, so LOOM's fabric files are ours.
"""

from __future__ import annotations

from xdsl.dialects.builtin import FunctionType, StringAttr
from xdsl.ir import Attribute, Dialect, Operation
from xdsl.irdl import (
    IRDLOperation,
    irdl_op_definition,
    region_def,
    traits_def,
    var_operand_def,
    var_result_def,
)
from xdsl.parser import Parser
from xdsl.printer import Printer
from xdsl.traits import IsTerminator
from xdsl.utils.exceptions import VerifyException

from loom.dialects import fabric_syntax as fs
from loom.dialects.fabric_graph import (
    COMPONENTS,
    FU,
    MODULE,
    PES,
    check_outputs_used,
    check_ports,
    describe,
    is_consumed,
    parent_name,
    resolve_definition,
)
from loom.dialects.fabric_memory import ExtMemoryOp, MemoryOp
from loom.dialects.fabric_pe import FunctionUnitOp, MuxOp, SpatialPEOp, TemporalPEOp
from loom.dialects.fabric_switch import FifoOp, SpatialSwOp, TemporalSwOp
from loom.dialects.fabric_tag import AddTagOp, DelTagOp, MapTagOp
from loom.dialects.fabric_types import BitsType, TaggedType, hardware_compatible


@irdl_op_definition
class YieldOp(IRDLOperation):
    """`fabric.yield [%v, ... : T, ...]`: ends every fabric body."""

    name = "fabric.yield"

    values = var_operand_def()
    traits = traits_def(IsTerminator())

    @classmethod
    def parse(cls, parser: Parser) -> YieldOp:
        attrs = dict(parser.parse_optional_attr_dict())
        operands = parser.parse_optional_undelimited_comma_separated_list(
            parser.parse_optional_unresolved_operand, parser.parse_unresolved_operand
        ) or []
        values = []
        if operands:
            parser.parse_punctuation(":")
            types = parser.parse_comma_separated_list(parser.Delimiter.NONE, parser.parse_type)
            values = fs.resolve_all(parser, operands, types, cls.name)
        return cls.create(operands=values, attributes=attrs)

    def verify_(self) -> None:
        # The module's port checks run here, after every op of its body was
        # verified, as LOOM runs its ADG verifier after its op verifiers.
        parent = self.parent_op()
        if isinstance(parent, FabricModuleOp) and parent.body.block.last_op is self:
            parent.verify_graph()

    def print(self, printer: Printer) -> None:
        printer.print_op_attributes(self.attributes)
        if self.operands:
            printer.print_string(" ")
            printer.print_list(self.operands, printer.print_operand)
            printer.print_string(" : ")
            printer.print_list(self.operand_types, printer.print_attribute)


@irdl_op_definition
class FabricModuleOp(IRDLOperation):
    """The accelerator: ports, and the hardware graph wired by SSA values."""

    name = "fabric.module"

    body = region_def()

    @classmethod
    def parse(cls, parser: Parser) -> FabricModuleOp:
        attrs: dict[str, Attribute] = {"sym_name": parser.parse_symbol_name()}
        args, ftype = fs.parse_signature(parser)
        attrs["function_type"] = ftype
        attrs |= fs.parse_runtime_attrs(parser, bare=False)
        return cls.create(attributes=attrs, regions=[parser.parse_region(args)])

    def print(self, printer: Printer) -> None:
        fs.print_symbol(printer, self)
        block = self.body.block
        fs.print_signature(printer, block, fs.function_type(self))
        fs.print_runtime_attrs(printer, self, ("sym_name", "function_type"))
        printer.print_string(" ")
        printer.print_region(self.body, print_entry_block_args=False)

    def verify_(self) -> None:
        block = self.body.block
        last = block.last_op
        if last is None or last.name != "fabric.yield":
            raise VerifyException("expected fabric.yield terminator")
        ftype = fs.function_type(self)
        if len(last.operands) != len(ftype.outputs.data):
            raise VerifyException("yield operand count mismatch with function results")

    def verify_graph(self) -> None:
        """LOOM's ADG checks of the module's own ports."""
        block = self.body.block
        ftype = fs.function_type(self)
        assert block.last_op is not None
        for i, (value, t) in enumerate(zip(block.last_op.operands, ftype.outputs.data)):
            check_ports_pair(value.type, t, i)
        for arg in block.args:
            if not is_consumed(arg):
                raise VerifyException(
                    f"dangling module input port I{arg.index} — not connected to any instance"
                )

    @property
    def sym_name(self) -> str:
        name = self.attributes["sym_name"]
        assert isinstance(name, StringAttr)
        return name.data


def check_ports_pair(source: Attribute, port: Attribute, index: int) -> None:
    if not hardware_compatible(source, port):
        raise VerifyException(
            f"tag-kind mismatch on module output O{index} — source type {source} "
            f"is incompatible with {port}"
        )


@irdl_op_definition
class InstanceOp(IRDLOperation):
    """`fabric.instance @def(%a, ...) {sym_name = "pe_0"} : (..) -> (..)`."""

    name = "fabric.instance"

    inputs = var_operand_def()
    outputs = var_result_def()

    @classmethod
    def parse(cls, parser: Parser) -> InstanceOp:
        target = parser.parse_symbol_name()
        operands = parser.parse_comma_separated_list(
            parser.Delimiter.PAREN, parser.parse_unresolved_operand
        )
        attrs = dict(parser.parse_optional_attr_dict())
        attrs["module"] = target
        ftype = fs.parse_function_type(parser)
        values = fs.resolve_all(parser, operands, ftype.inputs.data, cls.name)
        return cls.create(operands=values, result_types=list(ftype.outputs.data),
                          attributes=attrs)

    def print(self, printer: Printer) -> None:
        printer.print_string(f" @{self.target}")
        printer.print_operands(self.operands)
        printer.print_op_attributes(self.attributes, reserved_attr_names=("module",))
        fs.print_function_type(
            printer, FunctionType.from_lists(self.operand_types, self.result_types)
        )

    @property
    def target(self) -> str:
        name = self.attributes["module"]
        assert isinstance(name, StringAttr)
        return name.data

    def definition(self) -> Operation | None:
        """The definition the instance stands for (None: unresolved)."""
        return resolve_definition(self, self.target)

    def verify_(self) -> None:
        host = parent_name(self)
        if host not in (MODULE, *PES):
            raise VerifyException(
                "must appear directly inside fabric.module, fabric.spatial_pe, or "
                "fabric.temporal_pe"
            )
        target = resolve_definition(self, self.target)
        if target is None:
            raise VerifyException(
                f"instance target '{self.target}' cannot be resolved from the current "
                "host scope"
            )
        if host in PES:
            if target.name != FU:
                raise VerifyException(
                    f"instances inside {host} must target fabric.function_unit, but "
                    f"'{self.target}' resolves to {target.name}"
                )
            if self.operands or self.results:
                raise VerifyException(
                    f"function_unit instance '{self.target}' inside a PE must not carry SSA "
                    "operands or results"
                )
            return
        if target.name not in COMPONENTS:
            raise VerifyException(
                "instances inside fabric.module must target fabric.{spatial_pe, temporal_pe, "
                f"spatial_sw, temporal_sw, memory, extmemory, fifo}}, but '{self.target}' "
                f"resolves to {target.name}"
            )
        check_ports(self, fs.function_type(target), describe(self))
        check_outputs_used(self, describe(self))


Fabric = Dialect(
    "fabric",
    [
        FabricModuleOp, InstanceOp, YieldOp,
        SpatialPEOp, TemporalPEOp, FunctionUnitOp, MuxOp,
        SpatialSwOp, TemporalSwOp, FifoOp,
        MemoryOp, ExtMemoryOp,
        AddTagOp, MapTagOp, DelTagOp,
    ],
    [BitsType, TaggedType],
)
