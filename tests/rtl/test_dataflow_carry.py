"""dataflow.carry (seed 001): NeedInit / NeedCond / NeedLoop over random bursts,
and the seed's description as an example: the initial value, one carried
value per true, reset by the terminating false."""

import pytest

from loom.golden.ops.carry import Carry
from tb.unit_cases import cases_for, seed_case
from tb.unit_runner import golden_streams, run_cases

pytestmark = pytest.mark.rtl

# d, a, b: a 3-iteration loop carrying 10 -> 11 -> 12 -> 13
SEED_IN = [[1, 1, 1, 0], [10], [11, 12, 13]]
SEED_OUT = [[10, 11, 12, 13]]


def cases():
    seed = [seed_case("carry", dict(w=w), SEED_IN, SEED_OUT) for w in (64, 32)]
    return cases_for("carry") + seed


def test_golden_agrees_with_seed_example():
    assert golden_streams(Carry(), SEED_IN)[0] == SEED_OUT


def test_dataflow_carry_matches_golden_and_seed():
    run_cases("dataflow_carry", cases(), seed=1)


@pytest.mark.slow
@pytest.mark.parametrize("seed", [2, 3, 4])
def test_dataflow_carry_long(seed):
    run_cases("dataflow_carry", cases(), seed=seed, tokens=5000)
