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


@pytest.mark.rtl
def test_a_loop_that_loads_and_stores_one_array_keeps_close_to_its_bound(sim_setup):
    """image_resize (a[i][j] = c - a[i][j], every loop free under the
    analysis): each iteration loads and stores one array, so it needs a
    read and a write per beat from its bridge, a done counter that lets
    the store take the load's done when the data arrive, and room for the
    next row to start while the last one drains. Within 10 % of the
    bound over the whole run (fill and drain included): 965 cycles for
    900 iterations; with one access per beat 1,834, with a done counter of
    K 1,385, without the room between rows 994."""
    s = sim_setup("image_resize")
    result = run_seed(s, IDEAL)
    assert result.passed, "\n".join(result.problems)
    loop = innermost_loop(s.traced_golden.graph)
    bound = loop_bound(s.rtl.netlist, loop.loop + RAW_SUFFIX)
    assert result.report["cycles"] / loop.body <= 1.1 * bound, (result.report["cycles"], bound)
