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


# --ordering lsq puts an array whose chain keeps an innermost loop in order
# behind a load-store queue: the kernels of kernels/ that get one (each run checks it
# has), the same check under two stall seeds.
QUEUED = ["atax", "bicg", "bitonic_sort", "break_loop", "bubble_sort", "cnn_layer", "fib64",
          "fir_block", "floyd_warshall", "gesummv", "hist_bytes", "histogram", "insertion_break",
          "insertion_sort", "k2mm", "kmp", "matrix_power", "nw", "pivot", "prefix_sum",
          "seidel_2d", "sha256_block", "sieve", "triangular", "trisolv", "viterbi"]


@pytest.mark.parametrize("name", [kernel_param(n) for n in QUEUED])
def test_kernel_rtl_with_a_load_store_queue(sim_setup, name):
    s = sim_setup(name, "lsq")
    assert any(inst.spec.family == "lsq" for inst in s.rtl.netlist.instances)
    for seed in profiles.STALL_SEEDS:
        result = run_seed(s, profiles.for_seed(seed))
        assert result.passed, f"seed {seed}: " + "\n".join(result.problems)
        assert result.report["tokens"] == s.golden_tokens
