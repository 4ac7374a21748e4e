"""Combinational binary arith ops with exact width semantics (w = 1, 32, 64).

Template templates/arith_binary.sv.j2, every catalog parameter set, against the
golden op classes (tb.unit_cases)."""

import pytest

from tb.unit_cases import cases_for
from tb.unit_runner import run_cases

pytestmark = pytest.mark.rtl
FAMILIES = ['addi', 'subi', 'andi', 'ori', 'xori', 'shli', 'shrsi', 'shrui', 'minsi', 'maxsi', 'minui', 'maxui']


def cases():
    return [c for f in FAMILIES for c in cases_for(f)]


def test_arith_binary_matches_golden():
    run_cases("arith_binary", cases(), seed=1)


@pytest.mark.slow
@pytest.mark.parametrize("seed", [2, 3, 4])
def test_arith_binary_long(seed):
    run_cases("arith_binary", cases(), seed=seed, tokens=5000)
