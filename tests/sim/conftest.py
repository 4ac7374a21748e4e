"""Fixtures for the kernel simulations: one setup (golden, RTL, build) per kernel.

Builds live under gen/test_sim/<kernel>/ so that a warm `make test` finds
them (the build is keyed by a hash of its sources) and only simulates.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from loom.golden.command import Inputs
from loom.lowering import lower
from loom.sim.flow import SimSetup, setup

ROOT = Path(__file__).resolve().parents[2]
SIM_ROOT = ROOT / "gen" / "test_sim"


def kernel_inputs(arts, out_dir: Path) -> Inputs:
    out_dir.mkdir(parents=True, exist_ok=True)
    dfg = out_dir / f"{arts.name}.dfg.mlir"
    lower(arts.scf_mlir, dfg, arts.top)
    return Inputs(arts.name, out_dir, dfg, arts.bundle_path)


@pytest.fixture(scope="session")
def sim_setup(compiled):
    """sim_setup(name) -> SimSetup of kernels/<name>.c, built once per session."""
    cache: dict[str, SimSetup] = {}

    def get(name: str) -> SimSetup:
        if name not in cache:
            cache[name] = setup(kernel_inputs(compiled(name), SIM_ROOT / name), None)
        return cache[name]

    return get
