"""`loom adg`: presets written with their sidecar, the list, and `loom adg check`
on our presets, on LOOM's own ADG files (read from the mirror) and on invalid
files (one line, exit 2)."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from loom.cli import main
from loom.fabric.presets import presets

MIRROR = Path(os.environ.get("LOOM_MIRROR", "/work/.mirror/PolyArch+loom/repo"))


def _loom_file(path: str) -> str | None:
    if not (MIRROR / "HEAD").exists():
        return None
    return subprocess.run(["git", "-C", str(MIRROR), "show", f"HEAD:{path}"], check=True,
                          capture_output=True, text=True).stdout


def test_list_has_one_line_per_preset(capsys):
    assert main(["adg", "--list"]) == 0
    lines = capsys.readouterr().out.splitlines()
    assert [line.split()[0] for line in lines] == [p.name for p in presets()]
    assert all("chess mesh" in line for line in lines)


def test_preset_is_written_and_checks(tmp_path, capsys):
    assert main(["adg", "chess-2x2-ext1", "-o", str(tmp_path)]) == 0
    mlir = tmp_path / "chess-2x2-ext1.fabric.mlir"
    viz = tmp_path / "chess-2x2-ext1.fabric.viz.json"
    assert f"adg: {mlir}" in capsys.readouterr().out
    assert 'viz_file = "chess-2x2-ext1.fabric.viz.json"' in mlir.read_text()
    assert json.loads(viz.read_text())["version"] == 1
    assert main(["adg", "check", str(mlir)]) == 0
    line = capsys.readouterr().out
    assert line.count("\n") == 1 and line.startswith(f"{mlir}: ok: fabric.module @chess_2x2_ext1: ")
    assert "4 spatial_pe, 9 spatial_sw, 1 extmemory; inputs: 8 scalar, 1 memref; outputs: 4" in line
    assert "max join fan-in: 4" in line


@pytest.mark.skipif(not (MIRROR / "HEAD").exists(), reason=f"LOOM mirror not found at {MIRROR}")
def test_check_loom_chess_stub(tmp_path, capsys):
    # LOOM's tests/rtl/fabric/e2e/chess_2x2_stub: 2 PEs, 2 inline switches, 1 fifo;
    # config words by LOOM's sizes: 2 switches of 4 route bits, 2 one-unit PEs of 9 bits.
    path = tmp_path / "chess_2x2_stub.fabric.mlir"
    path.write_text(_loom_file("tests/rtl/fabric/e2e/chess_2x2_stub.fabric.mlir") or "")
    assert main(["adg", "check", str(path)]) == 0
    assert capsys.readouterr().out == (
        f"{path}: ok: fabric.module @chess_2x2: 2 spatial_pe, 2 spatial_sw, 1 fifo; inputs: "
        "3 scalar, 0 memref; outputs: 1; config words: 4; max join fan-in: 0\n")


@pytest.mark.skipif(not (MIRROR / "HEAD").exists(), reason=f"LOOM mirror not found at {MIRROR}")
def test_check_reports_loom_join_capacity(tmp_path, capsys):
    # tests/unit/function-unit-configs has a 4-input hardware join.
    path = tmp_path / "fabric.mlir"
    path.write_text(_loom_file("tests/unit/function-unit-configs/fabric.mlir") or "")
    assert main(["adg", "check", str(path)]) == 0
    assert capsys.readouterr().out.endswith("max join fan-in: 4\n")


@pytest.mark.skipif(not (MIRROR / "HEAD").exists(), reason=f"LOOM mirror not found at {MIRROR}")
def test_check_rejects_loom_invalid_file(tmp_path, capsys):
    path = tmp_path / "fabric.mlir"
    path.write_text(_loom_file("tests/unit/fifo-depth-invalid/fabric.mlir") or "")
    expected = (_loom_file("tests/unit/fifo-depth-invalid/expect-fail.txt") or "").strip()
    assert main(["adg", "check", str(path)]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and err.startswith(f"{path}:") and ": error: " in err
    assert expected in err


INVALID = """module {
  fabric.module @m(%a: !fabric.bits<32>) -> (!fabric.bits<32>) {
    %f = fabric.fifo @fifo_0 [depth = 0] (%a) : (!fabric.bits<32>) -> (!fabric.bits<32>)
    fabric.yield %f : !fabric.bits<32>
  }
}
"""


def test_check_invalid_is_one_line_exit_2(tmp_path):
    path = tmp_path / "bad.fabric.mlir"
    path.write_text(INVALID)
    proc = subprocess.run([sys.executable, "-m", "loom.cli", "adg", "check", str(path)],
                          capture_output=True, text=True)
    assert proc.returncode == 2 and proc.stdout == ""
    assert proc.stderr.startswith(f"{path}:3:") and proc.stderr.count("\n") == 1
    assert "error: 'fabric.fifo' op depth must be at least 1" in proc.stderr


def test_check_needs_a_fabric_module(tmp_path, capsys):
    path = tmp_path / "empty.mlir"
    path.write_text("module {\n}\n")
    assert main(["adg", "check", str(path)]) == 2
    assert capsys.readouterr().err == f"{path}: error: no fabric.module in the file\n"


@pytest.mark.parametrize(("argv", "message"), [
    (["adg"], "give a preset name, `check FILE` or --list"),
    (["adg", "check"], "give the ADG file to check"),
    (["adg", "torus-9"], "unknown ADG preset 'torus-9'"),
    (["adg", "chess-2x2", "extra"], "unexpected argument 'extra'"),
    (["adg", "check", "/no/such.fabric.mlir"], "cannot read file"),
])
def test_usage_errors(argv, message, capsys):
    assert main(argv) == 2
    err = capsys.readouterr().err
    assert message in err and err.count("\n") == 1
