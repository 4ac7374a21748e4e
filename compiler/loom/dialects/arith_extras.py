"""Upstream `arith` ops that MLIR has and xDSL 0.74 lacks.

MLIR's lowering of C emits `arith.index_castui` (zero-extending index cast)
and `arith.remf` (C's fmod on float operands, issue 33); xDSL 0.74 defines
neither. `arith_dialect()` is xDSL's arith dialect plus these ops, with
MLIR's syntax.
"""

from __future__ import annotations

from xdsl.dialects.arith import Arith, FloatingPointLikeBinaryOperation
from xdsl.dialects.builtin import IndexType, IntegerType
from xdsl.ir import Attribute, Dialect, Operation, SSAValue
from xdsl.irdl import IRDLOperation, base, irdl_op_definition, operand_def, result_def, traits_def
from xdsl.traits import Pure
from xdsl.utils.exceptions import VerifyException


@irdl_op_definition
class IndexCastUIOp(IRDLOperation):
    """`%r = arith.index_castui %x : i32 to index` (unsigned: zero-extends)."""

    name = "arith.index_castui"

    input = operand_def(base(IntegerType) | base(IndexType))
    result = result_def(base(IntegerType) | base(IndexType))

    traits = traits_def(Pure())

    assembly_format = "$input attr-dict `:` type($input) `to` type($result)"

    def __init__(self, input_arg: SSAValue | Operation, target_type: Attribute):
        super().__init__(operands=[input_arg], result_types=[target_type])

    def verify_(self) -> None:
        if isinstance(self.input.type, IndexType) == isinstance(self.result.type, IndexType):
            raise VerifyException(
                f"operand type {self.input.type} and result type {self.result.type} "
                "are cast incompatible (exactly one must be index)"
            )


@irdl_op_definition
class RemFOp(FloatingPointLikeBinaryOperation):
    """`%r = arith.remf %a, %b : f32`: the remainder of the truncated quotient (C's fmod)."""

    name = "arith.remf"

    traits = traits_def(Pure())


def arith_dialect() -> Dialect:
    """xDSL's arith dialect extended with the ops above."""
    return Dialect(
        "arith",
        [*Arith.operations, IndexCastUIOp, RemFOp],
        list(Arith.attributes),
        list(Arith._interfaces),  # pyright: ignore[reportPrivateUsage]
    )
