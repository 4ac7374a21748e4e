"""The zero-trip guard (lowering/zero_trip_guard.py, issue 4 and seed 002):
a loop that may run zero times is wrapped in `scf.if (lb < ub)`, except
one with constant bounds that runs and one already under exactly that
guard. The loops are SCF written here; what must be wrapped follows from
the loop's bounds and the guard's condition."""

from __future__ import annotations

import pytest

from loom.ir import parse_module
from loom.lowering.zero_trip_guard import guard_zero_trip_loops


def _loop_under(cond: str, branch: str = "then") -> str:
    """A loop from %lb to %ub inside `scf.if (cmpi <cond> %lb, %ub)`, in its
    `branch` region (the other region empty)."""
    loop = """scf.for %i = %lb to %ub step %c1 : i32 {
          memref.store %i, %a[%c0] : memref<4xi32>
        }"""
    then, other = (loop, "") if branch == "then" else ("", loop)
    return f"""builtin.module {{
  func.func @f(%a: memref<4xi32>, %lb: i32, %ub: i32) {{
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : i32
    %g = arith.cmpi {cond}, %lb, %ub : i32
    scf.if %g {{
        {then}
    }} else {{
        {other}
    }}
    func.return
  }}
}}"""


def _wrapped(text: str) -> int:
    return guard_zero_trip_loops(parse_module(text, "t.mlir"))


def test_a_loop_already_under_its_guard_is_left_alone():
    assert _wrapped(_loop_under("slt")) == 0


@pytest.mark.parametrize("cond", ["ne", "eq", "sle", "ult"])
def test_a_loop_under_another_condition_is_guarded(cond):
    # ne, sle, ult admit lb >= ub (or lb > ub signed): the loop may not run
    assert _wrapped(_loop_under(cond)) == 1


def test_a_loop_in_the_guards_else_region_is_guarded():
    # there lb >= ub: it never runs, and must still be quiescent
    assert _wrapped(_loop_under("slt", branch="else")) == 1


def test_constant_bounds_that_run_need_no_guard_and_empty_ones_do():
    text = """builtin.module {
  func.func @f(%a: memref<4xi32>) {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : i32
    %lo = arith.constant LO : i32
    %hi = arith.constant 3 : i32
    scf.for %i = %lo to %hi step %c1 : i32 {
      memref.store %i, %a[%c0] : memref<4xi32>
    }
    func.return
  }
}"""
    assert _wrapped(text.replace("LO", "0")) == 0
    assert _wrapped(text.replace("LO", "3")) == 1
