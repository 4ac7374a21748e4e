"""lower_while (seed 002): scf.while -> carries, before-region, split, after-region.

    carry_i            = carry(raw_will_continue, init_i, yield_i)
    before region      : outer values via invariant(raw_will_continue, v)   (N + 1)
    raw_will_continue  = the scf.condition operand
    body_index, after_cond = gate(raw_will_continue, raw_will_continue)
    cond arg i         : after_i, exit_i = cond_br(raw_will_continue, arg_i)
    after region       : outer values and control as the true side of the same
                         raw split of their before-region copies             (N)

Where this departs from seed 002's pseudo-code: the seed gives the
after-region `invariant(after_cond, ...)`. With a data-dependent exit the
trip count can be zero, and then an invariant on an empty after_cond still
emits its seed once and is never reset, which leaves a token behind. Routing
after-region values like condition args (true side of the raw split) gives
the same N-token streams and ends quiescent for every trip count. after_cond
is still built, for the ctrl-done network of seed 000 and the checker.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from xdsl.dialects import scf
from xdsl.dialects.builtin import i1
from xdsl.ir import SSAValue

from loom.lowering.state import RegionState

if TYPE_CHECKING:
    from loom.lowering.region import Lowering


def lower_while(lowering: Lowering, while_op: scf.WhileOp, parent_state: RegionState) -> None:
    b = parent_state.b
    raw = [b.placeholder(i1)]  # the placeholder until the before-region yields the condition

    before_state = parent_state.child("while_before", lambda v: b.invariant(raw[0], v))
    before = while_op.before_region.block
    feedbacks = []
    for arg, init in zip(before.args, while_op.arguments):
        feedback = b.placeholder(init.type)
        carry_i = b.carry(raw[0], parent_state.lookup(init), feedback)
        before_state.map(arg, carry_i)
        feedbacks.append(feedback)

    cond_operands = lowering.lower_region(before, before_state)
    raw_will_continue, cond_args = cond_operands[0], cond_operands[1:]
    b.loc = while_op.location
    b.patch(raw[0], raw_will_continue)
    raw[0] = raw_will_continue
    _, after_cond = b.gate(raw_will_continue, raw_will_continue)
    name = lowering.name_loop(while_op, "while")
    raw_will_continue.name_hint = f"{name}_raw_will_continue"
    after_cond.name_hint = f"{name}_after_cond"
    lowering.record.conditions[while_op] = raw_will_continue
    lowering.record.raw_conditions[while_op] = raw_will_continue
    lowering.record.after_conds[while_op] = after_cond

    splits: dict[SSAValue, SSAValue] = {}

    def enter_after(v: SSAValue) -> SSAValue:  # split_by_raw_cond, true side
        if v not in splits:
            splits[v] = b.cond_br(raw_will_continue, v)[0]
        return splits[v]

    after_state = before_state.child("while_after", enter_after)
    after = while_op.after_region.block
    for arg, cond_arg, result in zip(after.args, cond_args, while_op.results):
        after_arg, exit_arg = b.cond_br(raw_will_continue, cond_arg)
        after_state.map(arg, after_arg)
        parent_state.map(result, exit_arg)

    yielded = lowering.lower_region(after, after_state)
    for feedback, value in zip(feedbacks, yielded):
        b.patch(feedback, value)
