"""Fixtures for the kernel simulations: one setup (golden, RTL, build) per kernel.

Builds live under gen/test_sim/<kernel>/ so that a warm `make test` finds
them (the build is keyed by a hash of its sources) and only simulates.
"""

from __future__ import annotations

import pytest

from loom.sim.flow import SimSetup, setup

from sim_inputs import SIM_ROOT, kernel_inputs


@pytest.fixture(scope="session")
def sim_setup(compiled):
    """sim_setup(name) -> SimSetup of kernels/<name>.c, built once per session."""
    cache: dict[str, SimSetup] = {}

    def get(name: str) -> SimSetup:
        if name not in cache:
            cache[name] = setup(kernel_inputs(compiled(name), SIM_ROOT / name), None)
        return cache[name]

    return get
