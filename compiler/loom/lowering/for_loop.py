"""lower_for (seed 002): scf.for -> one stream, one gate, carries, invariants.

    raw_index, raw_will_continue = stream(lb, step, ub)          {+=, <}
    body_index, after_cond       = gate(raw_index, raw_will_continue)
    body control                 = invariant(after_cond, parent control)
    outer value v used inside    = invariant(after_cond, v)
    iter_arg i: carry_o          = carry(raw_will_continue, init_i, yield_i)
                body_i, exit_i   = cond_br(raw_will_continue, carry_o)

raw_will_continue (N + 1 events) feeds only the loop boundary: the gate, the
iter_arg carries and their split. Everything body-local uses after_cond (N).
A loop whose trip count may be zero arrives here already wrapped in an
scf.if guard (zero_trip_guard.py).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from xdsl.dialects import scf
from xdsl.ir import SSAValue

from loom.lowering.state import RegionState

if TYPE_CHECKING:
    from loom.lowering.region import Lowering


def lower_for(lowering: Lowering, for_op: scf.ForOp, parent_state: RegionState) -> None:
    b = parent_state.b
    lb = parent_state.lookup(for_op.lb)
    ub = parent_state.lookup(for_op.ub)
    step = parent_state.lookup(for_op.step)

    record = lowering.record
    b.loc = for_op.location
    raw_index, raw_will_continue = b.stream(lb, step, ub, "+=", "<")
    body_index, after_cond = b.gate(raw_index, raw_will_continue)
    name = lowering.name_loop(for_op, "for")
    for value, role in ((raw_index, "raw_index"), (raw_will_continue, "raw_will_continue"),
                        (body_index, "body_index"), (after_cond, "after_cond")):
        value.name_hint = f"{name}_{role}"
    record.conditions[for_op] = after_cond
    record.raw_conditions[for_op] = raw_will_continue
    record.after_conds[for_op] = after_cond
    boundary = record.boundary_ops.setdefault(for_op, [])
    invariants = record.body_invariants.setdefault(for_op, [])

    def body_invariant(v: SSAValue) -> SSAValue:
        result = b.invariant(after_cond, v)
        invariants.append(result.owner)
        return result

    body_state = parent_state.child("for", body_invariant)
    body = for_op.body.block
    body_state.map(body.args[0], body_index)

    carries = []
    for iter_arg, init, result in zip(body.args[1:], for_op.iter_args, for_op.results):
        feedback_placeholder = b.placeholder(init.type)
        carry_o = b.carry(raw_will_continue, parent_state.lookup(init), feedback_placeholder)
        body_iter, exit_iter = b.cond_br(raw_will_continue, carry_o)  # split_by_raw_cond
        boundary += [carry_o.owner, body_iter.owner]
        body_state.map(iter_arg, body_iter)
        parent_state.map(result, exit_iter)
        carries.append(feedback_placeholder)

    body_results = lowering.lower_region(body, body_state)
    for feedback_placeholder, yielded in zip(carries, body_results):
        b.patch(feedback_placeholder, yielded)
