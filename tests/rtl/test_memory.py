"""On-chip memory: access programs ordered like a ctrl-done chain.

Template templates/memory.sv.j2, every catalog parameter set, against the
golden op classes (tb.unit_cases)."""

import pytest

from loom.rtl.catalog import CATALOG
from tb.unit_cases import cases_for, memory_stream_cases
from tb.unit_runner import Profile, run_cases

pytestmark = pytest.mark.rtl
FAMILIES = ['memory']


def cases():
    return [c for f in FAMILIES for c in cases_for(f)]


def test_memory_matches_golden():
    run_cases("memory", cases(), seed=1)


def test_memory_takes_one_access_per_cycle_per_port():
    """With done and data taken at once, each port accepts one request per cycle."""
    n = 300
    stream = memory_stream_cases("memory", CATALOG["memory"][0])
    ideal = Profile("ideal", (0.0, 0.0), (1.0, 1.0))
    cycles = run_cases("memory_stream", stream, seed=1, tokens=n, profiles=[ideal])["ideal"]["cycles"]
    assert cycles <= n + 40, cycles   # 30 of them are the runner's drain


@pytest.mark.slow
@pytest.mark.parametrize("seed", [2, 3, 4])
def test_memory_long(seed):
    run_cases("memory", cases(), seed=seed, tokens=5000)
