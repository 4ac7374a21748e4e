"""Flat memrefs, for a kernel compiled for an ADG: one index per access.

A fabric memory or extmemory has one address port per lane (LOOM's
spec-fabric-mem), so the DFG a fabric runs addresses `int a[R][C]` as the
R*C consecutive elements C lays it out as: `a[i][j]` becomes `a[i*C + j]`,
row-major as in loom.addressing (the RTL memory units, which take every
index, compute the same sum from their strides). The rewrite is on the SCF
function, before lowering, so the index arithmetic lowers like the kernel's
own. Semantics are unchanged: the bundle holds every array flat and
row-major already, and an access past an inner extent reaches the same
element.
"""

from __future__ import annotations

from math import prod

from xdsl.dialects import arith, func, memref
from xdsl.dialects.builtin import DYNAMIC_INDEX, IndexType, IntegerAttr, MemRefType
from xdsl.ir import Operation, SSAValue
from xdsl.rewriter import InsertPoint, Rewriter

from loom.diagnostics import LoomError
from loom.lowering.source import where


def flatten_memrefs(scf_func: func.FuncOp) -> int:
    """Give every access one index and every memref rank 1; returns accesses rewritten."""
    accesses = [op for op in scf_func.walk()
                if isinstance(op, memref.LoadOp | memref.StoreOp) and len(op.indices) > 1]
    for op in accesses:
        _linearize(op)
    for value in _memref_values(scf_func):
        if isinstance(value.type, MemRefType) and len(value.type.shape) > 1:
            Rewriter.replace_value_with_new_type(value, flat_type(value.type))
    scf_func.update_function_type()
    return len(accesses)


def flat_type(t: MemRefType) -> MemRefType:
    """memref<RxCxT> -> memref<(R*C)xT>; memref<?xT> when an extent is dynamic."""
    shape = t.get_shape()
    n = DYNAMIC_INDEX if DYNAMIC_INDEX in shape else prod(shape)
    return MemRefType(t.element_type, [n])


def _memref_values(scf_func: func.FuncOp) -> list[SSAValue]:
    """The function's arguments and every op result (allocas, casts)."""
    return [*scf_func.args, *(r for op in scf_func.walk() for r in op.results)]


def _linearize(op: memref.LoadOp | memref.StoreOp) -> None:
    """Replace op's indices (i0, .., in) by ((i0*d1 + i1)*d2 + ..)*dn + in."""
    t = op.memref.type
    assert isinstance(t, MemRefType)
    inner = t.get_shape()[1:]
    if DYNAMIC_INDEX in inner:  # the outer extent never enters the address
        raise LoomError(f"cannot flatten an access to {t}: an inner extent is dynamic",
                        where(op))
    index = IndexType()
    flat: SSAValue = op.indices[0]
    for extent, i in zip(inner, op.indices[1:]):
        c = _before(op, arith.ConstantOp(IntegerAttr(extent, index)))
        scaled = _before(op, arith.MuliOp(flat, c))
        flat = _before(op, arith.AddiOp(scaled, i))
    head = [op.value, op.memref] if isinstance(op, memref.StoreOp) else [op.memref]
    op.operands = [*head, flat]


def _before(op: Operation, new: Operation) -> SSAValue:
    new.location = op.location  # a diagnosis names the access's C line
    Rewriter.insert_op(new, InsertPoint.before(op))
    return new.results[0]


__all__ = ["flat_type", "flatten_memrefs"]
