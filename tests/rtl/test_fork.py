"""Eager fork: every output gets every token once, even under uneven backpressure.

Template templates/fork.sv.j2, every catalog parameter set, against the
golden op classes (tb.unit_cases)."""

import pytest

from tb.unit_cases import cases_for
from tb.unit_runner import run_cases

pytestmark = pytest.mark.rtl
FAMILIES = ['fork']


def cases():
    return [c for f in FAMILIES for c in cases_for(f)]


def test_fork_matches_golden():
    run_cases("fork", cases(), seed=1)


@pytest.mark.slow
@pytest.mark.parametrize("seed", [2, 3, 4])
def test_fork_long(seed):
    run_cases("fork", cases(), seed=seed, tokens=5000)
