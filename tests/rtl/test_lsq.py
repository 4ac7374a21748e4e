"""Load-store queue: programs of allocations with colliding addresses.

Template templates/lsq.sv.j2, every catalog parameter set, against the
golden queue (loom.golden.ops.lsq: each access in program order) under
random stalls and memory latencies; the final memory is the program's."""

import pytest

from tb.unit_cases import cases_for
from tb.unit_runner import run_cases

pytestmark = pytest.mark.rtl


def test_lsq_matches_golden():
    run_cases("lsq", cases_for("lsq"), seed=1)


@pytest.mark.slow
@pytest.mark.parametrize("seed", [2, 3, 4])
def test_lsq_long(seed):
    run_cases("lsq", cases_for("lsq"), seed=seed, tokens=4000)
