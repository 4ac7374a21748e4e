"""The `loom` command line: help for every command, exit statuses, one-line errors."""

import os
import shlex
import subprocess
import sys

import pytest

from loom.cli import HANDLERS, main

COMMAND_FLAGS = {
    "compile": ["--top", "-I", "-D", "-o", "--max-join-fanin", "--flat-memrefs"],
    "run": ["--bundle", "--stage", "--progress", "-o"],
    "rtl": ["-o", "--adg"],
    "sim": ["--bundle", "--seed", "--ideal", "--waves", "--trace", "--iface", "-o"],
    "fuzz": ["--count", "--first-seed", "--jobs", "--size", "--keep", "--no-rtl", "--reduce", "-o"],
    "regress": ["--profile", "--kernels", "--seeds", "--shard", "--jobs", "--no-rtl", "--junit",
                "-o"],
    "adg": ["PRESET|check", "FILE", "--list", "-o"],
    "map": ["--adg", "--seed", "--top", "-o"],
    "config": ["decode", "--adg"],
    "mutate": ["--template", "--operator", "--sample", "--list", "--budget", "-j", "-o"],
    "export": ["--top", "-I", "-D", "-o"],
    "fpga": ["--shell", "--freq", "-o"],
}


def test_help_lists_every_command(capsys):
    with pytest.raises(SystemExit) as exc:
        main(["--help"])
    assert exc.value.code == 0
    out = capsys.readouterr().out
    for command in ("compile", "run", "rtl", "sim", "fuzz", "regress", "adg"):
        assert command in out
    assert set(HANDLERS) == set(COMMAND_FLAGS)


@pytest.mark.parametrize("command", sorted(COMMAND_FLAGS))
def test_command_help_describes_its_flags(capsys, command):
    with pytest.raises(SystemExit) as exc:
        main([command, "--help"])
    assert exc.value.code == 0
    out = capsys.readouterr().out
    for flag in COMMAND_FLAGS[command]:
        assert flag in out


def test_no_command_is_a_usage_error(capsys):
    assert main([]) == 2


def test_bad_flag_is_one_line_and_status_2():
    proc = subprocess.run([sys.executable, "-m", "loom.cli", "run", "--no-such-flag", "x"],
                          capture_output=True, text=True)
    assert proc.returncode == 2
    assert proc.stderr.count("\n") == 1 and "error:" in proc.stderr


def test_missing_kernel_is_one_line(capsys):
    assert main(["run", "no_such_kernel_xyz"]) == 2
    err = capsys.readouterr().err
    assert err.startswith("no_such_kernel_xyz: error: ") and err.count("\n") == 1


def test_rtl_writes_top_units_and_file_list(tmp_path, capsys):
    assert main(["rtl", "vecadd", "-o", str(tmp_path)]) == 0
    out = capsys.readouterr().out
    listed = (tmp_path / "rtl" / "vecadd.f").read_text().split()
    assert listed[-1] == "vecadd_top.sv" and len(listed) > 1
    assert all((tmp_path / "rtl" / f).exists() for f in listed)
    assert f"rtl: {tmp_path / 'rtl' / 'vecadd_top.sv'}" in out


def test_a_closed_pipe_ends_quietly():
    # `loom --version | head`: the reader may leave before we write.
    proc = subprocess.run(
        f"{shlex.quote(sys.executable)} -m loom.cli --version | true",
        shell=True, capture_output=True, text=True, check=False,
        env={**os.environ, "PYTHONPATH": os.pathsep.join(sys.path)},
    )
    assert "Traceback" not in proc.stderr, proc.stderr
    assert "BrokenPipeError" not in proc.stderr
