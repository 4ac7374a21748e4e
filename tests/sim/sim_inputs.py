"""Where the simulation tests build, and how a compiled kernel becomes sim inputs."""

from __future__ import annotations

from pathlib import Path

from loom.inputs import Inputs
from loom.lowering import lower

ROOT = Path(__file__).resolve().parents[2]
SIM_ROOT = ROOT / "gen" / "test_sim"   # kept between runs: warm builds are reused


def kernel_inputs(arts, out_dir: Path, ordering: str = "analysis") -> Inputs:
    out_dir.mkdir(parents=True, exist_ok=True)
    dfg = out_dir / f"{arts.name}.dfg.mlir"
    lower(arts.scf_mlir, dfg, arts.top, ordering=ordering)
    return Inputs(arts.name, out_dir, dfg, arts.bundle_path)
