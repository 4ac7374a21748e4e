"""The `handshake` dialect in the CIRCT/LOOM textual syntax (design.md section 3).

Every op prints fully qualified (`handshake.fork`); inside a `handshake.func`
body the unqualified form (`fork [2] %x : i32`) also parses. Every DFG edge
type may be native shorthand (`i32`, `none`) or explicit (seed 004's
`!handshake.channel<...>` / `!handshake.control`, see channel_types.py).

Where the syntax leaves a control or condition operand's type implicit
(cond_br's condition, load/store/constant's ctrl, join/source's result) it
defaults to `i1` / `none`; any other type is printed as an extra type so the
text still round-trips:

    %t, %f = handshake.cond_br %c, %x : i32                  (condition i1)
    %t, %f = handshake.cond_br %c, %x : !handshake.channel<i1>, i32
    %d, %a = handshake.load [%i] %m, %ctrl : index, i32      (ctrl none)
    %d, %a = handshake.load [%i] %m, %ctrl : index, i32, !handshake.control
    %c = handshake.constant %ctrl {value = 1 : i32} : !handshake.control, i32
    %j = handshake.join %a, %b : none, i32 -> !handshake.control
    %s = handshake.source : !handshake.control

This module holds the function, return and token-routing ops and the
`Handshake` dialect; the memory ops live in handshake_memory.py and seed
004's bundle/unbundle/compose/decompose in handshake_channels.py (all are
re-exported here, so `handshake.LoadOp` works).
"""

from __future__ import annotations

from collections.abc import Sequence

from xdsl.dialects.builtin import (
    ArrayAttr,
    FloatAttr,
    FunctionType,
    IndexType,
    IntegerAttr,
    MemRefType,
    NoneType,
    StringAttr,
    SymbolNameConstraint,
    i1,
    i64,
)
from xdsl.dialects.utils import parse_func_op_like, print_func_op_like
from xdsl.ir import Attribute, Block, Dialect, Region, SSAValue
from xdsl.irdl import (
    IRDLOperation,
    attr_def,
    irdl_op_definition,
    operand_def,
    opt_prop_def,
    prop_def,
    region_def,
    result_def,
    traits_def,
    var_operand_def,
    var_result_def,
)
from xdsl.parser import Parser
from xdsl.printer import Printer
from xdsl.traits import HasParent, IsolatedFromAbove, IsTerminator, SymbolOpInterface
from xdsl.utils.exceptions import VerifyException

from loom import floats
from loom.dialects import syntax
from loom.dialects.channel_types import (
    ChannelType,
    ControlType,
    ExtraSignalAttr,
    check_edge_type,
    data_type,
    data_width,
)
from loom.dialects.edge_checks import (
    check_all_same,
    check_condition,
    check_control,
    check_same,
    check_select,
)
from loom.dialects.handshake_channels import BundleOp, ComposeOp, DecomposeOp, UnbundleOp
from loom.dialects.handshake_memory import ExternalMemoryOp, LoadOp, LoadStoreQueueOp, MemoryOp, StoreOp

BUFFER_TYPES: tuple[str, ...] = ("seq", "fifo")


# --- function and return ---------------------------------------------------------------


@irdl_op_definition
class FuncOp(IRDLOperation):
    """`handshake.func @name(%a: T, ...) -> (R, ...) attributes {...} { ... }`."""

    name = "handshake.func"

    body = region_def("single_block")
    sym_name = prop_def(SymbolNameConstraint())
    function_type = prop_def(FunctionType)
    arg_attrs = opt_prop_def(ArrayAttr)
    res_attrs = opt_prop_def(ArrayAttr)

    traits = traits_def(IsolatedFromAbove(), SymbolOpInterface())

    def __init__(
        self,
        name: str,
        inputs: Sequence[Attribute],
        outputs: Sequence[Attribute],
        region: Region | None = None,
        attributes: dict[str, Attribute] | None = None,
    ):
        if region is None:
            region = Region(Block(arg_types=inputs))
        super().__init__(
            properties={
                "sym_name": StringAttr(name),
                "function_type": FunctionType.from_lists(inputs, outputs),
            },
            attributes=attributes or {},
            regions=[region],
        )

    @property
    def arg_names(self) -> list[str] | None:
        return _names(self.attributes.get("arg_names"))

    @property
    def res_names(self) -> list[str] | None:
        return _names(self.attributes.get("res_names"))

    @classmethod
    def parse(cls, parser: Parser) -> FuncOp:
        # LOOM (like CIRCT) may print a trailing `...` in the argument list; it
        # carries no meaning for a handshake.func and is dropped.
        name, inputs, outputs, region, extra, arg_attrs, res_attrs, _ = parse_func_op_like(
            parser, reserved_attr_names=("sym_name", "function_type"), allow_variadic=True
        )
        props: dict[str, Attribute] = {
            "sym_name": StringAttr(name),
            "function_type": FunctionType.from_lists(inputs, outputs),
        }
        if arg_attrs is not None:
            props["arg_attrs"] = arg_attrs
        if res_attrs is not None:
            props["res_attrs"] = res_attrs
        attrs = dict(extra.data) if extra is not None else {}
        return cls.create(properties=props, attributes=attrs, regions=[region])

    def print(self, printer: Printer) -> None:
        print_func_op_like(
            printer,
            self.sym_name,
            self.function_type,
            self.body,
            self.attributes,
            arg_attrs=self.arg_attrs,  # type: ignore[arg-type]
            res_attrs=self.res_attrs,  # type: ignore[arg-type]
            reserved_attr_names=("sym_name", "function_type", "arg_attrs", "res_attrs"),
        )

    def verify_(self) -> None:
        if len(self.body.blocks) != 1:
            raise VerifyException("must have a body with exactly one block")
        block = self.body.block
        inputs = self.function_type.inputs.data
        if tuple(block.arg_types) != inputs:
            raise VerifyException(
                "entry block arguments must have the function's input types"
            )
        for i, t in enumerate(inputs):
            if not isinstance(t, MemRefType):
                check_edge_type(t, f"argument #{i}")
        for key, count in (("arg_names", len(inputs)),
                           ("res_names", len(self.function_type.outputs))):
            if key in self.attributes:
                names = self.attributes[key]
                if not isinstance(names, ArrayAttr) or not all(
                    isinstance(n, StringAttr) for n in names
                ):
                    raise VerifyException(f"{key} must be an array of strings")
                if len(names) != count:
                    raise VerifyException(f"{key} has {len(names)} entries, expected {count}")
        ret = block.last_op
        if not isinstance(ret, ReturnOp):
            raise VerifyException("body must end with handshake.return")
        outputs = self.function_type.outputs.data
        if len(ret.operands) != len(outputs):
            raise VerifyException(
                f"handshake.return has {len(ret.operands)} operands, "
                f"the function returns {len(outputs)} values"
            )
        for i, (v, t) in enumerate(zip(ret.operands, outputs)):
            check_same(v.type, t, f"return value #{i}")


def _names(attr: Attribute | None) -> list[str] | None:
    if not isinstance(attr, ArrayAttr):
        return None
    return [a.data for a in attr if isinstance(a, StringAttr)]


@irdl_op_definition
class ReturnOp(IRDLOperation):
    """`handshake.return %a, %b : T1, T2` (also with no operands)."""

    name = "handshake.return"

    values = var_operand_def()

    traits = traits_def(IsTerminator(), HasParent(FuncOp))

    def __init__(self, values: Sequence[SSAValue] = ()):
        super().__init__(operands=[values])

    @classmethod
    def parse(cls, parser: Parser) -> ReturnOp:
        operands = syntax.parse_operands(parser)
        attrs = syntax.parse_attr_dict(parser)
        types = syntax.parse_types(parser) if parser.parse_optional_punctuation(":") else []
        values = syntax.resolve(parser, operands, types, cls.name)
        return cls.create(operands=values, attributes=attrs)

    def print(self, printer: Printer) -> None:
        if self.values:
            printer.print_string(" ")
            syntax.print_operands(printer, self.values)
        syntax.print_attr_dict(printer, self.attributes)
        if self.values:
            printer.print_string(" : ")
            syntax.print_types(printer, [v.type for v in self.values])

    def verify_(self) -> None:
        for i, v in enumerate(self.values):
            check_edge_type(v.type, f"operand #{i}")


# --- token routing ---------------------------------------------------------------------


class _ForkLike(IRDLOperation):
    """`%o:N = op [N] %x attr-dict : T`."""

    operand = operand_def()
    outputs = var_result_def()

    def __init__(self, operand: SSAValue, count: int):
        super().__init__(operands=[operand], result_types=[[operand.type] * count])

    @classmethod
    def parse(cls, parser: Parser):
        parser.parse_punctuation("[")
        count = parser.parse_integer(allow_negative=False, allow_boolean=False)
        parser.parse_punctuation("]")
        operand = parser.parse_unresolved_operand()
        attrs = syntax.parse_attr_dict(parser)
        parser.parse_punctuation(":")
        t = syntax.parse_types(parser)
        value = syntax.resolve(parser, [operand], t, cls.name)[0]
        if count < 1:
            parser.raise_error(f"{cls.name} needs at least one result, got [{count}]")
        return cls.create(operands=[value], result_types=[t[0]] * count, attributes=attrs)

    def print(self, printer: Printer) -> None:
        printer.print_string(f" [{len(self.results)}] ")
        printer.print_operand(self.operands[0])
        syntax.print_attr_dict(printer, self.attributes)
        printer.print_string(" : ")
        printer.print_attribute(self.operands[0].type)

    def verify_(self) -> None:
        t = self.operands[0].type
        check_edge_type(t, "operand")
        if not self.results:
            raise VerifyException("needs at least one result")
        check_all_same(self.result_types, t, "result")


@irdl_op_definition
class ForkOp(_ForkLike):
    """Eager fork: copies each token to N outputs, each output independently."""

    name = "handshake.fork"


@irdl_op_definition
class LazyForkOp(_ForkLike):
    """Lazy fork: outputs fire together once all are ready."""

    name = "handshake.lazy_fork"


@irdl_op_definition
class JoinOp(IRDLOperation):
    """`%j = handshake.join %a, %b : none, i32`: one none token when all arrived."""

    name = "handshake.join"

    data_operands = var_operand_def()
    result = result_def()

    def __init__(self, operands: Sequence[SSAValue]):
        super().__init__(operands=[operands], result_types=[NoneType()])

    @classmethod
    def parse(cls, parser: Parser) -> JoinOp:
        operands = syntax.parse_operands(parser)
        attrs = syntax.parse_attr_dict(parser)
        parser.parse_punctuation(":")
        types = syntax.parse_types(parser)
        result: Attribute = NoneType()
        if parser.parse_optional_punctuation("->"):
            result = syntax.parse_types(parser)[0]
        values = syntax.resolve(parser, operands, types, cls.name)
        return cls.create(operands=values, result_types=[result], attributes=attrs)

    def print(self, printer: Printer) -> None:
        syntax.print_operands_and_types(printer, self, self.operand_types)
        if not isinstance(self.result.type, NoneType):
            printer.print_string(" -> ")
            printer.print_attribute(self.result.type)

    def verify_(self) -> None:
        if not self.operands:
            raise VerifyException("needs at least one operand")
        for i, t in enumerate(self.operand_types):
            check_edge_type(t, f"operand #{i}")
        check_control(self.result.type, "result")


@irdl_op_definition
class SyncOp(IRDLOperation):
    """`%s:2 = handshake.sync %a, %b : none, i32`: passes all once all arrived."""

    name = "handshake.sync"

    data_operands = var_operand_def()
    outputs = var_result_def()

    def __init__(self, operands: Sequence[SSAValue]):
        super().__init__(operands=[operands], result_types=[[v.type for v in operands]])

    @classmethod
    def parse(cls, parser: Parser) -> SyncOp:
        operands = syntax.parse_operands(parser)
        attrs = syntax.parse_attr_dict(parser)
        parser.parse_punctuation(":")
        types = syntax.parse_types(parser)
        values = syntax.resolve(parser, operands, types, cls.name)
        return cls.create(operands=values, result_types=types, attributes=attrs)

    def print(self, printer: Printer) -> None:
        syntax.print_operands_and_types(printer, self, self.operand_types)

    def verify_(self) -> None:
        if not self.operands:
            raise VerifyException("needs at least one operand")
        if len(self.results) != len(self.operands):
            raise VerifyException(
                f"has {len(self.results)} results for {len(self.operands)} operands"
            )
        for i, (t, r) in enumerate(zip(self.operand_types, self.result_types)):
            check_edge_type(t, f"operand #{i}")
            check_same(r, t, f"result #{i}")


@irdl_op_definition
class MergeOp(IRDLOperation):
    """`%m = handshake.merge %a, %b : T`: forwards whichever input arrives."""

    name = "handshake.merge"

    data_operands = var_operand_def()
    result = result_def()

    def __init__(self, operands: Sequence[SSAValue]):
        super().__init__(operands=[operands], result_types=[operands[0].type])

    @classmethod
    def parse(cls, parser: Parser) -> MergeOp:
        operands = syntax.parse_operands(parser)
        attrs = syntax.parse_attr_dict(parser)
        parser.parse_punctuation(":")
        t = syntax.parse_types(parser)
        if len(t) != 1:
            parser.raise_error(f"{cls.name} takes one type (all inputs share it)")
        values = syntax.resolve(parser, operands, t * len(operands), cls.name)
        return cls.create(operands=values, result_types=t, attributes=attrs)

    def print(self, printer: Printer) -> None:
        printer.print_string(" ")
        syntax.print_operands(printer, self.operands)
        syntax.print_attr_dict(printer, self.attributes)
        printer.print_string(" : ")
        printer.print_attribute(self.result.type)

    def verify_(self) -> None:
        if not self.operands:
            raise VerifyException("needs at least one operand")
        t = self.result.type
        check_edge_type(t, "result")
        check_all_same(self.operand_types, t, "operand")


@irdl_op_definition
class ControlMergeOp(IRDLOperation):
    """`%r, %i = handshake.control_merge %a, %b : T, I`: merge plus the input index."""

    name = "handshake.control_merge"

    data_operands = var_operand_def()
    result = result_def()
    index = result_def()

    def __init__(self, operands: Sequence[SSAValue], index_type: Attribute = IndexType()):
        super().__init__(operands=[operands], result_types=[operands[0].type, index_type])

    @classmethod
    def parse(cls, parser: Parser) -> ControlMergeOp:
        operands = syntax.parse_operands(parser)
        attrs = syntax.parse_attr_dict(parser)
        parser.parse_punctuation(":")
        types = syntax.parse_types(parser)
        if len(types) != 2:
            parser.raise_error(f"{cls.name} takes two types: data type, index type")
        values = syntax.resolve(parser, operands, [types[0]] * len(operands), cls.name)
        return cls.create(operands=values, result_types=types, attributes=attrs)

    def print(self, printer: Printer) -> None:
        syntax.print_operands_and_types(printer, self, self.result_types)

    def verify_(self) -> None:
        if not self.operands:
            raise VerifyException("needs at least one operand")
        t = self.result.type
        check_edge_type(t, "result")
        check_all_same(self.operand_types, t, "operand")
        check_select(self.index.type, len(self.operands), "index result")


@irdl_op_definition
class MuxOp(IRDLOperation):
    """`%r = handshake.mux %sel [%a, %b] : S, T`: forwards input number sel."""

    name = "handshake.mux"

    select = operand_def()
    data_operands = var_operand_def()
    result = result_def()

    def __init__(self, select: SSAValue, operands: Sequence[SSAValue]):
        super().__init__(operands=[select, operands], result_types=[operands[0].type])

    @classmethod
    def parse(cls, parser: Parser) -> MuxOp:
        select = parser.parse_unresolved_operand()
        operands = parser.parse_comma_separated_list(
            parser.Delimiter.SQUARE, parser.parse_unresolved_operand
        )
        attrs = syntax.parse_attr_dict(parser)
        parser.parse_punctuation(":")
        types = syntax.parse_types(parser)
        if len(types) != 2:
            parser.raise_error(f"{cls.name} takes two types: select type, data type")
        sel = parser.resolve_operand(select, types[0])
        values = syntax.resolve(parser, operands, [types[1]] * len(operands), cls.name)
        return cls.create(operands=[sel, *values], result_types=[types[1]], attributes=attrs)

    def print(self, printer: Printer) -> None:
        printer.print_string(" ")
        printer.print_operand(self.select)
        printer.print_string(" [")
        syntax.print_operands(printer, self.data_operands)
        printer.print_string("]")
        syntax.print_attr_dict(printer, self.attributes)
        printer.print_string(" : ")
        syntax.print_types(printer, [self.select.type, self.result.type])

    def verify_(self) -> None:
        if not self.data_operands:
            raise VerifyException("needs at least one data operand")
        t = self.result.type
        check_edge_type(t, "result")
        check_all_same([v.type for v in self.data_operands], t, "data operand")
        check_select(self.select.type, len(self.data_operands), "select")


@irdl_op_definition
class ConditionalBranchOp(IRDLOperation):
    """`%t, %f = handshake.cond_br %c, %x : T`: routes x by the condition."""

    name = "handshake.cond_br"

    condition = operand_def()
    data_operand = operand_def()
    true_result = result_def()
    false_result = result_def()

    def __init__(self, condition: SSAValue, data: SSAValue):
        super().__init__(operands=[condition, data], result_types=[data.type, data.type])

    @classmethod
    def parse(cls, parser: Parser) -> ConditionalBranchOp:
        operands = syntax.parse_operands(parser)
        attrs = syntax.parse_attr_dict(parser)
        parser.parse_punctuation(":")
        types = syntax.parse_types(parser)
        if len(types) == 1:
            types = [i1, types[0]]
        if len(types) != 2:
            parser.raise_error(f"{cls.name} takes a data type (or condition type, data type)")
        values = syntax.resolve(parser, operands, types, cls.name)
        return cls.create(operands=values, result_types=[types[1]] * 2, attributes=attrs)

    def print(self, printer: Printer) -> None:
        printer.print_string(" ")
        syntax.print_operands(printer, self.operands)
        syntax.print_attr_dict(printer, self.attributes)
        printer.print_string(" : ")
        if self.condition.type != i1:
            printer.print_attribute(self.condition.type)
            printer.print_string(", ")
        printer.print_attribute(self.data_operand.type)

    def verify_(self) -> None:
        check_condition(self.condition.type, "condition")
        t = self.data_operand.type
        check_edge_type(t, "data operand")
        check_same(self.true_result.type, t, "true result")
        check_same(self.false_result.type, t, "false result")


@irdl_op_definition
class BufferOp(IRDLOperation):
    """`%b = handshake.buffer [2] seq %x : T` (buffer_type seq or fifo, slots >= 1)."""

    name = "handshake.buffer"

    operand = operand_def()
    result = result_def()
    slots = prop_def(IntegerAttr)
    buffer_type = prop_def(StringAttr)

    def __init__(self, operand: SSAValue, slots: int, buffer_type: str = "seq"):
        super().__init__(
            operands=[operand],
            result_types=[operand.type],
            properties={"slots": IntegerAttr(slots, i64), "buffer_type": StringAttr(buffer_type)},
        )

    @classmethod
    def parse(cls, parser: Parser) -> BufferOp:
        parser.parse_punctuation("[")
        slots = parser.parse_integer(allow_boolean=False)
        parser.parse_punctuation("]")
        kind = parser.parse_identifier(" (buffer type: seq or fifo)")
        operand = parser.parse_unresolved_operand()
        attrs = syntax.parse_attr_dict(parser)
        parser.parse_punctuation(":")
        t = syntax.parse_types(parser)
        value = syntax.resolve(parser, [operand], t, cls.name)[0]
        return cls.create(
            operands=[value],
            result_types=t,
            properties={"slots": IntegerAttr(slots, i64), "buffer_type": StringAttr(kind)},
            attributes=attrs,
        )

    def print(self, printer: Printer) -> None:
        printer.print_string(f" [{self.slots.value.data}] {self.buffer_type.data} ")
        printer.print_operand(self.operand)
        syntax.print_attr_dict(printer, self.attributes)
        printer.print_string(" : ")
        printer.print_attribute(self.result.type)

    def verify_(self) -> None:
        if self.slots.value.data < 1:
            raise VerifyException(f"slots must be >= 1, got {self.slots.value.data}")
        if self.buffer_type.data not in BUFFER_TYPES:
            raise VerifyException(
                f'invalid buffer_type "{self.buffer_type.data}": expected one of '
                f"{' '.join(BUFFER_TYPES)}"
            )
        check_edge_type(self.operand.type, "operand")
        check_same(self.result.type, self.operand.type, "result")


@irdl_op_definition
class ConstantOp(IRDLOperation):
    """`%c = handshake.constant %ctrl {value = 42 : i32} : i32`: value per ctrl token."""

    name = "handshake.constant"

    ctrl = operand_def()
    result = result_def()
    value = attr_def(Attribute)

    def __init__(self, ctrl: SSAValue, value: IntegerAttr | FloatAttr):
        super().__init__(
            operands=[ctrl], result_types=[value.type], attributes={"value": value}
        )

    @classmethod
    def parse(cls, parser: Parser) -> ConstantOp:
        ctrl = parser.parse_unresolved_operand()
        attrs = syntax.parse_attr_dict(parser)
        parser.parse_punctuation(":")
        types = syntax.parse_types(parser)
        if len(types) == 1:
            types = [NoneType(), types[0]]
        if len(types) != 2:
            parser.raise_error(f"{cls.name} takes a result type (or ctrl type, result type)")
        value = parser.resolve_operand(ctrl, types[0])
        return cls.create(operands=[value], result_types=[types[1]], attributes=attrs)

    def print(self, printer: Printer) -> None:
        printer.print_string(" ")
        printer.print_operand(self.ctrl)
        syntax.print_attr_dict(printer, self.attributes)
        printer.print_string(" : ")
        if not isinstance(self.ctrl.type, NoneType):
            printer.print_attribute(self.ctrl.type)
            printer.print_string(", ")
        printer.print_attribute(self.result.type)

    @property
    def bits(self) -> int:
        """The value as the token's bit pattern (a float's IEEE pattern, NaN canonical)."""
        width = data_width(self.result.type)
        if isinstance(self.value, FloatAttr):
            return floats.fmt(width).bits(self.value.value.data)
        assert isinstance(self.value, IntegerAttr)
        return self.value.value.data & ((1 << width) - 1)

    def verify_(self) -> None:
        check_control(self.ctrl.type, "ctrl")
        t = self.result.type
        check_edge_type(t, "result")
        if not isinstance(self.value, IntegerAttr | FloatAttr):
            raise VerifyException(f"value must be an integer or float attribute, got {self.value}")
        if self.value.type != data_type(t):
            raise VerifyException(
                f"value type {self.value.type} does not match result type {t}"
            )


@irdl_op_definition
class SourceOp(IRDLOperation):
    """`%s = handshake.source`: an endless stream of none tokens."""

    name = "handshake.source"

    result = result_def()

    def __init__(self):
        super().__init__(result_types=[NoneType()])

    @classmethod
    def parse(cls, parser: Parser) -> SourceOp:
        attrs = syntax.parse_attr_dict(parser)
        t: Attribute = NoneType()
        if parser.parse_optional_punctuation(":"):
            t = syntax.parse_types(parser)[0]
        return cls.create(result_types=[t], attributes=attrs)

    def print(self, printer: Printer) -> None:
        syntax.print_attr_dict(printer, self.attributes)
        if not isinstance(self.result.type, NoneType):
            printer.print_string(" : ")
            printer.print_attribute(self.result.type)

    def verify_(self) -> None:
        check_control(self.result.type, "result")


@irdl_op_definition
class SinkOp(IRDLOperation):
    """`handshake.sink %x : T`: consumes and discards tokens."""

    name = "handshake.sink"

    operand = operand_def()

    def __init__(self, operand: SSAValue):
        super().__init__(operands=[operand])

    @classmethod
    def parse(cls, parser: Parser) -> SinkOp:
        operand = parser.parse_unresolved_operand()
        attrs = syntax.parse_attr_dict(parser)
        parser.parse_punctuation(":")
        t = syntax.parse_types(parser)
        return cls.create(operands=syntax.resolve(parser, [operand], t, cls.name), attributes=attrs)

    def print(self, printer: Printer) -> None:
        printer.print_string(" ")
        printer.print_operand(self.operand)
        syntax.print_attr_dict(printer, self.attributes)
        printer.print_string(" : ")
        printer.print_attribute(self.operand.type)

    def verify_(self) -> None:
        check_edge_type(self.operand.type, "operand")


Handshake = Dialect(
    "handshake",
    [
        FuncOp,
        ReturnOp,
        ForkOp,
        LazyForkOp,
        JoinOp,
        SyncOp,
        MergeOp,
        ControlMergeOp,
        MuxOp,
        ConditionalBranchOp,
        BufferOp,
        ConstantOp,
        SourceOp,
        SinkOp,
        LoadOp,
        StoreOp,
        ExternalMemoryOp,
        LoadStoreQueueOp,
        MemoryOp,
        BundleOp,
        UnbundleOp,
        ComposeOp,
        DecomposeOp,
    ],
    [ControlType, ChannelType, ExtraSignalAttr],
)
