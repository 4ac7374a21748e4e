"""On-chip memory: access programs ordered like a ctrl-done chain.

Template templates/memory.sv.j2, every catalog parameter set, against the
golden op classes (tb.unit_cases)."""

import pytest

from tb.unit_cases import cases_for
from tb.unit_runner import run_cases

pytestmark = pytest.mark.rtl
FAMILIES = ['memory']


def cases():
    return [c for f in FAMILIES for c in cases_for(f)]


def test_memory_matches_golden():
    run_cases("memory", cases(), seed=1)


@pytest.mark.slow
@pytest.mark.parametrize("seed", [2, 3, 4])
def test_memory_long(seed):
    run_cases("memory", cases(), seed=seed, tokens=5000)
