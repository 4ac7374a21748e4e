"""lower_if (seed 002): scf.if -> cond_br of the control, both regions, muxes.

    then_ctrl, else_ctrl = cond_br(cond, parent control)
    outer value v used in a branch: cond_br(cond, v).true / .false
    result_i = mux(cond, [else_value_i, then_value_i])

Branch-gating every outer value (one shared cond_br per value for both
branches) means the untaken side never leaves a token on the final mux; the
unused side of a split is discarded. A branch without else yields nothing.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from xdsl.dialects import scf
from xdsl.ir import SSAValue

from loom.lowering.state import RegionState

if TYPE_CHECKING:
    from loom.lowering.region import Lowering


def lower_if(lowering: Lowering, if_op: scf.IfOp, parent_state: RegionState) -> None:
    b = parent_state.b
    cond = parent_state.lookup(if_op.cond)
    lowering.record.conditions[if_op] = cond
    splits: dict[SSAValue, tuple[SSAValue, SSAValue]] = {}

    def split(v: SSAValue) -> tuple[SSAValue, SSAValue]:
        if v not in splits:
            splits[v] = b.cond_br(cond, v)
        return splits[v]

    then_state = parent_state.child("then", lambda v: split(v)[0])
    then_results = lowering.lower_region(if_op.true_region.block, then_state)
    else_results: list[SSAValue] = []
    if if_op.false_region.blocks:
        else_state = parent_state.child("else", lambda v: split(v)[1])
        else_results = lowering.lower_region(if_op.false_region.block, else_state)

    b.loc = if_op.location
    for result, then_v, else_v in zip(if_op.results, then_results, else_results):
        parent_state.map(result, b.mux(cond, [else_v, then_v]))
