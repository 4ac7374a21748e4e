"""Flat memrefs, for a kernel compiled for an ADG: one index per access.

A fabric memory or extmemory has one address port per lane (LOOM's
spec-fabric-mem), so the DFG a fabric runs addresses `int a[R][C]` as the
R*C consecutive elements C lays it out as: `a[i][j]` becomes `a[i*C + j]`,
row-major as in loom.addressing (the RTL memory units, which take every
index, compute the same sum from their strides). The rewrite is on the SCF
function, before lowering, so the index arithmetic lowers like the kernel's
own. Semantics are unchanged: the bundle holds every array flat and
row-major already (its `arg_types` keep the C parameters' shapes), and an
access past an inner extent reaches the same element.

The sum is computed in i64, as C computes the address (each subscript
sign-extended to the pointer width), and cast to index once: fabrics have
integer multipliers, not index ones (fabric/presets.py). A subscript that is
an index cast of an integer uses the integer, extended, and the cast goes
when nothing else uses it.
"""

from __future__ import annotations

from math import prod

from xdsl.dialects import arith, func, memref
from xdsl.dialects.builtin import (
    DYNAMIC_INDEX,
    IndexType,
    IntegerAttr,
    IntegerType,
    MemRefType,
    i64,
)
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
    indices = list(op.indices)
    flat = _as_i64(op, indices[0])
    for extent, i in zip(inner, indices[1:]):
        c = _before(op, arith.ConstantOp(IntegerAttr(extent, i64)))
        scaled = _before(op, arith.MuliOp(flat, c))
        flat = _before(op, arith.AddiOp(scaled, _as_i64(op, i)))
    head = [op.value, op.memref] if isinstance(op, memref.StoreOp) else [op.memref]
    op.operands = [*head, _before(op, arith.IndexCastOp(flat, IndexType()))]
    for i in dict.fromkeys(indices):  # a[i][i] names one subscript twice
        _erase_if_dead(i)


def _as_i64(op: Operation, index: SSAValue) -> SSAValue:
    """The subscript `index` as C's 64-bit offset, for the sum before `op`."""
    source = index.owner
    if isinstance(source, Operation) and source.name in _EXTEND and \
            isinstance(source.operands[0].type, IntegerType) and \
            source.operands[0].type.width.data <= 64:
        value = source.operands[0]
        return value if value.type == i64 else _before(op, _EXTEND[source.name](value, i64))
    if isinstance(source, arith.ConstantOp) and isinstance(source.value, IntegerAttr):
        return _before(op, arith.ConstantOp(IntegerAttr(source.value.value.data, i64)))
    return _before(op, arith.IndexCastOp(index, i64))


_EXTEND = {"arith.index_cast": arith.ExtSIOp, "arith.index_castui": arith.ExtUIOp}
"""An index cast of an integer is its sign (zero) extension to the index width."""


def _erase_if_dead(value: SSAValue) -> None:
    """The subscript's own cast or constant, when the flat sum was its only use."""
    source = value.owner
    if isinstance(source, Operation) and not value.uses and \
            (source.name in _EXTEND or isinstance(source, arith.ConstantOp)):
        Rewriter.erase_op(source)


def _before(op: Operation, new: Operation) -> SSAValue:
    new.location = op.location  # a diagnosis names the access's C line
    Rewriter.insert_op(new, InsertPoint.before(op))
    return new.results[0]


__all__ = ["flat_type", "flatten_memrefs"]
