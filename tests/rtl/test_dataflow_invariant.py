"""dataflow.invariant (seed 001): NeedInit / NeedCond over random bursts, and the
seed's description as an example: emitted once on arrival, replayed per
true, reset by the terminating false (which emits nothing)."""

import pytest

from loom.golden.ops.invariant import Invariant
from tb.unit_cases import cases_for, seed_case
from tb.unit_runner import golden_streams, run_cases

pytestmark = pytest.mark.rtl

# d, a: four trues then the false
SEED_IN = [[1, 1, 1, 1, 0], [7]]
SEED_OUT = [[7, 7, 7, 7, 7]]


def cases():
    seed = [seed_case("invariant", dict(w=w), SEED_IN, SEED_OUT) for w in (64, 32)]
    return cases_for("invariant") + seed


def test_golden_agrees_with_seed_example():
    assert golden_streams(Invariant(), SEED_IN)[0] == SEED_OUT


def test_dataflow_invariant_matches_golden_and_seed():
    run_cases("dataflow_invariant", cases(), seed=1)


@pytest.mark.slow
@pytest.mark.parametrize("seed", [2, 3, 4])
def test_dataflow_invariant_long(seed):
    run_cases("dataflow_invariant", cases(), seed=seed, tokens=5000)
