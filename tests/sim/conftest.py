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
    """sim_setup(name, ordering) -> SimSetup of kernels/<name>.c lowered with that
    memory ordering (default "analysis"), built once per session."""
    cache: dict[tuple[str, str], SimSetup] = {}

    def get(name: str, ordering: str = "analysis") -> SimSetup:
        if (name, ordering) not in cache:
            out = SIM_ROOT / (name if ordering == "analysis" else f"{name}.{ordering}-ordering")
            cache[(name, ordering)] = setup(kernel_inputs(compiled(name), out, ordering), None)
        return cache[(name, ordering)]

    return get
