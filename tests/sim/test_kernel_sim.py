"""Every kernel of kernels/ on Verilator under two stall seeds: each channel's
RTL tokens equal the golden model's, results and memories equal the native C run."""

import pytest

from loom.regress.plan import SLOW_KERNELS, all_kernels
from loom.sim.flow import run_seed
from loom.sim import profiles

KERNELS = all_kernels()
# SLOW_KERNELS (loom.regress.plan): long builds and runs, with make test-slow only.


def kernel_param(name: str):
    return pytest.param(name, marks=pytest.mark.slow) if name in SLOW_KERNELS else name


def test_slow_kernels_exist():
    assert SLOW_KERNELS <= set(KERNELS)


@pytest.mark.parametrize("name", [kernel_param(n) for n in KERNELS])
def test_kernel_rtl_matches_golden_and_native(sim_setup, name):
    s = sim_setup(name)
    for seed in profiles.STALL_SEEDS:   # mild and harsh
        result = run_seed(s, profiles.for_seed(seed))
        assert result.passed, f"seed {seed}: " + "\n".join(result.problems)
        assert result.report["tokens"] == s.golden_tokens  # every DFG edge, token for token


# --ordering seed lowers as the seeds do, every access of an array after the
# one before it: the same check, every kernel, with make test-slow.
@pytest.mark.slow
@pytest.mark.parametrize("name", KERNELS)
def test_kernel_rtl_with_seed_ordering(sim_setup, name):
    s = sim_setup(name, "seed")
    for seed in profiles.STALL_SEEDS:
        result = run_seed(s, profiles.for_seed(seed))
        assert result.passed, f"seed {seed}: " + "\n".join(result.problems)
        assert result.report["tokens"] == s.golden_tokens
