"""The II bound against Verilator: no run beats it. Under the ideal profile
(no stalls, memory ready every cycle with latency 1) the cycles per innermost
iteration measured on the RTL are at least the innermost loop's bound computed
from the DFG."""

import pytest

from loom.golden.loop_report import RAW_SUFFIX, innermost_loop
from loom.rtl.timing import loop_bound
from loom.sim.flow import run_seed
from loom.sim.profiles import IDEAL


@pytest.mark.rtl
@pytest.mark.parametrize("name", ["dot", "vecadd", "matmul"])
def test_no_run_beats_the_ii_bound(sim_setup, name):
    s = sim_setup(name)
    result = run_seed(s, IDEAL)
    assert result.passed, "\n".join(result.problems)
    loop = innermost_loop(s.traced_golden.graph)
    bound = loop_bound(s.rtl.netlist, loop.loop + RAW_SUFFIX)
    assert bound >= 1
    assert result.report["cycles"] / loop.body >= bound, bound
