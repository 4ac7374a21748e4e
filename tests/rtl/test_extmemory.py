"""Extmemory bridge with a request/response master port and a random-latency memory model; final memory checked.

Template templates/extmemory.sv.j2, every catalog parameter set, against the
golden op classes (tb.unit_cases). The memory agent also checks the bridge's
mem_idle output every cycle (high exactly when nothing is in flight)."""

import pytest

from loom.rtl.catalog import CATALOG
from loom.rtl.units import EXTMEMORY_IN_FLIGHT
from tb.unit_cases import cases_for, memory_stream_cases
from tb.unit_runner import Profile, run_cases

pytestmark = pytest.mark.rtl
FAMILIES = ['extmemory']


def cases():
    return [c for f in FAMILIES for c in cases_for(f)]


def _check_in_flight(summary):
    """Done means ordered: the next access enters while earlier ones are in
    flight (up to k of them), never more than k."""
    for episode, res in summary.items():
        for i, params in enumerate(CATALOG["extmemory"]):
            k = params.get("k", EXTMEMORY_IN_FLIGHT)
            got = res["mem_in_flight"][f"u{i}_mem"]
            assert got <= k, (episode, params, got)
            if episode == "full_rate" and k >= 2:
                assert got >= 2, (episode, params, got)


def test_extmemory_matches_golden():
    _check_in_flight(run_cases("extmemory", cases(), seed=1))


IDEAL = Profile("ideal", (0.0, 0.0), (1.0, 1.0), mem_latency=(1, 1))


def test_extmemory_takes_one_access_per_cycle_per_port():
    """No stalls, memory latency 1: a stream of loads on one port, one of
    stores, and both at once on independent elements, run at one load and
    one store per cycle (a bridge of one access per beat takes 2n cycles on
    the last; the old bridge, one access in flight per port, about 4n)."""
    n = 300
    stream = memory_stream_cases("extmemory", CATALOG["extmemory"][0])
    cycles = run_cases("extmemory_stream", stream, seed=1, tokens=n,
                       profiles=[IDEAL])["ideal"]["cycles"]
    assert cycles <= n + 40, cycles   # 30 of them are the runner's drain


@pytest.mark.slow
@pytest.mark.parametrize("seed", [2, 3, 4])
def test_extmemory_long(seed):
    _check_in_flight(run_cases("extmemory", cases(), seed=seed, tokens=5000))
