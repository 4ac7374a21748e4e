"""OEHB-style one-slot buffer (cuts valid/data): identity on the stream.

Template templates/oehb.sv.j2, every catalog parameter set, against the
golden op classes (tb.unit_cases)."""

import pytest

from tb.unit_cases import cases_for
from tb.unit_runner import run_cases

pytestmark = pytest.mark.rtl
FAMILIES = ['oehb']


def cases():
    return [c for f in FAMILIES for c in cases_for(f)]


def test_oehb_matches_golden():
    run_cases("oehb", cases(), seed=1)


@pytest.mark.slow
@pytest.mark.parametrize("seed", [2, 3, 4])
def test_oehb_long(seed):
    run_cases("oehb", cases(), seed=seed, tokens=5000)
