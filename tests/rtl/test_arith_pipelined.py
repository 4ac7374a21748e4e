"""Muli with a latency parameter, corner cases included.

Template templates/arith_pipelined.sv.j2, every catalog parameter set, against the
golden op classes (tb.unit_cases)."""

import pytest

from tb.unit_cases import cases_for
from tb.unit_runner import run_cases

pytestmark = pytest.mark.rtl
FAMILIES = ['muli']


def cases():
    return [c for f in FAMILIES for c in cases_for(f)]


def test_arith_pipelined_matches_golden():
    run_cases("arith_pipelined", cases(), seed=1)


@pytest.mark.slow
@pytest.mark.parametrize("seed", [2, 3, 4])
def test_arith_pipelined_long(seed):
    run_cases("arith_pipelined", cases(), seed=seed, tokens=5000)
