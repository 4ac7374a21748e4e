"""Unbundle / bundle (seed 004): a channel split into control, data and one
channel per extra signal, and joined back.

Template templates/bundle.sv.j2, every catalog parameter set, against the
golden op classes (tb.unit_cases)."""

import pytest

from tb.unit_cases import cases_for
from tb.unit_runner import run_cases

pytestmark = pytest.mark.rtl
FAMILIES = ['unbundle', 'bundle']


def cases():
    return [c for f in FAMILIES for c in cases_for(f)]


def test_bundle_matches_golden():
    run_cases("bundle", cases(), seed=1)


@pytest.mark.slow
@pytest.mark.parametrize("seed", [2, 3, 4])
def test_bundle_long(seed):
    run_cases("bundle", cases(), seed=seed, tokens=5000)
