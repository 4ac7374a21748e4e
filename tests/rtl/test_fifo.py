"""N-slot FIFOs, transparent and not: identity on the stream.

Template templates/fifo.sv.j2, every catalog parameter set, against the
golden op classes (tb.unit_cases)."""

import pytest

from tb.unit_cases import cases_for
from tb.unit_runner import run_cases

pytestmark = pytest.mark.rtl
FAMILIES = ['fifo']


def cases():
    return [c for f in FAMILIES for c in cases_for(f)]


def test_fifo_matches_golden():
    run_cases("fifo", cases(), seed=1)


@pytest.mark.slow
@pytest.mark.parametrize("seed", [2, 3, 4])
def test_fifo_long(seed):
    run_cases("fifo", cases(), seed=seed, tokens=5000)
