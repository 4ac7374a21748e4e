"""TEHB-style one-slot buffer (cuts ready): identity on the stream.

Template templates/tehb.sv.j2, every catalog parameter set, against the
golden op classes (tb.unit_cases)."""

import pytest

from tb.unit_cases import cases_for
from tb.unit_runner import run_cases

pytestmark = pytest.mark.rtl
FAMILIES = ['tehb']


def cases():
    return [c for f in FAMILIES for c in cases_for(f)]


def test_tehb_matches_golden():
    run_cases("tehb", cases(), seed=1)


@pytest.mark.slow
@pytest.mark.parametrize("seed", [2, 3, 4])
def test_tehb_long(seed):
    run_cases("tehb", cases(), seed=seed, tokens=5000)
