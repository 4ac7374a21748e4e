"""Creates DFG ops at the end of the handshake.func body.

The body is a graph region: ops may use values defined further down, which
is how loop feedback and memory data are wired. A value may have several
uses while lowering; legalize.py materializes the forks afterwards.
`placeholder` gives a value to use before its producer exists; `patch`
replaces it once the real value is known.
"""

from __future__ import annotations

from collections.abc import Sequence

from xdsl.dialects import arith
from xdsl.dialects.builtin import (
    AnyFloat,
    FloatAttr,
    IndexType,
    IntegerAttr,
    IntegerType,
    UnrealizedConversionCastOp,
)
from xdsl.ir import Attribute, Block, Operation, SSAValue

from loom.dialects import dataflow as df
from loom.dialects import handshake as hs


class DfgBuilder:
    def __init__(self, block: Block):
        self.block = block
        self.loc: Attribute | None = None  # the SCF op being lowered: stamped on new ops

    def insert(self, op: Operation) -> Operation:
        if self.loc is not None:
            op.location = self.loc
        self.block.add_op(op)
        return op

    # --- placeholders ----------------------------------------------------------

    def placeholder(self, type_: Attribute) -> SSAValue:
        op = UnrealizedConversionCastOp.get([], [type_])
        self.block.add_op(op)
        return op.results[0]

    @staticmethod
    def patch(placeholder: SSAValue, value: SSAValue) -> None:
        op = placeholder.owner
        assert isinstance(op, UnrealizedConversionCastOp)
        placeholder.replace_all_uses_with(value)
        op.detach()
        op.erase()

    # --- dataflow ----------------------------------------------------------------

    def stream(self, start: SSAValue, step: SSAValue, bound: SSAValue,
               step_op: str = "+=", cont_cond: str = "<") -> tuple[SSAValue, SSAValue]:
        op = self.insert(df.StreamOp(start, step, bound, step_op, cont_cond))
        return op.results[0], op.results[1]

    def gate(self, value: SSAValue, cond: SSAValue) -> tuple[SSAValue, SSAValue]:
        op = self.insert(df.GateOp(value, cond))
        return op.results[0], op.results[1]

    def carry(self, cond: SSAValue, init: SSAValue, loop: SSAValue) -> SSAValue:
        return self.insert(df.CarryOp(cond, init, loop)).results[0]

    def invariant(self, cond: SSAValue, value: SSAValue) -> SSAValue:
        return self.insert(df.InvariantOp(cond, value)).results[0]

    # --- handshake -----------------------------------------------------------------

    def cond_br(self, cond: SSAValue, data: SSAValue) -> tuple[SSAValue, SSAValue]:
        op = self.insert(hs.ConditionalBranchOp(cond, data))
        return op.results[0], op.results[1]

    def mux(self, select: SSAValue, inputs: Sequence[SSAValue]) -> SSAValue:
        return self.insert(hs.MuxOp(select, list(inputs))).results[0]

    def join(self, tokens: Sequence[SSAValue]) -> SSAValue:
        return self.insert(hs.JoinOp(list(tokens))).results[0]

    def fork(self, value: SSAValue, count: int) -> Sequence[SSAValue]:
        return self.insert(hs.ForkOp(value, count)).results

    def constant(self, ctrl: SSAValue, value: int | float, type_: Attribute) -> SSAValue:
        attr: IntegerAttr | FloatAttr
        if isinstance(type_, AnyFloat):
            attr = FloatAttr(float(value), type_)
        else:
            assert isinstance(type_, IntegerType | IndexType)
            attr = IntegerAttr(int(value), type_)
        return self.insert(hs.ConstantOp(ctrl, attr)).results[0]

    def clone(self, op: Operation, operands: Sequence[SSAValue]) -> Operation:
        """An arith op of the SCF input with its operands mapped into the DFG."""
        return self.insert(op.clone_without_regions(dict(zip(op.operands, operands))))

    def cmpi(self, predicate: str, lhs: SSAValue, rhs: SSAValue) -> SSAValue:
        return self.insert(arith.CmpiOp(lhs, rhs, predicate)).results[0]
