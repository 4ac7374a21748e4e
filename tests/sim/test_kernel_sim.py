"""Every kernel of kernels/ on Verilator under two stall seeds: each channel's
RTL tokens equal the golden model's, results and memories equal the native C run."""

from pathlib import Path

import pytest

from loom.sim.flow import run_seed
from loom.sim import profiles

KERNELS = sorted(p.stem for p in (Path(__file__).resolve().parents[2] / "kernels").glob("*.c"))

# Kernels whose Verilator build and two runs take long: they run with make test-slow
# only, so that make test stays within its time budget.
SLOW_KERNELS = frozenset({
    "bitonic_sort", "bsearch_u16", "floyd_warshall", "gemm", "gsm_lattice", "jacobi_1d",
    "jacobi_2d", "k2mm", "kmp", "matpow", "md_knn", "nw", "present_sbox", "sha256_block",
    "spmv_crs",
    "stencil3d", "viterbi",
    # issue 11's throughput shapes (bench/throughput.py): 38 k to 3.3 M cycles a run
    "cnn_layer", "gaussian", "matmul30",
})


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
