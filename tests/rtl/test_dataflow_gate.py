"""dataflow.gate (seed 001): NeedHead / NeedNext over random bursts (zero-trip
included) and the seed example back to back."""

import pytest

from loom.golden.ops.gate import Gate
from tb.unit_cases import cases_for, seed_case
from tb.unit_runner import golden_streams, run_cases

pytestmark = pytest.mark.rtl

SEED_IN = [[0, 1, 2, 3, 4], [1, 1, 1, 1, 0]]
SEED_OUT = [[0, 1, 2, 3], [1, 1, 1, 0]]


def cases():
    seed = [seed_case("gate", dict(w=w), SEED_IN, SEED_OUT) for w in (64, 32)]
    return cases_for("gate") + seed


def test_golden_agrees_with_seed_example():
    assert golden_streams(Gate(), SEED_IN)[0] == SEED_OUT


def test_dataflow_gate_matches_golden_and_seed():
    run_cases("dataflow_gate", cases(), seed=1)


@pytest.mark.slow
@pytest.mark.parametrize("seed", [2, 3, 4])
def test_dataflow_gate_long(seed):
    run_cases("dataflow_gate", cases(), seed=seed, tokens=5000)
