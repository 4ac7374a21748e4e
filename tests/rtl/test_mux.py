"""Mux: consumes the select and only the selected input, plain and with tag/spec extras.

Template templates/mux.sv.j2, every catalog parameter set, against the
golden op classes (tb.unit_cases)."""

import pytest

from tb.unit_cases import cases_for
from tb.unit_runner import run_cases

pytestmark = pytest.mark.rtl
FAMILIES = ['mux']


def cases():
    return [c for f in FAMILIES for c in cases_for(f)]


def test_mux_matches_golden():
    run_cases("mux", cases(), seed=1)


@pytest.mark.slow
@pytest.mark.parametrize("seed", [2, 3, 4])
def test_mux_long(seed):
    run_cases("mux", cases(), seed=seed, tokens=5000)
