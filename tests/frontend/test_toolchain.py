"""The LLVM toolchain: version 22 first, 19 as the fallback (loops stay scf.while)."""

from __future__ import annotations

from pathlib import Path

import pytest

from loom.bundle import compare
from loom.cli import main
from loom.frontend.driver import compile_kernel
from loom.frontend.reference import run_reference
from loom.frontend.toolchain import ToolCrash, find_toolchain, run_tool, toolchain_for

ROOT = Path(__file__).resolve().parents[2]


def test_the_newest_installed_version_is_used(monkeypatch):
    monkeypatch.delenv("LOOM_LLVM", raising=False)
    installed = [v for v in (22, 19) if toolchain_for(v) is not None]
    assert installed, "make setup installs clang-22 and mlir-22-tools"
    assert find_toolchain().version == installed[0]


def test_an_unknown_forced_version_is_bad_input(monkeypatch, capsys):
    monkeypatch.setenv("LOOM_LLVM", "7")
    assert main(["compile", str(ROOT / "kernels" / "vecadd.c")]) == 2
    assert capsys.readouterr().err.strip() == \
        "loom: error: LOOM_LLVM=7 is not one of 22, 19"


@pytest.mark.skipif(toolchain_for(19) is None,
                    reason="clang-19/mlir-opt-19/mlir-translate-19 are not installed")
@pytest.mark.parametrize("name", ["vecadd", "while_search", "matmul", "helpers"])
def test_llvm19_fallback(tmp_path, monkeypatch, name):
    monkeypatch.setenv("LOOM_LLVM", "19")
    arts = compile_kernel(ROOT / "kernels" / f"{name}.c", None, [], [], tmp_path)
    assert arts.llvm_version == 19
    assert "scf.while" in arts.scf_mlir.read_text()
    for path in (arts.scf_mlir, arts.cf_mlir):
        assert compare(arts.bundle, run_reference(path, arts.bundle, arts.top)) == []


def test_a_tool_crash_is_reported_as_the_tools_bug_with_a_reproducer(tmp_path):
    """Issue 10: a crash is named as what it is, with the input to attach upstream."""
    crashing = tmp_path / "mlir-opt-22"
    crashing.write_text("#!/usr/bin/env bash\ncat > /dev/null\n"
                        "echo 'PLEASE submit a bug report to https://github.com/llvm' >&2\n"
                        "kill -SEGV $$\n")
    crashing.chmod(0o755)
    with pytest.raises(ToolCrash) as info:
        run_tool([str(crashing), "--mem2reg", "-"], what="mlir-opt (LLVM dialect)",
                 stdin="module {}\n")
    err = info.value
    assert err.exit_status == 1
    text = err.format()
    assert "mlir-opt-22 crashed (signal SIGSEGV) during mlir-opt (LLVM dialect)" in text
    assert "not in your code" in text
    kept = Path(text.split()[-1])
    assert kept.read_text() == "module {}\n"
    kept.unlink()


def test_self_assignment_compiles(tmp_path):
    """Issue 10: `n = n;` crashed mlir-opt on -g debug intrinsics."""
    src = tmp_path / "selfassign.c"
    src.write_text("int selfassign(int a[4], int n) {\n  n = n;\n  return a[n & 3];\n}\n"
                   "int main(void) { int a[4] = {1, 2, 3, 4}; "
                   "return selfassign(a, 2) != 3; }\n")
    arts = compile_kernel(src, None, [], [], tmp_path / "out")
    assert compare(arts.bundle, run_reference(arts.scf_mlir, arts.bundle, arts.top)) == []
