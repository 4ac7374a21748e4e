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

Memory ports (extmemory/memory) follow seed 000's store-first packing:
operands are, per store, (data, address...) then, per load, (address...);
results are the load data per load, then the store done tokens, then the load
done tokens. `ld_count`/`st_count` are i32 properties (as in CIRCT).
"""

from __future__ import annotations

from collections.abc import Sequence

from xdsl.dialects.builtin import (
    ArrayAttr,
    FloatAttr,
    FunctionType,
    IndexType,
    IntegerAttr,
    IntegerType,
    MemRefType,
    NoneType,
    StringAttr,
    SymbolNameConstraint,
    i1,
    i32,
    i64,
)
from xdsl.dialects.utils import parse_func_op_like, print_func_op_like
from xdsl.ir import Attribute, Block, Dialect, Operation, Region, SSAValue
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
from xdsl.parser import Parser, UnresolvedOperand
from xdsl.printer import Printer
from xdsl.traits import HasParent, IsolatedFromAbove, IsTerminator, SymbolOpInterface
from xdsl.utils.exceptions import VerifyException

from loom.dialects import syntax
from loom.dialects.channel_types import (
    ChannelType,
    ControlType,
    ExtraSignalAttr,
    canonical_type,
    check_edge_type,
    data_type,
    data_width,
    is_control,
    same_edge_type,
)

BUFFER_TYPES: tuple[str, ...] = ("seq", "fifo")


# --- shared checks -------------------------------------------------------------------


def _check_control(t: Attribute, what: str) -> None:
    if not is_control(t):
        raise VerifyException(f"{what} must be none or !handshake.control, got {t}")


def _check_condition(t: Attribute, what: str) -> None:
    if canonical_type(t) != ChannelType(i1):
        raise VerifyException(f"{what} must be i1 (or !handshake.channel<i1>), got {t}")


def _check_same(t: Attribute, expected: Attribute, what: str) -> None:
    if not same_edge_type(t, expected):
        raise VerifyException(f"{what} has type {t}, expected {expected}")


def _check_all_same(types: Sequence[Attribute], expected: Attribute, what: str) -> None:
    for i, t in enumerate(types):
        _check_same(t, expected, f"{what} #{i}")


def _check_select(t: Attribute, n: int, what: str) -> None:
    """An index/integer select able to name `n` inputs."""
    check_edge_type(t, what)
    if not isinstance(data_type(t), IntegerType | IndexType):
        raise VerifyException(f"{what} must be an integer or index, got {t}")
    need = max(1, (n - 1).bit_length())
    if data_width(t) < need:
        raise VerifyException(f"{what} type {t} is too narrow for {n} inputs (needs {need} bits)")


def _check_address(t: Attribute, what: str) -> None:
    check_edge_type(t, what)
    if not isinstance(data_type(t), IntegerType | IndexType):
        raise VerifyException(f"{what} must be an index or integer, got {t}")


def _int_prop(value: int, type: IntegerType = i64) -> IntegerAttr:
    return IntegerAttr(value, type)


def _defined_before(value: SSAValue, op: Operation) -> bool:
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
        name, inputs, outputs, region, extra, arg_attrs, res_attrs = parse_func_op_like(
            parser, reserved_attr_names=("sym_name", "function_type")
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
            _check_same(v.type, t, f"return value #{i}")


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
        _check_all_same(self.result_types, t, "result")


@irdl_op_definition
class ForkOp(_ForkLike):
    """Eager fork: copies each token to N outputs, each output independently."""

    name = "handshake.fork"

    operand = operand_def()
    outputs = var_result_def()

    def __init__(self, operand: SSAValue, count: int):
        super().__init__(operands=[operand], result_types=[[operand.type] * count])


@irdl_op_definition
class LazyForkOp(_ForkLike):
    """Lazy fork: outputs fire together once all are ready."""

    name = "handshake.lazy_fork"

    operand = operand_def()
    outputs = var_result_def()

    def __init__(self, operand: SSAValue, count: int):
        super().__init__(operands=[operand], result_types=[[operand.type] * count])


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
        printer.print_string(" ")
        syntax.print_operands(printer, self.operands)
        syntax.print_attr_dict(printer, self.attributes)
        printer.print_string(" : ")
        syntax.print_types(printer, self.operand_types)
        if not isinstance(self.result.type, NoneType):
            printer.print_string(" -> ")
            printer.print_attribute(self.result.type)

    def verify_(self) -> None:
        if not self.operands:
            raise VerifyException("needs at least one operand")
        for i, t in enumerate(self.operand_types):
            check_edge_type(t, f"operand #{i}")
        _check_control(self.result.type, "result")


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
        printer.print_string(" ")
        syntax.print_operands(printer, self.operands)
        syntax.print_attr_dict(printer, self.attributes)
        printer.print_string(" : ")
        syntax.print_types(printer, self.operand_types)

    def verify_(self) -> None:
        if not self.operands:
            raise VerifyException("needs at least one operand")
        if len(self.results) != len(self.operands):
            raise VerifyException(
                f"has {len(self.results)} results for {len(self.operands)} operands"
            )
        for i, (t, r) in enumerate(zip(self.operand_types, self.result_types)):
            check_edge_type(t, f"operand #{i}")
            _check_same(r, t, f"result #{i}")


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
        _check_all_same(self.operand_types, t, "operand")


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
        printer.print_string(" ")
        syntax.print_operands(printer, self.operands)
        syntax.print_attr_dict(printer, self.attributes)
        printer.print_string(" : ")
        syntax.print_types(printer, self.result_types)

    def verify_(self) -> None:
        if not self.operands:
            raise VerifyException("needs at least one operand")
        t = self.result.type
        check_edge_type(t, "result")
        _check_all_same(self.operand_types, t, "operand")
        _check_select(self.index.type, len(self.operands), "index result")


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
        _check_all_same([v.type for v in self.data_operands], t, "data operand")
        _check_select(self.select.type, len(self.data_operands), "select")


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
        _check_condition(self.condition.type, "condition")
        t = self.data_operand.type
        check_edge_type(t, "data operand")
        _check_same(self.true_result.type, t, "true result")
        _check_same(self.false_result.type, t, "false result")


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
            properties={"slots": _int_prop(slots), "buffer_type": StringAttr(buffer_type)},
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
            properties={"slots": _int_prop(slots), "buffer_type": StringAttr(kind)},
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
        _check_same(self.result.type, self.operand.type, "result")


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

    def verify_(self) -> None:
        _check_control(self.ctrl.type, "ctrl")
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
        _check_control(self.result.type, "result")


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


# --- memory access ---------------------------------------------------------------------


class _AccessOp(IRDLOperation):
    """`%d, %a... = op [%addr...] %data, %ctrl attr-dict : A, D (, C)?`."""

    @classmethod
    def parse(cls, parser: Parser):
        addresses = parser.parse_comma_separated_list(
            parser.Delimiter.SQUARE, parser.parse_unresolved_operand
        )
        rest = syntax.parse_operands(parser)
        attrs = syntax.parse_attr_dict(parser)
        parser.parse_punctuation(":")
        types = syntax.parse_types(parser)
        if len(types) == 2:
            types.append(NoneType())
        if len(types) != 3:
            parser.raise_error(
                f"{cls.name} takes types: address type, data type (, ctrl type)"
            )
        addr_t, data_t, ctrl_t = types
        if len(rest) != 2:
            parser.raise_error(f"{cls.name} takes [addresses] then data and ctrl operands")
        values = syntax.resolve(
            parser, [*addresses, *rest], [addr_t] * len(addresses) + [data_t, ctrl_t], cls.name
        )
        return cls.create(
            operands=values,
            result_types=[data_t] + [addr_t] * len(addresses),
            attributes=attrs,
        )

    def print(self, printer: Printer) -> None:
        addresses = self.operands[:-2]
        printer.print_string(" [")
        syntax.print_operands(printer, addresses)
        printer.print_string("] ")
        syntax.print_operands(printer, self.operands[-2:])
        syntax.print_attr_dict(printer, self.attributes)
        printer.print_string(" : ")
        types = [addresses[0].type if addresses else IndexType(), self.operands[-2].type]
        if not isinstance(self.operands[-1].type, NoneType):
            types.append(self.operands[-1].type)
        syntax.print_types(printer, types)

    def _verify_access(self, data_in: Attribute, data_out: Attribute) -> None:
        addresses = self.operands[:-2]
        if not addresses:
            raise VerifyException("needs at least one address operand")
        addr_results = self.results[1:]
        if len(addr_results) != len(addresses):
            raise VerifyException(
                f"has {len(addr_results)} address results for {len(addresses)} addresses"
            )
        a = addresses[0].type
        _check_address(a, "address")
        _check_all_same([v.type for v in addresses], a, "address operand")
        _check_all_same([r.type for r in addr_results], a, "address result")
        check_edge_type(data_in, "data operand")
        _check_same(data_out, data_in, "data result")
        _check_control(self.operands[-1].type, "ctrl")


@irdl_op_definition
class LoadOp(_AccessOp):
    """`%d, %a = handshake.load [%addr] %data_from_mem, %ctrl : index, i32`.

    Results: data to the computation, then one address to memory per index.
    """

    name = "handshake.load"

    addresses = var_operand_def()
    data_from_mem = operand_def()
    ctrl = operand_def()
    data_result = result_def()
    address_results = var_result_def()

    def __init__(self, addresses: Sequence[SSAValue], data_from_mem: SSAValue, ctrl: SSAValue):
        super().__init__(
            operands=[addresses, data_from_mem, ctrl],
            result_types=[data_from_mem.type, [a.type for a in addresses]],
        )

    def verify_(self) -> None:
        self._verify_access(self.data_from_mem.type, self.data_result.type)


@irdl_op_definition
class StoreOp(_AccessOp):
    """`%d, %a = handshake.store [%addr] %data, %ctrl : index, i32`.

    Results: data to memory, then one address to memory per index.
    """

    name = "handshake.store"

    addresses = var_operand_def()
    data = operand_def()
    ctrl = operand_def()
    data_result = result_def()
    address_results = var_result_def()

    def __init__(self, addresses: Sequence[SSAValue], data: SSAValue, ctrl: SSAValue):
        super().__init__(
            operands=[addresses, data, ctrl],
            result_types=[data.type, [a.type for a in addresses]],
        )

    def verify_(self) -> None:
        self._verify_access(self.data.type, self.data_result.type)


def _parse_port_counts(parser: Parser) -> tuple[int, int]:
    """`[ld = N, st = M]`."""
    parser.parse_punctuation("[")
    parser.parse_keyword("ld")
    parser.parse_punctuation("=")
    ld = parser.parse_integer(allow_boolean=False)
    parser.parse_punctuation(",")
    parser.parse_keyword("st")
    parser.parse_punctuation("=")
    st = parser.parse_integer(allow_boolean=False)
    parser.parse_punctuation("]")
    return ld, st


class _MemoryLike(IRDLOperation):
    """Shared checks of memory/extmemory (store-first port packing)."""

    @property
    def num_loads(self) -> int:
        return self.properties["ld_count"].value.data  # type: ignore[attr-defined]

    @property
    def num_stores(self) -> int:
        return self.properties["st_count"].value.data  # type: ignore[attr-defined]

    def memref_type(self) -> MemRefType:
        raise NotImplementedError

    def port_inputs(self) -> Sequence[SSAValue]:
        raise NotImplementedError

    def _verify_ports(self) -> None:
        ld, st = self.num_loads, self.num_stores
        if ld < 0 or st < 0:
            raise VerifyException(f"port counts must be >= 0, got ld = {ld}, st = {st}")
        mem = self.memref_type()
        if not isinstance(mem, MemRefType):
            raise VerifyException(f"memory type must be a memref, got {mem}")
        rank = len(mem.get_shape())
        elem = mem.get_element_type()
        inputs = self.port_inputs()
        want_in = st * (1 + rank) + ld * rank
        if len(inputs) != want_in:
            raise VerifyException(
                f"has {len(inputs)} port operands, expected {want_in} for ld = {ld}, "
                f"st = {st} on a rank-{rank} memref (per store: data + {rank} addresses; "
                f"per load: {rank} addresses)"
            )
        want_out = 2 * ld + st
        if len(self.results) != want_out:
            raise VerifyException(
                f"has {len(self.results)} results, expected {want_out} for ld = {ld}, "
                f"st = {st} (load data, then store done, then load done)"
            )
        pos = 0
        for s in range(st):
            _check_same(inputs[pos].type, elem, f"store #{s} data")
            for k in range(rank):
                _check_address(inputs[pos + 1 + k].type, f"store #{s} address #{k}")
            pos += 1 + rank
        for l_ in range(ld):
            for k in range(rank):
                _check_address(inputs[pos + k].type, f"load #{l_} address #{k}")
            pos += rank
        for l_ in range(ld):
            _check_same(self.results[l_].type, elem, f"load #{l_} data result")
        for i, r in enumerate(self.results[ld:]):
            _check_control(r.type, f"done result #{i}")
        if not isinstance(self.attributes.get("id"), IntegerAttr):
            raise VerifyException("needs an integer attribute 'id'")


@irdl_op_definition
class ExternalMemoryOp(_MemoryLike):
    """`%m:3 = handshake.extmemory[ld = 1, st = 1] (%mem : memref<256xi32>) (%sd, %sa, %la)
    {id = 0 : i32} : (i32, index, index) -> (i32, none, none)`."""

    name = "handshake.extmemory"

    memref = operand_def(MemRefType)
    inputs = var_operand_def()
    outputs = var_result_def()
    ld_count = prop_def(IntegerAttr)
    st_count = prop_def(IntegerAttr)
    id = attr_def(IntegerAttr)

    def __init__(
        self,
        memref: SSAValue,
        inputs: Sequence[SSAValue],
        result_types: Sequence[Attribute],
        ld_count: int,
        st_count: int,
        id: int,
    ):
        super().__init__(
            operands=[memref, inputs],
            result_types=[result_types],
            properties={"ld_count": IntegerAttr(ld_count, i32), "st_count": IntegerAttr(st_count, i32)},
            attributes={"id": IntegerAttr(id, i32)},
        )

    def memref_type(self) -> MemRefType:
        return self.memref.type  # type: ignore[return-value]

    def port_inputs(self) -> Sequence[SSAValue]:
        return self.inputs

    @classmethod
    def parse(cls, parser: Parser) -> ExternalMemoryOp:
        ld, st = _parse_port_counts(parser)
        parser.parse_punctuation("(")
        mem = parser.parse_unresolved_operand()
        parser.parse_punctuation(":")
        mem_t = parser.parse_type()
        parser.parse_punctuation(")")
        operands = parser.parse_comma_separated_list(
            parser.Delimiter.PAREN, parser.parse_unresolved_operand
        )
        attrs = syntax.parse_attr_dict(parser)
        parser.parse_punctuation(":")
        in_types = syntax.parse_paren_types(parser)
        parser.parse_punctuation("->")
        out_types = syntax.parse_paren_types(parser)
        memref = parser.resolve_operand(mem, mem_t)
        values = syntax.resolve(parser, operands, in_types, cls.name)
        return cls.create(
            operands=[memref, *values],
            result_types=out_types,
            properties={"ld_count": IntegerAttr(ld, i32), "st_count": IntegerAttr(st, i32)},
            attributes=attrs,
        )

    def print(self, printer: Printer) -> None:
        printer.print_string(f"[ld = {self.num_loads}, st = {self.num_stores}] (")
        printer.print_operand(self.memref)
        printer.print_string(" : ")
        printer.print_attribute(self.memref.type)
        printer.print_string(") (")
        syntax.print_operands(printer, self.inputs)
        printer.print_string(")")
        syntax.print_attr_dict(printer, self.attributes)
        printer.print_string(" : ")
        syntax.print_paren_types(printer, [v.type for v in self.inputs])
        printer.print_string(" -> ")
        syntax.print_paren_types(printer, self.result_types)

    def verify_(self) -> None:
        self._verify_ports()


@irdl_op_definition
class MemoryOp(_MemoryLike):
    """`%m:3 = handshake.memory[ld = 1, st = 1] (%sd, %sa, %la) {id = 0 : i32}
    : memref<256xi32>, (i32, index, index) -> (i32, none, none)`: on-chip memory."""

    name = "handshake.memory"

    inputs = var_operand_def()
    outputs = var_result_def()
    ld_count = prop_def(IntegerAttr)
    st_count = prop_def(IntegerAttr)
    mem_type = prop_def(MemRefType)
    id = attr_def(IntegerAttr)

    def __init__(
        self,
        inputs: Sequence[SSAValue],
        result_types: Sequence[Attribute],
        mem_type: MemRefType,
        ld_count: int,
        st_count: int,
        id: int,
    ):
        super().__init__(
            operands=[inputs],
            result_types=[result_types],
            properties={
                "ld_count": IntegerAttr(ld_count, i32),
                "st_count": IntegerAttr(st_count, i32),
                "mem_type": mem_type,
            },
            attributes={"id": IntegerAttr(id, i32)},
        )

    def memref_type(self) -> MemRefType:
        return self.mem_type

    def port_inputs(self) -> Sequence[SSAValue]:
        return self.inputs

    @classmethod
    def parse(cls, parser: Parser) -> MemoryOp:
        ld, st = _parse_port_counts(parser)
        operands = parser.parse_comma_separated_list(
            parser.Delimiter.PAREN, parser.parse_unresolved_operand
        )
        attrs = syntax.parse_attr_dict(parser)
        parser.parse_punctuation(":")
        mem_t = parser.parse_type()
        parser.parse_punctuation(",")
        in_types = syntax.parse_paren_types(parser)
        parser.parse_punctuation("->")
        out_types = syntax.parse_paren_types(parser)
        values = syntax.resolve(parser, operands, in_types, cls.name)
        return cls.create(
            operands=values,
            result_types=out_types,
            properties={
                "ld_count": IntegerAttr(ld, i32),
                "st_count": IntegerAttr(st, i32),
                "mem_type": mem_t,
            },
            attributes=attrs,
        )

    def print(self, printer: Printer) -> None:
        printer.print_string(f"[ld = {self.num_loads}, st = {self.num_stores}] (")
        syntax.print_operands(printer, self.inputs)
        printer.print_string(")")
        syntax.print_attr_dict(printer, self.attributes)
        printer.print_string(" : ")
        printer.print_attribute(self.mem_type)
        printer.print_string(", ")
        syntax.print_paren_types(printer, [v.type for v in self.inputs])
        printer.print_string(" -> ")
        syntax.print_paren_types(printer, self.result_types)

    def verify_(self) -> None:
        self._verify_ports()


# --- explicit channels: bundle/unbundle, compose/decompose (seed 004) -------------------


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
        if self.operands and not _defined_before(self.operands[0], self):
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
        MemoryOp,
        BundleOp,
        UnbundleOp,
        ComposeOp,
        DecomposeOp,
    ],
    [ControlType, ChannelType, ExtraSignalAttr],
)
