"""Join: one output token per complete set of input tokens.

Template templates/join.sv.j2, every catalog parameter set, against the
golden op classes (tb.unit_cases)."""

import pytest

from tb.unit_cases import cases_for
from tb.unit_runner import run_cases

pytestmark = pytest.mark.rtl
FAMILIES = ['join']


def cases():
    return [c for f in FAMILIES for c in cases_for(f)]


def test_join_matches_golden():
    run_cases("join", cases(), seed=1)


@pytest.mark.slow
@pytest.mark.parametrize("seed", [2, 3, 4])
def test_join_long(seed):
    run_cases("join", cases(), seed=seed, tokens=5000)
