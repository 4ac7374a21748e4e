"""The invariant checker: seed 000's correctness invariants, seed 002's control rules.

Runs after lowering and in tests (also on deliberately broken DFGs).
Checks, on the final (forked) DFG:

- every handshake.load / handshake.store has exactly one control input that
  comes from the ctrl-done network, and exactly one done token from its
  memory interface; every load takes its data from that interface; every
  access belongs to exactly one root-memref group;
- scf.for: raw_will_continue reaches only the loop boundary (the gate, the
  iter_arg carries and their raw splits); every body-local invariant and the
  body's memory-control carries and splits use after_cond;
- iter_arg carries use raw_will_continue;
- the return control (the function's trailing done token) is reached from
  every access's done token;
- an access behind a load-store queue: a load takes its data from the queue
  and its ctrl from an allocation token of that queue.

A violation is a LoomError naming the op and its C line.
"""

from __future__ import annotations

from collections.abc import Iterator

from xdsl.dialects.builtin import NoneType, UnrealizedConversionCastOp
from xdsl.ir import Operation, SSAValue

from loom.diagnostics import Location, LoomError
from loom.dialects import dataflow as df
from loom.dialects import handshake as hs
from loom.ir import op_location
from loom.lowering.records import Access, LoweringRecord


def _through_forks(v: SSAValue) -> Iterator[tuple[Operation, int]]:
    """The (op, operand index) consumers of `v`, looking through forks."""
    for use in v.uses:
        if isinstance(use.operation, hs.ForkOp | hs.LazyForkOp):
            for out in use.operation.results:
                yield from _through_forks(out)
        else:
            yield use.operation, use.index


def _source(v: SSAValue) -> SSAValue:
    """`v` with forks looked through back to the value they copy."""
    while isinstance(v.owner, hs.ForkOp | hs.LazyForkOp):
        v = v.owner.operands[0]
    return v


def _fail(op: Operation, message: str, filename: str) -> None:
    raise LoomError(f"invariant violated: {op.name} {message}",
                    op_location(op) or Location(filename))


def check_invariants(func: hs.FuncOp, record: LoweringRecord, filename: str) -> None:
    _check_accesses(record, filename)
    _check_loop_control(record, filename)
    _check_return_postdominates(func, record, filename)


def _check_accesses(record: LoweringRecord, filename: str) -> None:
    seen: set[Operation] = set()
    for acc in record.accesses:
        if acc.queue is not None:
            _check_queued(acc, filename)
            continue
        op = acc.dfg_op
        if op in seen:
            _fail(op, "belongs to two memory groups", filename)
        seen.add(op)
        ctrl = op.operands[-1]
        if not isinstance(ctrl.type, NoneType) or isinstance(ctrl.owner, UnrealizedConversionCastOp):
            _fail(op, "has no control input from the ctrl-done network", filename)
        if acc.done is None or not isinstance(acc.done.owner, hs.ExternalMemoryOp | hs.MemoryOp):
            _fail(op, "has no done token from its memory interface", filename)
        if acc.kind == "load":
            data = op.operands[-2]
            if not isinstance(data.owner, hs.ExternalMemoryOp | hs.MemoryOp):
                _fail(op, "does not take its data from a memory interface", filename)
            if acc.done.owner is not data.owner:
                _fail(op, "gets data and done token from different memories", filename)


def _check_queued(acc: Access, filename: str) -> None:
    """An access behind a load-store queue: a load takes its data from the
    queue and its ctrl from the allocation chain (an allocation token of the
    same queue); a store is the queue's own (no handshake.store)."""
    if acc.kind == "store":
        return
    op = acc.dfg_op
    if op.operands[-2].owner is not acc.queue:
        _fail(op, "does not take its data from its load-store queue", filename)
    ctrl = _source(op.operands[-1])
    queue = acc.queue
    assert isinstance(queue, hs.LoadStoreQueueOp)
    queue_allocs = {_source(v) for v in queue.inputs[len(queue.port_inputs()):]}
    if ctrl not in queue_allocs:
        _fail(op, "has no control input from its queue's allocation chain", filename)


def _check_loop_control(record: LoweringRecord, filename: str) -> None:
    for loop, raw in record.raw_conditions.items():
        if loop not in record.boundary_ops:
            continue  # scf.while: the raw condition is the before-region's regime
        allowed = set(record.boundary_ops[loop])
        after_cond = record.after_conds[loop]
        for user, index in _through_forks(raw):
            if isinstance(user, df.GateOp) and index == 1 and user.results[1] == after_cond:
                continue
            if user in allowed and index == 0:
                continue
            _fail(user, f"consumes raw_will_continue of the loop '{record.loop_names[loop]}'; "
                  "body-local consumers must use after_cond (seed 002)", filename)
        for inv in record.body_invariants[loop]:
            if _source(inv.operands[0]) != after_cond:
                _fail(inv, "is a body-local invariant not controlled by after_cond", filename)
        for op in record.boundary_ops[loop]:
            if _source(op.operands[0]) != raw:
                _fail(op, "is an iter_arg carry or split not controlled by "
                      "raw_will_continue", filename)
        for user, index in _through_forks(after_cond):
            if isinstance(user, df.CarryOp | hs.ConditionalBranchOp | df.InvariantOp) \
                    and index == 0:
                continue
            if isinstance(user, hs.MuxOp) and index == 0:
                continue
            _fail(user, f"uses after_cond of the loop '{record.loop_names[loop]}' as data",
                  filename)


def _check_return_postdominates(func: hs.FuncOp, record: LoweringRecord, filename: str) -> None:
    ret = func.body.block.last_op
    assert isinstance(ret, hs.ReturnOp)
    target = ret.operands[-1]
    for acc in record.accesses:
        if acc.done is not None and not _reaches(acc.done, target, ret):
            _fail(acc.dfg_op, "has a done token that never reaches the return control",
                  filename)
    for queue in {acc.queue for acc in record.accesses if acc.queue is not None}:
        if not _reaches(queue.results[-1], target, ret):
            _fail(queue, "has a fence done that never reaches the return control", filename)


def _reaches(start: SSAValue, target: SSAValue, ret: Operation) -> bool:
    stack, seen = [start], set()
    while stack:
        v = stack.pop()
        if v == target:
            return True
        if v in seen:
            continue
        seen.add(v)
        for use in v.uses:   # the walk ends at the return (v == target was its operand)
            if use.operation is not ret:
                stack.extend(use.operation.results)
    return False
