"""Cmpi: all ten predicates, fixed, and configured (a plain input held at the
predicate's index).

Template templates/cmpi.sv.j2, every catalog parameter set, against the
golden op classes (tb.unit_cases)."""

import pytest

from tb.unit_cases import cases_for
from tb.unit_runner import run_cases

pytestmark = pytest.mark.rtl
FAMILIES = ['cmpi']


def cases():
    return [c for f in FAMILIES for c in cases_for(f)]


def test_cmpi_matches_golden():
    run_cases("cmpi", cases(), seed=1)


@pytest.mark.slow
@pytest.mark.parametrize("seed", [2, 3, 4])
def test_cmpi_long(seed):
    run_cases("cmpi", cases(), seed=seed, tokens=5000)
