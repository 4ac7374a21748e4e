"""The `dataflow` dialect of seed 001: stream, gate, carry, invariant.

Syntax (exactly seed 001's):

    %idx, %cont = dataflow.stream %start, %step, %bound
        {step_op = "+=", cont_cond = "<"} : (index, index, index) -> (index, i1)
    %av, %ac = dataflow.gate %bv, %bc : T, i1 -> T, i1
    %o = dataflow.carry %d, %a, %b : i1, T, T -> T
    %o = dataflow.invariant %d, %a : i1, T -> T

`step_op` / `cont_cond` are properties (StringAttr) printed in the attr-dict.
T is any DFG edge type (native shorthand or explicit channel/control); a
condition is `i1` or `!handshake.channel<i1>`.
"""

from __future__ import annotations

from collections.abc import Sequence

from xdsl.dialects.builtin import IndexType, IntegerType, StringAttr, i1
from xdsl.ir import Attribute, Dialect, SSAValue
from xdsl.irdl import (
    IRDLOperation,
    irdl_op_definition,
    operand_def,
    prop_def,
    result_def,
)
from xdsl.parser import Parser
from xdsl.printer import Printer
from xdsl.utils.exceptions import VerifyException

from loom.dialects import syntax
from loom.dialects.channel_types import check_edge_type, data_type, same_edge_type
from loom.dialects.edge_checks import check_condition, is_condition_type

STEP_OPS: tuple[str, ...] = ("+=", "-=", "*=", "/=", "<<=", ">>=")
CONT_CONDS: tuple[str, ...] = ("<", "<=", ">", ">=", "!=")


def _check_same(a: Attribute, b: Attribute, what_a: str, what_b: str) -> None:
    if not same_edge_type(a, b):
        raise VerifyException(f"{what_a} type {a} does not match {what_b} type {b}")


class _ArrowFormOp(IRDLOperation):
    """`%operands attr-dict : T, ... -> R, ...` (seed 001's gate/carry/invariant)."""

    @classmethod
    def parse(cls, parser: Parser):
        operands = syntax.parse_operands(parser)
        attrs = syntax.parse_attr_dict(parser)
        parser.parse_punctuation(":")
        in_types = syntax.parse_types(parser)
        parser.parse_punctuation("->")
        out_types = syntax.parse_types(parser)
        values = syntax.resolve(parser, operands, in_types, cls.name)
        return cls.create(
            operands=values, result_types=out_types, attributes=attrs
        )

    def print(self, printer: Printer) -> None:
        syntax.print_operands_and_types(printer, self, self.operand_types)
        printer.print_string(" -> ")
        syntax.print_types(printer, self.result_types)


@irdl_op_definition
class StreamOp(IRDLOperation):
    """One-step-ahead index stream: idx has N+1 elements, cont N trues then false."""

    name = "dataflow.stream"

    start = operand_def()
    step = operand_def()
    bound = operand_def()
    idx = result_def()
    cont = result_def()
    step_op = prop_def(StringAttr)
    cont_cond = prop_def(StringAttr)

    def __init__(
        self,
        start: SSAValue,
        step: SSAValue,
        bound: SSAValue,
        step_op: str = "+=",
        cont_cond: str = "<",
    ):
        super().__init__(
            operands=[start, step, bound],
            result_types=[start.type, i1],
            properties={"step_op": StringAttr(step_op), "cont_cond": StringAttr(cont_cond)},
        )

    @classmethod
    def parse(cls, parser: Parser) -> StreamOp:
        operands = syntax.parse_operands(parser)
        attrs = syntax.parse_attr_dict(parser)
        props = syntax.split_properties(attrs, ("step_op", "cont_cond"))
        parser.parse_punctuation(":")
        in_types = syntax.parse_paren_types(parser)
        parser.parse_punctuation("->")
        out_types = syntax.parse_paren_types(parser)
        values = syntax.resolve(parser, operands, in_types, cls.name)
        return cls.create(
            operands=values, result_types=out_types, properties=props, attributes=attrs
        )

    def print(self, printer: Printer) -> None:
        printer.print_string(" ")
        syntax.print_operands(printer, self.operands)
        syntax.print_attr_dict(printer, self.attributes, self.properties)
        printer.print_string(" : ")
        syntax.print_paren_types(printer, self.operand_types)
        printer.print_string(" -> ")
        syntax.print_paren_types(printer, self.result_types)

    def verify_(self) -> None:
        step_op = self.step_op.data
        if step_op not in STEP_OPS:
            raise VerifyException(
                f'invalid step_op "{step_op}": expected one of {" ".join(STEP_OPS)}'
            )
        cont_cond = self.cont_cond.data
        if cont_cond not in CONT_CONDS:
            raise VerifyException(
                f'invalid cont_cond "{cont_cond}": expected one of {" ".join(CONT_CONDS)}'
            )
        t = self.start.type
        check_edge_type(t, "start")
        if not isinstance(data_type(t), IntegerType | IndexType):
            raise VerifyException(f"start must be an integer or index, got {t}")
        _check_same(self.step.type, t, "step", "start")
        _check_same(self.bound.type, t, "bound", "start")
        _check_same(self.idx.type, t, "idx result", "start")
        check_condition(self.cont.type, "cont result")


@irdl_op_definition
class GateOp(_ArrowFormOp):
    """Shifts a before-region stream pair (N+1) into a body-region pair (N)."""

    name = "dataflow.gate"

    before_value = operand_def()
    before_cond = operand_def()
    after_value = result_def()
    after_cond = result_def()

    def __init__(self, before_value: SSAValue, before_cond: SSAValue):
        super().__init__(
            operands=[before_value, before_cond],
            result_types=[before_value.type, before_cond.type],
        )

    def verify_(self) -> None:
        check_edge_type(self.before_value.type, "before_value")
        check_condition(self.before_cond.type, "before_cond")
        _check_same(self.after_value.type, self.before_value.type, "after_value", "before_value")
        _check_same(self.after_cond.type, self.before_cond.type, "after_cond", "before_cond")


@irdl_op_definition
class CarryOp(_ArrowFormOp):
    """Loop-carried value: init once, then one loop value per true condition."""

    name = "dataflow.carry"

    cond = operand_def()
    init = operand_def()
    loop = operand_def()
    output = result_def()

    def __init__(self, cond: SSAValue, init: SSAValue, loop: SSAValue):
        super().__init__(operands=[cond, init, loop], result_types=[init.type])

    def verify_(self) -> None:
        check_condition(self.cond.type, "condition %d")
        check_edge_type(self.init.type, "initial value %a")
        _check_same(self.loop.type, self.init.type, "loop value %b", "initial value %a")
        _check_same(self.output.type, self.init.type, "result", "initial value %a")


@irdl_op_definition
class InvariantOp(_ArrowFormOp):
    """Loop invariant: emit the seed once, replay it for every true condition."""

    name = "dataflow.invariant"

    cond = operand_def()
    init = operand_def()
    output = result_def()

    def __init__(self, cond: SSAValue, init: SSAValue):
        super().__init__(operands=[cond, init], result_types=[init.type])

    def verify_(self) -> None:
        check_condition(self.cond.type, "condition %d")
        check_edge_type(self.init.type, "invariant value %a")
        _check_same(self.output.type, self.init.type, "result", "invariant value %a")


Dataflow = Dialect("dataflow", [StreamOp, GateOp, CarryOp, InvariantOp], [])

__all__: Sequence[str] = [
    "CONT_CONDS",
    "STEP_OPS",
    "CarryOp",
    "Dataflow",
    "GateOp",
    "InvariantOp",
    "StreamOp",
    "is_condition_type",
]
