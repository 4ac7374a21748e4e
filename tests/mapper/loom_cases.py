"""LOOM's unit cases (PolyArch/loom tests/unit, read from the mirror) as the
mapper tests run them: `loom map` on a case's files, and the case's own
check.py on our artifacts under LOOM's names."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

from loom.cli import main
from loom.mapper.snapshots import loom_flags
from tests.lowering.test_dfg_input import _mirror_file


def loom_args(case: str) -> list[str]:
    """The case's loom.args options our `loom map` takes (snapshots.LOOM_FLAGS)."""
    return loom_flags(_mirror_file(f"tests/unit/{case}/loom.args").split())


def map_case(case: str, out: Path, args: tuple[str, ...] = ()) -> int:
    """`loom map dfg.mlir --adg fabric.mlir -o out [args]` on LOOM's case: the exit status."""
    for name in ("dfg.mlir", "fabric.mlir"):
        (out / name).write_text(_mirror_file(f"tests/unit/{case}/{name}"))
    return main(["map", str(out / "dfg.mlir"), "--adg", str(out / "fabric.mlir"),
                 "-o", str(out), "--no-progress", *args])


def run_check(case: str, out: Path, stem: str = "dfg", name: str | None = None) -> None:
    """The case's check.py on `out`, which holds our `<stem>.fabric.*`: it
    reads LOOM's names `<stem>.map.json`, `.config.json` and `.viz.html`."""
    for suffix in ("map.json", "config.json", "viz.html"):
        link = out / f"{stem}.{suffix}"
        if not link.exists():
            link.symlink_to(f"{stem}.fabric.{suffix}")
    script = out / "check.py"
    script.write_text(_mirror_file(f"tests/unit/{case}/check.py"))
    run = subprocess.run([sys.executable, str(script), name or case, str(out)],
                         capture_output=True, text=True)
    assert run.returncode == 0, run.stdout + run.stderr
