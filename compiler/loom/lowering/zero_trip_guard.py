"""Guard scf.for loops whose trip count may be zero (issue 4, seed 002).

Under seed 001's literal semantics a loop that runs zero times is not
quiescent: the gate drops the lone terminating false, but every invariant
on after_cond still emits its seed once and waits. So a loop not known to
run is wrapped in its trip condition:

    scf.if (lb < ub) { r = scf.for ...; yield r } else { yield inits }

Seed 002: the guard keeps its branch semantics (it lowers as any scf.if).
Loops with constant bounds that run at least once, and loops already under
exactly this guard, are left alone.
"""

from __future__ import annotations

from xdsl.dialects import arith, scf
from xdsl.dialects.builtin import IntegerAttr
from xdsl.ir import Block, Operation, SSAValue
from xdsl.rewriter import InsertPoint, Rewriter

SLT = 2  # arith.cmpi predicate number


def _const(v: SSAValue) -> int | None:
    op = v.owner
    if isinstance(op, arith.ConstantOp) and isinstance(op.value, IntegerAttr):
        return op.value.value.data
    return None


def runs_at_least_once(for_op: scf.ForOp) -> bool:
    lb, ub = _const(for_op.lb), _const(for_op.ub)
    return lb is not None and ub is not None and lb < ub


def _already_guarded(for_op: scf.ForOp) -> bool:
    parent = for_op.parent_op()
    if not isinstance(parent, scf.IfOp) or for_op.parent_block() is not parent.true_region.block:
        return False
    cmp = parent.cond.owner
    return (isinstance(cmp, arith.CmpiOp) and cmp.predicate.value.data == SLT
            and cmp.lhs == for_op.lb and cmp.rhs == for_op.ub)


def _wrap(for_op: scf.ForOp) -> None:
    cmp = arith.CmpiOp(for_op.lb, for_op.ub, "slt")
    cmp.location = for_op.location
    Rewriter.insert_op(cmp, InsertPoint.before(for_op))
    then_block, else_block = Block(), Block()
    guard = scf.IfOp(cmp.result, [r.type for r in for_op.results], [then_block], [else_block])
    guard.location = for_op.location
    Rewriter.insert_op(guard, InsertPoint.before(for_op))
    outside_uses = [(use.operation, use.index) for r in for_op.results for use in r.uses]
    for_op.detach()
    then_block.add_op(for_op)
    then_yield = scf.YieldOp(*for_op.results)
    then_block.add_op(then_yield)
    else_block.add_op(scf.YieldOp(*for_op.iter_args))
    for (user, index) in outside_uses:
        result_index = for_op.results.index(user.operands[index])
        user.operands[index] = guard.results[result_index]
    for y in (then_yield, else_block.last_op):
        assert y is not None
        y.location = for_op.location


def guard_zero_trip_loops(root: Operation) -> int:
    """Wrap every scf.for below `root` that may run zero times; returns how many."""
    loops = [op for op in root.walk() if isinstance(op, scf.ForOp)]
    wrapped = 0
    for for_op in loops:
        if not runs_at_least_once(for_op) and not _already_guarded(for_op):
            _wrap(for_op)
            wrapped += 1
    return wrapped
