"""The invariant checker and the golden model catch the raw_will_continue bug."""

import pytest

from loom.diagnostics import LoomError
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
