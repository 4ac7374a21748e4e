"""Compose / decompose (seed 004): data in the low bits, extras above.

Template templates/compose.sv.j2, every catalog parameter set, against the
golden op classes (tb.unit_cases)."""

import pytest

from tb.unit_cases import cases_for
from tb.unit_runner import run_cases

pytestmark = pytest.mark.rtl
FAMILIES = ['compose', 'decompose']


def cases():
    return [c for f in FAMILIES for c in cases_for(f)]


def test_compose_matches_golden():
    run_cases("compose", cases(), seed=1)


@pytest.mark.slow
@pytest.mark.parametrize("seed", [2, 3, 4])
def test_compose_long(seed):
    run_cases("compose", cases(), seed=seed, tokens=5000)
