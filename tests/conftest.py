"""Fixtures shared by the test packages."""

from __future__ import annotations

import os
from pathlib import Path

import pytest
from hypothesis import settings

from loom.frontend.driver import Artifacts, compile_kernel
from loom.frontend.kernel_cache import KERNEL_CACHE_ENV, cached_compile

# make test is deterministic: hypothesis draws the same examples every run
# (the exhaustive runs behind -m slow explore with more examples instead).
settings.register_profile("loom", derandomize=True, deadline=None)
settings.load_profile("loom")

ROOT = Path(__file__).resolve().parents[1]
KERNELS = ROOT / "kernels"


def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    """Tests that share one long build (an xdist_group: a fabric and the
    kernels run on it) first, so that their builds do not end the run while
    the other worker idles. `--dist loadgroup` (make test) was to keep a
    group on one worker; pytest-xdist 3.8 under pytest 9.2 does not (a group
    runs on both), so a shared build is guarded by its file lock
    (tb/fabric_runner, loom.sim.runner), not by the group."""
    items.sort(key=lambda item: item.get_closest_marker("xdist_group") is None)


@pytest.fixture(scope="session")
def compiled(tmp_path_factory):
    """compiled(name) -> Artifacts of kernels/<name>.c, compiled once per
    session (per worker), or once per mutation campaign (the folder
    $LOOM_KERNEL_CACHE names: loom.frontend.kernel_cache)."""
    cache: dict[str, Artifacts] = {}
    root = tmp_path_factory.mktemp("kernels")
    shared = os.environ.get(KERNEL_CACHE_ENV)

    def get(name: str) -> Artifacts:
        if name not in cache:
            source, out = KERNELS / f"{name}.c", root / name
            cache[name] = cached_compile(source, out, Path(shared)) if shared else \
                compile_kernel(source, None, [], [], out)
        return cache[name]

    return get
