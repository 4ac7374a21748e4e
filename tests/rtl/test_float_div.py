"""divf on binary32 and binary64 (templates/float_div.sv.j2), every catalog parameter set, against the golden
op classes (loom.floats, numpy's IEEE arithmetic) on corner-heavy operands
(tb.unit_cases) under the runner's stall profiles."""

import pytest

from tb.unit_cases import cases_for
from tb.unit_runner import run_cases

pytestmark = pytest.mark.rtl
FAMILIES = ["divf"]


def cases():
    return [c for f in FAMILIES for c in cases_for(f)]


def test_float_div_matches_golden():
    run_cases("float_div", cases(), seed=1)


@pytest.mark.slow
@pytest.mark.parametrize("seed", [2, 3, 4])
def test_float_div_long(seed):
    run_cases("float_div", cases(), seed=seed, tokens=5000)
