"""Control_merge: token plus the index of the input taken.

Template templates/control_merge.sv.j2, every catalog parameter set, against the
golden op classes (tb.unit_cases)."""

import pytest

from tb.unit_cases import cases_for
from tb.unit_runner import run_cases

pytestmark = pytest.mark.rtl
FAMILIES = ['control_merge']


def cases():
    return [c for f in FAMILIES for c in cases_for(f)]


def test_control_merge_matches_golden():
    run_cases("control_merge", cases(), seed=1)


@pytest.mark.slow
@pytest.mark.parametrize("seed", [2, 3, 4])
def test_control_merge_long(seed):
    run_cases("control_merge", cases(), seed=seed, tokens=5000)
