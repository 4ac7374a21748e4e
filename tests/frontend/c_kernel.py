"""A C kernel written by a test and compiled once for its module."""

from __future__ import annotations

from pathlib import Path

from loom.bundle import compare
from loom.cli import main
from loom.frontend.driver import Artifacts, compile_kernel
from loom.frontend.reference import run_reference


def compile_c(tmp_path_factory, name: str, text: str) -> tuple[Path, Artifacts]:
    """(the C file `<name>.c` holding `text`, its front-end artifacts)."""
    d = tmp_path_factory.mktemp(name)
    src = d / f"{name}.c"
    src.write_text(text)
    return src, compile_kernel(src, None, [], [], d / "out")


def reference_problems(arts: Artifacts, stage: str) -> list[str]:
    """What the reference interpreter's run of the `stage` artifact ("cf" or
    "scf") gets wrong against the native run (empty: it reproduces it)."""
    path = arts.scf_mlir if stage == "scf" else arts.cf_mlir
    return compare(arts.bundle, run_reference(path, arts.bundle, arts.top))


def golden_passes(src: Path, out: Path, capsys) -> None:
    """`loom run` of the C file into `out` passes: the golden model's results
    and memories are the native run's."""
    status = main(["run", str(src), "-o", str(out)])
    text = capsys.readouterr().out
    assert status == 0 and "PASS" in text, text
