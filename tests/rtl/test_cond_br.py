"""Cond_br: routes each token by its condition, plain and with tag/spec extras.

Template templates/cond_br.sv.j2, every catalog parameter set, against the
golden op classes (tb.unit_cases)."""

import pytest

from tb.unit_cases import cases_for
from tb.unit_runner import run_cases

pytestmark = pytest.mark.rtl
FAMILIES = ['cond_br']


def cases():
    return [c for f in FAMILIES for c in cases_for(f)]


def test_cond_br_matches_golden():
    run_cases("cond_br", cases(), seed=1)


@pytest.mark.slow
@pytest.mark.parametrize("seed", [2, 3, 4])
def test_cond_br_long(seed):
    run_cases("cond_br", cases(), seed=seed, tokens=5000)
