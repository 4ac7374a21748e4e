"""Deliberately broken lowerings, to prove that the checks catch them.

Seed 000/002's debugging note names the classic bug: a body-local control
consumer wired to raw_will_continue instead of after_cond. The invariant
checker, the golden model's leftover report and the RTL trace comparison
must all catch it.
"""

from __future__ import annotations

from xdsl.rewriter import InsertPoint, Rewriter

from loom.diagnostics import LoomError
from loom.dialects import handshake as hs
from loom.lowering.records import LoweringRecord


def wire_body_invariant_to_raw(func: hs.FuncOp, record: LoweringRecord) -> str:
    """Rewire the first body-local invariant of a for loop to raw_will_continue.

    Returns the loop's name. Works on the legalized DFG: the raw stream's
    fork gets one more output for the invariant.
    """
    for loop, invariants in record.body_invariants.items():
        if not invariants:
            continue
        raw = record.raw_conditions[loop]
        (use,) = list(raw.uses)
        old_fork = use.operation
        if isinstance(old_fork, hs.ForkOp):  # one more output on the existing fork
            new_fork = hs.ForkOp(raw, len(old_fork.results) + 1)
            Rewriter.insert_op(new_fork, InsertPoint.after(old_fork))
            for old, new in zip(old_fork.results, new_fork.results):
                old.replace_all_uses_with(new)
            Rewriter.erase_op(old_fork)
        else:  # raw had a single consumer (the gate): fork it now
            new_fork = hs.ForkOp(raw, 2)
            Rewriter.insert_op(new_fork, InsertPoint.after(raw.owner))
            use.operation.operands[use.index] = new_fork.results[0]
        invariants[0].operands[0] = new_fork.results[-1]
        return record.loop_names[loop]
    raise LoomError("no body-local invariant to mutate")
