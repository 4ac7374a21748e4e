"""dataflow.stream (seed 001): two-phase generator, signed compare, all step
ops; the seed example (0, 1, 4 with += and <) back to back."""

import pytest

from loom.golden.ops.stream import Stream
from tb.unit_cases import cases_for, seed_case
from tb.unit_runner import golden_streams, run_cases

pytestmark = pytest.mark.rtl

SEED_IN = [[0], [1], [4]]
SEED_OUT = [[0, 1, 2, 3, 4], [1, 1, 1, 1, 0]]


def cases():
    seed = [seed_case("stream", dict(step_op="+=", cont_cond="<", w=w), SEED_IN, SEED_OUT)
            for w in (64, 32)]
    return cases_for("stream") + seed


def test_golden_agrees_with_seed_example():
    assert golden_streams(Stream("+=", "<"), SEED_IN)[0] == SEED_OUT


def test_dataflow_stream_matches_golden_and_seed():
    run_cases("dataflow_stream", cases(), seed=1)


@pytest.mark.slow
@pytest.mark.parametrize("seed", [2, 3, 4])
def test_dataflow_stream_long(seed):
    run_cases("dataflow_stream", cases(), seed=seed, tokens=5000)
