"""Processing elements of the fabric: `spatial_pe`, `temporal_pe`,
`function_unit` and the configuration-time `fabric.mux`.

    fabric.spatial_pe @pe(%a: !fabric.bits<64>, ...) -> (...) { <FUs> fabric.yield }
    %r:1 = fabric.spatial_pe @pe inputs(%x, %y) : (..) -> (..) { <FUs> fabric.yield }
    fabric.function_unit @fu_add(%a: i32, %b: i32) -> (i32) [latency = 1, interval = 1] {
      %0 = arith.addi %a, %b : i32
      fabric.yield %0 : i32
    }
    %g = fabric.mux %d, %e {sel = 0 : i64, discard = false, disconnect = false}
        : i32, i32 -> i32

A PE's opcode is its FU's index in body order. Seed 001's rule is LOOM's
timing rule: a function unit holding a dataflow op holds exactly that op,
with [latency = -1, interval = -1]; no other unit may use -1.
temporal_pe parses and verifies; mapping and RTL refuse it later.
"""

from __future__ import annotations

from typing import ClassVar

from xdsl.dialects.builtin import FunctionType, StringAttr, UnitAttr
from xdsl.ir import Attribute, Block, BlockArgument
from xdsl.irdl import (
    IRDLOperation,
    irdl_op_definition,
    region_def,
    var_operand_def,
    var_result_def,
)
from xdsl.parser import Parser
from xdsl.printer import Printer
from xdsl.utils.exceptions import VerifyException

from loom.dialects import fabric_syntax as fs
from loom.dialects.fabric_graph import MODULE, PES, TOP, check_graph, check_module_level, parent_name
from loom.dialects.fabric_types import is_native_fu_type

FU_BODY_OPS = frozenset({
    "fabric.mux",
    *(f"arith.{n}" for n in (
        "addf addi andi cmpf cmpi divf divsi divui extsi extui fptosi fptoui index_cast "
        "index_castui mulf muli negf ori remsi remui select shli shrsi shrui sitofp subf "
        "subi trunci uitofp xori").split()),
    *(f"math.{n}" for n in "absf cos exp floor fma log2 sin sqrt".split()),
    "llvm.intr.bitreverse",
    *(f"dataflow.{n}" for n in "carry gate invariant stream".split()),
    *(f"handshake.{n}" for n in "cond_br constant join load mux store".split()),
    *(f"arith.{n}" for n in "extf truncf minnumf maxnumf".split()),
})
"""Ops a function unit body may hold: LOOM's isAllowedFunctionUnitBodyOp,
and four float ops LOOM's list lacks (the last line: float <-> double,
fminf/fmaxf), which C kernels need and which have the direct flow's units
(docs/fabric/function_unit.md, "Beyond LOOM's allowlist"). LOOM's files
read the same; an ADG holding these four is ours only."""

DATAFLOW_OPS = ("dataflow.carry", "dataflow.gate", "dataflow.invariant", "dataflow.stream")
MAX_JOIN_FANIN = 64


def _body_block(op: IRDLOperation) -> Block:
    block = op.regions[0].blocks.first
    if block is None:
        raise VerifyException("requires a body block")
    return block


def _yield_of(op: IRDLOperation) -> IRDLOperation:
    last = _body_block(op).last_op
    if last is None or last.name != "fabric.yield":
        raise VerifyException("expected fabric.yield terminator")
    return last  # type: ignore[return-value]


# --- function_unit -----------------------------------------------------------------


@irdl_op_definition
class FunctionUnitOp(IRDLOperation):
    """A unit of computation inside a PE; ports use native types."""

    name = "fabric.function_unit"
    HW_PARAMS: ClassVar[tuple[fs.HwParam, ...]] = (fs.HwParam("latency"), fs.HwParam("interval"))

    body = region_def()

    @classmethod
    def parse(cls, parser: Parser) -> FunctionUnitOp:
        attrs: dict[str, Attribute] = {"sym_name": parser.parse_symbol_name()}
        args, ftype = fs.parse_signature(parser)
        attrs["function_type"] = ftype
        attrs |= fs.parse_hw_params(parser, cls.HW_PARAMS, "FU")
        attrs |= fs.parse_runtime_attrs(parser, bare=False)
        region = parser.parse_region(args)
        return cls.create(attributes=attrs, regions=[region])

    def print(self, printer: Printer) -> None:
        fs.print_symbol(printer, self)
        fs.print_signature(printer, _body_block(self), fs.function_type(self))
        fs.print_hw_params(printer, self, self.HW_PARAMS)
        fs.print_runtime_attrs(printer, self, ("sym_name", "function_type", "latency",
                                               "interval"))
        printer.print_string(" ")
        printer.print_region(self.body, print_entry_block_args=False)

    def verify_(self) -> None:
        if parent_name(self) not in (TOP, MODULE, *PES):
            raise VerifyException(
                "must appear directly inside the top-level module, fabric.module, "
                "fabric.spatial_pe, or fabric.temporal_pe"
            )
        latency, interval = self._timing()
        yield_op = _yield_of(self)
        ftype = fs.function_type(self)
        _check_native(ftype)
        _check_yield(yield_op, ftype)
        body_ops = [o for o in _body_block(self).ops if o is not yield_op]
        dataflow = _check_body_ops(body_ops)
        if not body_ops:
            raise VerifyException(
                "function_unit body must contain at least one non-terminator operation"
            )
        if any(not arg.uses for arg in _body_block(self).args):
            raise VerifyException("all function_unit arguments must be consumed by the body")
        _check_timing(latency, interval, body_ops, dataflow)
        check_graph(self)

    def _timing(self) -> tuple[int, int]:
        latency = fs.int_param(self, "latency")
        interval = fs.int_param(self, "interval")
        if latency is None or interval is None:
            raise VerifyException("must specify both latency and interval hardware parameters")
        if latency < -1:
            raise VerifyException("latency must be -1 or at least 0")
        if interval < -1 or interval == 0:
            raise VerifyException("interval must be -1 or at least 1")
        return latency, interval

    @property
    def latency(self) -> int:
        return fs.int_param(self, "latency") or 0

    @property
    def interval(self) -> int:
        return fs.int_param(self, "interval") or 0


def _check_native(ftype: FunctionType) -> None:
    for role, types in (("inputs", ftype.inputs.data), ("results", ftype.outputs.data)):
        for t in types:
            if not is_native_fu_type(t):
                raise VerifyException(
                    f"function_unit {role} must use native semantic types, but got '{t}'"
                )


def _check_yield(yield_op: IRDLOperation, ftype: FunctionType) -> None:
    outs = ftype.outputs.data
    if len(yield_op.operands) != len(outs):
        raise VerifyException("yield operand count mismatch with function_unit results")
    for i, (value, t) in enumerate(zip(yield_op.operands, outs)):
        if value.type != t:
            raise VerifyException(
                f"yield operand {i} type mismatch with function_unit result: got "
                f"'{value.type}', expected '{t}'"
            )
    if any(isinstance(v, BlockArgument) for v in yield_op.operands):
        raise VerifyException(
            "passthrough function_unit is illegal; fabric.yield operands must not be "
            "direct block arguments"
        )


def _check_body_ops(body_ops: list) -> list[str]:
    """Allowed ops on native types; returns the dataflow ops met."""
    dataflow: list[str] = []
    for op in body_ops:
        if op.name not in FU_BODY_OPS:
            raise VerifyException(
                f"operation '{op.name}' is not allowed inside fabric.function_unit"
            )
        for role, types in (("operand", op.operand_types), ("result", op.result_types)):
            for t in types:
                if not is_native_fu_type(t):
                    raise VerifyException(
                        f"operation '{op.name}' inside fabric.function_unit uses illegal "
                        f"{role} type '{t}'"
                    )
        if op.name == "handshake.join":
            if not op.operands:
                raise VerifyException(
                    "handshake.join inside fabric.function_unit requires at least one input"
                )
            if len(op.operands) > MAX_JOIN_FANIN:
                raise VerifyException(
                    f"handshake.join inside fabric.function_unit supports at most "
                    f"{MAX_JOIN_FANIN} inputs"
                )
        if op.name in DATAFLOW_OPS:
            dataflow.append(op.name)
    return dataflow


def _check_timing(latency: int, interval: int, body_ops: list, dataflow: list[str]) -> None:
    """Seed 001 / LOOM: a dataflow FU is exactly one dataflow op at -1/-1."""
    if dataflow:
        name = dataflow[-1]
        if len(body_ops) != 1 or len(dataflow) != 1:
            raise VerifyException(
                f"function_unit containing {name} must contain exactly one non-terminator "
                f"dataflow operation and no other body ops"
            )
        if latency != -1 or interval != -1:
            raise VerifyException(
                f"function_unit containing {name} must use latency = -1 and interval = -1"
            )
    elif latency == -1 or interval == -1:
        raise VerifyException(
            "latency = -1 and interval = -1 are reserved for dedicated dataflow "
            "function_units"
        )


# --- fabric.mux ---------------------------------------------------------------------


@irdl_op_definition
class MuxOp(IRDLOperation):
    """A configuration-time select inside a function unit (M:1 or 1:M)."""

    name = "fabric.mux"

    inputs = var_operand_def()
    outputs = var_result_def()

    @classmethod
    def parse(cls, parser: Parser) -> MuxOp:
        operands = parser.parse_comma_separated_list(
            parser.Delimiter.NONE, parser.parse_unresolved_operand
        )
        attrs = dict(parser.parse_optional_attr_dict())
        parser.parse_punctuation(":")
        in_types = parser.parse_comma_separated_list(parser.Delimiter.NONE, parser.parse_type)
        parser.parse_punctuation("->")
        out_types = parser.parse_comma_separated_list(parser.Delimiter.NONE, parser.parse_type)
        values = fs.resolve_all(parser, operands, in_types, cls.name)
        return cls.create(operands=values, result_types=out_types, attributes=attrs)

    def print(self, printer: Printer) -> None:
        printer.print_string(" ")
        printer.print_list(self.operands, printer.print_operand)
        printer.print_op_attributes(self.attributes)
        printer.print_string(" : ")
        printer.print_list(self.operand_types, printer.print_attribute)
        printer.print_string(" -> ")
        printer.print_list(self.result_types, printer.print_attribute)

    def verify_(self) -> None:
        if parent_name(self) != "fabric.function_unit":
            raise VerifyException("must appear directly inside fabric.function_unit")
        n_in, n_out = len(self.operands), len(self.results)
        if n_in == 0 or n_out == 0:
            raise VerifyException("must have at least one input and one result")
        if n_in > 1 and n_out > 1:
            raise VerifyException("must be either M:1 or 1:M, not M:N")
        first = self.operand_types[0]
        if any(t != first for t in self.operand_types):
            raise VerifyException("requires all input types to match")
        if any(t != first for t in self.result_types):
            raise VerifyException("requires all result types to match input types")
        sel = fs.int_param(self, "sel")
        if sel is None:
            raise VerifyException("requires a sel attribute")
        discard = fs.bool_param(self, "discard")
        disconnect = fs.bool_param(self, "disconnect")
        if n_in == 1 and n_out == 1 and (discard or disconnect):
            raise VerifyException("1:1 mux cannot set discard or disconnect")
        fanout = max(n_in, n_out)
        if not disconnect and not 0 <= sel < fanout:
            raise VerifyException(f"sel out of range for {fanout}-way mux")


# --- PEs ----------------------------------------------------------------------------


class _PEBase(IRDLOperation):
    """Shared syntax of spatial and temporal PEs (definition or inline form)."""

    HW_PARAMS: ClassVar[tuple[fs.HwParam, ...]] = ()

    inputs = var_operand_def()
    outputs = var_result_def()
    body = region_def()

    @classmethod
    def _parse_inline(cls, parser: Parser, attrs: dict[str, Attribute]) -> _PEBase:
        attrs[fs.INLINE] = UnitAttr()
        operands = parser.parse_comma_separated_list(
            parser.Delimiter.PAREN, parser.parse_unresolved_operand
        )
        attrs |= fs.parse_runtime_attrs(parser)
        ftype = fs.parse_function_type(parser)
        attrs["function_type"] = ftype
        values = fs.resolve_all(parser, operands, ftype.inputs.data, cls.name)
        region = parser.parse_region()
        return cls.create(operands=values, result_types=list(ftype.outputs.data),
                          attributes=attrs, regions=[region])

    def print(self, printer: Printer) -> None:
        fs.print_symbol(printer, self)
        ftype = fs.function_type(self)
        reserved = ("sym_name", "function_type", *(p.attr_name for p in self.HW_PARAMS))
        if fs.is_inline(self):
            fs.print_hw_params(printer, self, self.HW_PARAMS)
            printer.print_string(" inputs")
            printer.print_operands(self.operands)
            fs.print_runtime_attrs(printer, self, reserved)
            fs.print_function_type(printer, ftype)
        else:
            fs.print_signature(printer, _body_block(self), ftype)
            fs.print_hw_params(printer, self, self.HW_PARAMS)
            fs.print_runtime_attrs(printer, self, reserved)
        printer.print_string(" ")
        printer.print_region(self.body, print_entry_block_args=False)

    def verify_(self) -> None:
        check_module_level(self)
        self.verify_pe()
        check_graph(self)

    def verify_pe(self) -> None:
        """Rules of the PE kind."""

    @property
    def sym_name(self) -> str | None:
        name = self.attributes.get("sym_name")
        return name.data if isinstance(name, StringAttr) else None


@irdl_op_definition
class SpatialPEOp(_PEBase):
    """A PE with one active function unit, chosen by its opcode."""

    name = "fabric.spatial_pe"

    @classmethod
    def parse(cls, parser: Parser) -> SpatialPEOp:
        attrs: dict[str, Attribute] = {}
        if (name := parser.parse_optional_symbol_name()) is not None:
            attrs["sym_name"] = name
        if parser.parse_optional_keyword("inputs"):
            return cls._parse_inline(parser, attrs)  # type: ignore[return-value]
        args, ftype = fs.parse_signature(parser)
        attrs["function_type"] = ftype
        attrs |= fs.parse_runtime_attrs(parser, bare=False)
        region = parser.parse_region(args)
        return cls.create(result_types=[], attributes=attrs, regions=[region])


@irdl_op_definition
class TemporalPEOp(_PEBase):
    """A time-multiplexed PE (instruction slots by tag); parsed, not mapped."""

    name = "fabric.temporal_pe"
    HW_PARAMS: ClassVar[tuple[fs.HwParam, ...]] = (
        fs.HwParam("num_register"),
        fs.HwParam("num_instruction"),
        fs.HwParam("reg_fifo_depth"),
        fs.HwParam("enable_share_operand_buffer"),
        fs.HwParam("operand_buffer_size"),
    )

    @classmethod
    def parse(cls, parser: Parser) -> TemporalPEOp:
        attrs: dict[str, Attribute] = {}
        if (name := parser.parse_optional_symbol_name()) is not None:
            attrs["sym_name"] = name
        if parser._current_token.text == "(":  # pyright: ignore[reportPrivateUsage]
            args, ftype = fs.parse_signature(parser)
            attrs["function_type"] = ftype
            attrs |= cls._parse_params(parser)
            attrs |= fs.parse_runtime_attrs(parser, bare=False)
            region = parser.parse_region(args)
            return cls.create(result_types=[], attributes=attrs, regions=[region])
        attrs |= cls._parse_params(parser)
        if not parser.parse_optional_keyword("inputs"):
            parser.raise_error("expected '(' for a temporal_pe definition or 'inputs' for "
                               "inline instantiation")
        return cls._parse_inline(parser, attrs)  # type: ignore[return-value]

    @classmethod
    def _parse_params(cls, parser: Parser) -> dict[str, Attribute]:
        pos = parser.pos
        if parser._current_token.text != "[":  # pyright: ignore[reportPrivateUsage]
            parser.raise_error("expected temporal_pe hardware parameters in []")
        attrs = fs.parse_hw_params(parser, cls.HW_PARAMS, "temporal_pe")
        if not {"num_register", "num_instruction", "reg_fifo_depth"} <= attrs.keys():
            parser.raise_error("temporal_pe hardware parameters must include num_register, "
                               "num_instruction, and reg_fifo_depth", pos, parser.pos)
        return attrs

    def verify_pe(self) -> None:
        n_instr = fs.int_param(self, "num_instruction") or 0
        n_reg = fs.int_param(self, "num_register") or 0
        depth = fs.int_param(self, "reg_fifo_depth") or 0
        if n_instr <= 0:
            raise VerifyException("num_instruction must be greater than 0")
        if n_reg < 0:
            raise VerifyException("num_register must be greater than or equal to 0")
        if depth < 0:
            raise VerifyException("reg_fifo_depth must be greater than or equal to 0")
        if n_reg == 0 and depth != 0:
            raise VerifyException("reg_fifo_depth must be 0 when num_register is 0")
        if n_reg > 0 and depth < 1:
            raise VerifyException(
                "reg_fifo_depth must be at least 1 when num_register is greater than 0"
            )
        size = fs.int_param(self, "operand_buffer_size")
        if fs.bool_param(self, "enable_share_operand_buffer"):
            if size is None:
                raise VerifyException(
                    "operand_buffer_size must be present when enable_share_operand_buffer "
                    "is true"
                )
            if not 1 <= size <= 8192:
                raise VerifyException("operand_buffer_size must be in range [1, 8192]")
        elif size is not None:
            raise VerifyException(
                "operand_buffer_size must be absent when enable_share_operand_buffer is false"
            )

