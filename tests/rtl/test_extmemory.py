"""Extmemory bridge with a request/response master port and a random-latency memory model; final memory checked.

Template templates/extmemory.sv.j2, every catalog parameter set, against the
golden op classes (tb.unit_cases)."""

import pytest

from tb.unit_cases import cases_for
from tb.unit_runner import run_cases

pytestmark = pytest.mark.rtl
FAMILIES = ['extmemory']


def cases():
    return [c for f in FAMILIES for c in cases_for(f)]


def test_extmemory_matches_golden():
    run_cases("extmemory", cases(), seed=1)


@pytest.mark.slow
@pytest.mark.parametrize("seed", [2, 3, 4])
def test_extmemory_long(seed):
    run_cases("extmemory", cases(), seed=seed, tokens=5000)
