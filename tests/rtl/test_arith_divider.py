"""The pipelined dividers (templates/arith_divider.sv.j2): every catalog width
and depth under random validity and backpressure, every pair of corner
operands (zero, one, -1, MIN, ...), one result a cycle after the declared
latency, and the four on one datapath (`divrem`, op_sel configured), against
the golden op classes (tb.unit_cases)."""

import random

import pytest

from loom.rtl.units import DIV_OPS, divider_latency, unit_spec
from tb.unit_cases import BINARY_CLASSES, cases_for, configured
from tb.unit_runner import PROFILES, Stimulus, actor_case, edge_values, run_cases

pytestmark = pytest.mark.rtl
CORNER_WIDTHS = (8, 64)


def _corners(op: str, w: int):
    """Every pair of edge values (division by zero, MIN / -1, ...) in a shuffled order."""
    pairs = [(a, b) for a in edge_values(w) for b in edge_values(w)]

    def stimulus(rng: random.Random, count: int) -> Stimulus:
        picked = pairs * max(1, count // len(pairs))
        rng.shuffle(picked)
        return Stimulus([[a for a, _ in picked], [b for _, b in picked]])

    return actor_case(unit_spec(op, w=w), lambda: BINARY_CLASSES[op](w), stimulus)


def test_divider_matches_golden():
    cases = [c for op in DIV_OPS for c in cases_for(op)]
    run_cases("arith_divider", cases, seed=1)


@pytest.mark.parametrize("w", [8, 32])
def test_the_four_on_one_datapath_match_golden(w):
    # `divrem`, a fabric unit's divider: op_sel (a config field) held at each
    # op's index in DIV_OPS, an instance each
    run_cases(f"arith_divrem_w{w}", configured("divrem", DIV_OPS, w=w), seed=1)


def test_divider_corner_pairs():
    cases = [_corners(op, w) for op in DIV_OPS for w in CORNER_WIDTHS]
    run_cases("arith_divider_corners", cases, seed=1, tokens=200)


@pytest.mark.parametrize("w, latency", [(32, divider_latency(32)), (32, 1), (16, 16)])
def test_divider_takes_one_pair_a_cycle(w, latency):
    # at full rate N pairs leave after the pipeline's latency plus N - 1 cycles
    n = 300
    case = next(c for c in cases_for("divsi") if c.spec.params == dict(w=w, latency=latency))
    summary = run_cases(f"arith_divider_rate_w{w}_l{latency}", [case], seed=1, tokens=n,
                        profiles=PROFILES[:1])
    cycles = summary["full_rate"]["cycles"]
    assert n + latency <= cycles <= n + latency + 40, cycles


@pytest.mark.slow
@pytest.mark.parametrize("seed", [2, 3, 4])
def test_divider_long(seed):
    run_cases("arith_divider", [c for op in DIV_OPS for c in cases_for(op)], seed=seed,
              tokens=5000)
