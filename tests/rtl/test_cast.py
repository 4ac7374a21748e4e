"""Extsi / extui / trunci / index_cast / bitcast.

Template templates/cast.sv.j2, every catalog parameter set, against the
golden op classes (tb.unit_cases)."""

import pytest

from tb.unit_cases import cases_for
from tb.unit_runner import run_cases

pytestmark = pytest.mark.rtl
FAMILIES = ['extsi', 'extui', 'trunci', 'index_cast', 'bitcast']


def cases():
    return [c for f in FAMILIES for c in cases_for(f)]


def test_cast_matches_golden():
    run_cases("cast", cases(), seed=1)


@pytest.mark.slow
@pytest.mark.parametrize("seed", [2, 3, 4])
def test_cast_long(seed):
    run_cases("cast", cases(), seed=seed, tokens=5000)
