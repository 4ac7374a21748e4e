"""Loops that only compute constants, folded before lowering (issue 32 item 3).

`int x = 0; for (unsigned i = 0; i < N; ++i) x++;` leaves an scf.while
that counts to N and yields x = N. LLVM folds such loops with `indvars` and
`loop-deletion`; our front end runs no LLVM loop passes (clang at -O0 with
its passes disabled, then MLIR's mem2reg, sroa, cse and canonicalize), so it
would be hardware that takes N cycles to produce a constant.

A loop folds when every value it uses from outside is an arith.constant
(its bounds and initial values included) and everything inside it is arith
or scf (no memory access, no call): its results are then a function of
constants. The reference interpreter, whose semantics are those of the
SCF reference run, evaluates it, within FOLD_STEPS iterations; the results
become arith.constants and the loop goes. Innermost loops first, so an
outer loop whose inner loops folded may fold in turn. A loop whose
evaluation does not finish in the budget, divides by zero or yields an
undefined value stays as it is (its hardware does what the C does).

This runs on the SCF the raising produced, after it (driver.py), so the
raising is unchanged: a folded loop was an scf.for or scf.while like any
other, and what replaces it is constants the lowering already takes. The
SCF reference run of the kernel checks the fold against the native run.
"""

from __future__ import annotations

from xdsl.dialects import arith, scf
from xdsl.dialects.builtin import IndexType, IntegerAttr, IntegerType, ModuleOp
from xdsl.ir import Operation, SSAValue
from xdsl.utils.exceptions import InterpretationError

from loom.frontend.interpreter import reference_interpreter
from loom.frontend.reference_ops import POISON, RunError, to_signed, width_of

FOLD_STEPS = 1 << 16
"""Iterations (of all its loops together) a loop may take to be folded."""

_SCF = {"scf.yield", "scf.condition", "scf.if", "scf.for", "scf.while"}


def fold_constant_loops(module: ModuleOp) -> int:
    """Fold every loop of `module` that computes constants; the number folded."""
    loops = [op for op in module.walk() if isinstance(op, scf.ForOp | scf.WhileOp)]
    folded = 0
    for loop in reversed(loops):                  # innermost (and last) first
        values = _evaluate(module, loop)
        if values is not None:
            _replace(loop, values)
            folded += 1
    return folded


def _outside_values(loop: Operation) -> list[SSAValue] | None:
    """The values `loop` uses from outside, if it only computes; else None."""
    outside: dict[SSAValue, None] = dict.fromkeys(loop.operands)
    for op in loop.walk():
        if op is loop:
            continue
        if not (op.name.startswith("arith.") or op.name in _SCF):
            return None
        outside.update((v, None) for v in op.operands if not loop.is_ancestor(v.owner))
    return list(outside)


def _evaluate(module: ModuleOp, loop: Operation) -> list[int] | None:
    outside = _outside_values(loop)
    if outside is None or not all(isinstance(v.owner, arith.ConstantOp) for v in outside):
        return None
    if not all(isinstance(r.type, IntegerType | IndexType) for r in loop.results):
        return None
    interp = reference_interpreter(module, FOLD_STEPS)
    try:
        for v in outside:
            interp.set_values(zip([v], interp.run_op(v.owner, ())))
        results = interp.run_op(loop, interp.get_values(loop.operands))
    except (RunError, InterpretationError):
        return None
    if any(r is POISON for r in results):
        return None
    return list(results)


def _replace(loop: Operation, values: list[int]) -> None:
    for result, value in zip(loop.results, values):
        const = arith.ConstantOp(IntegerAttr(to_signed(value, width_of(result.type)),
                                             result.type))
        const.location = loop.location
        loop.parent_block().insert_op_before(const, loop)
        result.replace_all_uses_with(const.result)
    loop.detach()
    loop.erase()
