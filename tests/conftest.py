"""Fixtures shared by the test packages."""

from __future__ import annotations

from pathlib import Path

import pytest
from hypothesis import settings

from loom.frontend.driver import Artifacts, compile_kernel

# make test is deterministic: hypothesis draws the same examples every run
# (the exhaustive runs behind -m slow explore with more examples instead).
settings.register_profile("loom", derandomize=True, deadline=None)
settings.load_profile("loom")

ROOT = Path(__file__).resolve().parents[1]
KERNELS = ROOT / "kernels"


def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    """Tests that share one long build (an xdist_group: a fabric and the
    kernels run on it) first, so that their chain on one worker does not end
    the run while the other worker idles (make test: --dist loadgroup)."""
    items.sort(key=lambda item: item.get_closest_marker("xdist_group") is None)


@pytest.fixture(scope="session")
def compiled(tmp_path_factory):
    """compiled(name) -> Artifacts of kernels/<name>.c, compiled once per session (per worker)."""
    cache: dict[str, Artifacts] = {}
    root = tmp_path_factory.mktemp("kernels")

    def get(name: str) -> Artifacts:
        if name not in cache:
            cache[name] = compile_kernel(KERNELS / f"{name}.c", None, [], [], root / name)
        return cache[name]

    return get
