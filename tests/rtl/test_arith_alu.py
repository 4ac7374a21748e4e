"""The configurable ALU (templates/arith_alu.sv.j2): ALU_OPS on one datapath,
the plain input `op_sel` a fabric unit's config field. Every catalog width,
an instance per op with `op_sel` held at the op's index, under random
validity and backpressure, against each op's golden class (tb.unit_cases)."""

import pytest

from tb.unit_cases import cases_for
from tb.unit_runner import run_cases

pytestmark = pytest.mark.rtl


def test_alu_matches_golden():
    run_cases("alu", cases_for("alu"), seed=1)


@pytest.mark.slow
@pytest.mark.parametrize("seed", [2, 3])
def test_alu_long(seed):
    run_cases("alu", cases_for("alu"), seed=seed, tokens=3000)
