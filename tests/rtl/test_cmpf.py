"""Cmpf: the sixteen predicates on binary32 and binary64.

Template templates/cmpf.sv.j2, every catalog parameter set, against the
golden op classes (tb.unit_cases), on operands that are often corners
(+-0, subnormals, infinities, NaNs) or ties."""

import pytest

from tb.unit_cases import cases_for
from tb.unit_runner import run_cases

pytestmark = pytest.mark.rtl


def test_cmpf_matches_golden():
    run_cases("cmpf", cases_for("cmpf"), seed=1)


@pytest.mark.slow
@pytest.mark.parametrize("seed", [2, 3, 4])
def test_cmpf_long(seed):
    run_cases("cmpf", cases_for("cmpf"), seed=seed, tokens=5000)
