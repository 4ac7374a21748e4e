"""The invariant checker and the golden model catch the raw_will_continue bug."""

import pytest
from xdsl.dialects import arith
from xdsl.dialects.builtin import IntegerAttr, NoneType, UnrealizedConversionCastOp, i1
from xdsl.rewriter import InsertPoint, Rewriter

from loom.diagnostics import LoomError
from loom.dialects import dataflow as df
from loom.dialects import handshake as hs
from loom.golden.run import find_func, run_dfg
from loom.ir import parse_module, print_module
from loom.lowering.invariant_check import check_invariants
from loom.lowering.mutations import wire_body_invariant_to_raw

from test_for_loop import CONST_TRIP, _bundle


def test_correct_lowering_passes_the_checker(lower):
    low = lower(CONST_TRIP)
    check_invariants(low.func, low.record, "t")  # does not raise


def test_body_invariant_on_raw_is_caught_by_checker_and_golden_run(lower):
    low = lower(CONST_TRIP)
    loop = wire_body_invariant_to_raw(low.func, low.record)
    with pytest.raises(LoomError, match=f"raw_will_continue of the loop '{loop}'"):
        check_invariants(low.func, low.record, "t")
    text = print_module(low.module)
    run = run_dfg(find_func(parse_module(text, "m"), None, "m"),
                  _bundle([1, 2, 3, 4, 5, 6, 7, 8], 3), "m")
    assert not run.ok
    assert any(p.startswith("leftover") and "dataflow.invariant" in p for p in run.problems()), \
        run.problems()


NO_CARRY = """
func.func @f(%b: memref<8xi32>, %k: i32) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c8 = arith.constant 8 : index
  scf.for %i = %c0 to %c8 step %c1 {
    %p = arith.addi %k, %k : i32
    memref.store %p, %b[%i] : memref<8xi32>
  }
  return
}
"""
"""A for loop without iter_args: its gate is raw_will_continue's one consumer."""


def test_the_broken_lowering_forks_a_raw_condition_of_one_consumer(lower):
    # mutations.py's other branch: no fork to widen, so the raw condition
    # gets a fork of two, the gate's and the invariant's
    low = lower(NO_CARRY)
    (raw,) = low.record.raw_conditions.values()
    assert [u.operation.name for u in raw.uses] == ["dataflow.gate"]
    loop = wire_body_invariant_to_raw(low.func, low.record)
    ((use,),) = [list(raw.uses)]
    fork = use.operation
    assert isinstance(fork, hs.ForkOp) and len(fork.results) == 2
    consumers = [[u.operation.name for u in r.uses] for r in fork.results]
    assert consumers == [["dataflow.gate"], ["dataflow.invariant"]]
    with pytest.raises(LoomError, match=f"raw_will_continue of the loop '{loop}'"):
        check_invariants(low.func, low.record, "t")


def _broken(lower):
    """CONST_TRIP lowered, for a test to break one invariant of (seeds 000 and 002)."""
    low = lower(CONST_TRIP)
    check_invariants(low.func, low.record, "t")
    return low


def test_an_access_without_control_is_caught(lower):
    # seed 000: every access takes its ctrl from the ctrl-done network
    low = _broken(lower)
    acc = next(a for a in low.record.accesses if a.queue is None)
    placeholder = UnrealizedConversionCastOp.get([], [NoneType()])
    Rewriter.insert_op(placeholder, InsertPoint.before(acc.dfg_op))
    op = acc.dfg_op
    op.operands[len(op.operands) - 1] = placeholder.results[0]   # (xDSL: no negative index)
    with pytest.raises(LoomError, match="has no control input from the ctrl-done network"):
        check_invariants(low.func, low.record, "t")


def test_a_body_invariant_off_after_cond_is_caught(lower):
    # seed 002: a body-local invariant is controlled by after_cond; here the
    # loop's invariant k gets the function's start token instead
    low = _broken(lower)
    (loop,) = [lp for lp, invs in low.record.body_invariants.items() if invs]
    inv = low.record.body_invariants[loop][0]
    inv.operands[0] = low.func.body.block.args[-1]
    with pytest.raises(LoomError, match="is a body-local invariant not controlled by after_cond"):
        check_invariants(low.func, low.record, "t")


@pytest.mark.parametrize("consumer", ["cond_br", "mux"])
def test_after_cond_used_as_data_is_caught(lower, consumer):
    # seed 002: after_cond only steers (a condition, a mux select); as a
    # cond_br's or a mux's data it would be a value
    low = _broken(lower)
    after_cond = next(iter(low.record.after_conds.values()))
    branch = next(op for op in low.func.body.walk() if isinstance(op, hs.ConditionalBranchOp))
    if consumer == "cond_br":
        branch.operands[1] = after_cond
    else:   # a mux choosing between copies of after_cond
        select = arith.ConstantOp(IntegerAttr(0, i1))
        mux = hs.MuxOp(select.result, [after_cond, after_cond])
        Rewriter.insert_op([select, mux], InsertPoint.before(branch))
    with pytest.raises(LoomError, match="as data"):
        check_invariants(low.func, low.record, "t")


def test_a_done_token_that_never_reaches_the_return_is_caught(lower):
    # seed 000: the return waits for every access's done token; here its
    # control comes straight from the start token
    low = _broken(lower)
    ret = low.func.body.block.last_op
    ret.operands[len(ret.operands) - 1] = low.func.body.block.args[-1]
    with pytest.raises(LoomError, match="never reaches the return control"):
        check_invariants(low.func, low.record, "t")


def test_after_cond_as_a_mux_select_steers(lower):
    # seed 002: a mux may choose by after_cond, as a branch may branch on it
    low = _broken(lower)
    after_cond = next(iter(low.record.after_conds.values()))
    branch = next(op for op in low.func.body.walk() if isinstance(op, hs.ConditionalBranchOp))
    zero, one = (arith.ConstantOp(IntegerAttr(v, i1)) for v in (0, 1))
    mux = hs.MuxOp(after_cond, [zero.result, one.result])
    Rewriter.insert_op([zero, one, mux], InsertPoint.before(branch))
    check_invariants(low.func, low.record, "t")  # does not raise


def test_raw_will_continue_as_the_gates_value_is_caught(lower):
    # seed 002: the after_cond gate takes raw_will_continue as its condition
    # only; as the value it gates it would be a body-local consumer
    low = _broken(lower)
    loop, after_cond = next(iter(low.record.after_conds.items()))
    raw = low.record.raw_conditions[loop]
    gate = next(op for op in low.func.body.walk()
                if isinstance(op, df.GateOp) and op.results[1] == after_cond)
    gate.operands[0] = raw
    with pytest.raises(LoomError, match=f"raw_will_continue of the loop"):
        check_invariants(low.func, low.record, "t")
