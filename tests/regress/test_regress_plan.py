"""The regression plan and its shards: disjoint, covering, balanced, deterministic."""

import pytest

from loom.diagnostics import LoomError
from loom.regress.plan import (
    PROFILES, SLOW_KERNELS, Case, Shard, all_kernels, parse_seeds, parse_shard, plan,
)


def test_nightly_is_100_seeds_of_every_kernel():
    cases = plan(PROFILES["nightly"])
    assert len(cases) == 100 * len(all_kernels())
    assert {c.seed for c in cases} == set(range(1, 101))


def test_quick_leaves_out_the_slow_kernels():
    kernels = {c.kernel for c in plan(PROFILES["quick"])}
    assert kernels == set(all_kernels()) - SLOW_KERNELS and SLOW_KERNELS <= set(all_kernels())


@pytest.mark.parametrize("n", [1, 2, 3, 7, 64])
@pytest.mark.parametrize("profile", ["quick", "nightly"])
def test_shards_partition_the_plan(profile, n):
    cases = plan(PROFILES[profile])
    shards = [Shard(i, n).select(cases) for i in range(1, n + 1)]
    union = [c for s in shards for c in s]
    assert len(union) == len(set(union)) == len(cases)          # disjoint
    assert set(union) == set(cases)                             # covering
    sizes = [len(s) for s in shards]
    assert max(sizes) - min(sizes) <= 1                         # balanced
    # the split depends on the runs only, not on the order they are listed in
    assert [Shard(i, n).select(list(reversed(cases))) for i in range(1, n + 1)] == shards


def test_more_shards_than_runs_leaves_some_empty():
    cases = [Case("a", 1), Case("b", 1)]
    assert [Shard(i, 3).select(cases) for i in (1, 2, 3)] == [[], [Case("a", 1)], [Case("b", 1)]]


def test_a_shard_holds_few_kernels():
    """Contiguous blocks: 100 seeds of a kernel stay together, so each shard builds few kernels."""
    cases = plan(PROFILES["nightly"])
    n = len(all_kernels())
    for i in range(1, n + 1):
        assert len({c.kernel for c in Shard(i, n).select(cases)}) <= 2


@pytest.mark.parametrize("text", ["0/3", "4/3", "1", "a/b", "1/0", "-1/2"])
def test_bad_shard_is_an_error(text):
    with pytest.raises(LoomError, match="--shard takes i/N"):
        parse_shard(text)


def test_seed_lists_and_ranges():
    assert parse_seeds("1-3,7") == [1, 2, 3, 7]
    for bad in ("3-1", "x", "1,,2"):
        with pytest.raises(LoomError, match="--seeds"):
            parse_seeds(bad)


def test_unknown_kernel_is_an_error():
    with pytest.raises(LoomError, match="no kernel named 'nope'"):
        plan(PROFILES["quick"], ["nope"])
