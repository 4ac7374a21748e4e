"""Load port: address half joined with ctrl, data half a wire.

Template templates/mem_load.sv.j2, every catalog parameter set, against the
golden op classes (tb.unit_cases)."""

import pytest

from tb.unit_cases import cases_for
from tb.unit_runner import run_cases

pytestmark = pytest.mark.rtl
FAMILIES = ['load']


def cases():
    return [c for f in FAMILIES for c in cases_for(f)]


def test_mem_load_matches_golden():
    run_cases("mem_load", cases(), seed=1)


@pytest.mark.slow
@pytest.mark.parametrize("seed", [2, 3, 4])
def test_mem_load_long(seed):
    run_cases("mem_load", cases(), seed=seed, tokens=5000)
