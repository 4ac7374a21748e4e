"""The II bound against Verilator: no run beats it. Under the ideal profile
(no stalls, memory ready every cycle with latency 1) the cycles per innermost
iteration measured on the RTL are at least the bound computed from the DFG."""

import pytest

from loom.golden.loop_report import loop_streams
from loom.rtl.timing import ii_bound
from loom.sim.flow import run_seed
from loom.sim.profiles import IDEAL


@pytest.mark.rtl
@pytest.mark.parametrize("name", ["dot", "vecadd"])
def test_no_run_beats_the_ii_bound(sim_setup, name):
    s = sim_setup(name)
    result = run_seed(s, IDEAL)
    assert result.passed, "\n".join(result.problems)
    iterations = max(lp.body for lp in loop_streams(s.traced_golden.graph) if lp.body)
    bound, cycle = ii_bound(s.rtl.netlist)
    assert bound >= 1 and cycle
    assert result.report["cycles"] / iterations >= bound, (bound, cycle)
