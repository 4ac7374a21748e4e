"""minnumf and maxnumf on binary32 and binary64 (templates/float_minmax.sv.j2),
against the golden op classes on corner-heavy operands (tb.unit_cases)."""

import pytest

from tb.unit_cases import cases_for
from tb.unit_runner import run_cases

pytestmark = pytest.mark.rtl
FAMILIES = ["minnumf", "maxnumf"]


def cases():
    return [c for f in FAMILIES for c in cases_for(f)]


def test_float_minmax_matches_golden():
    run_cases("float_minmax", cases(), seed=1)


@pytest.mark.slow
@pytest.mark.parametrize("seed", [2, 3, 4])
def test_float_minmax_long(seed):
    run_cases("float_minmax", cases(), seed=seed, tokens=5000)
