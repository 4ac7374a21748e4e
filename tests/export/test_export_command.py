"""`loom export`: the IP folder, its lint, its driver and its synthesis.

The folder's SystemVerilog passes Verilator's -Wall lint (with the waivers
the folder ships for PeakRDL's files only) and Yosys (slang front end); the
driver compiles (gnu11, -Wall -Wextra -Werror) against PeakRDL-cheader's header.
"""

from __future__ import annotations

import os
import subprocess
import sys

import pytest

from loom.export.package import export_ip
from loom.inputs import KernelSource
from loom.rtl.gates import lint, synthesize
from loom.toolpaths import ensure_verilator

# vecadd: three arrays; fib64: a 64-bit array, a 64-bit scalar, a 64-bit
# result; dot_f64: double arrays and a double result; hist_bytes: 8-bit
# elements (byte lanes on a 32-bit bus) and an 8-bit result
KERNELS = ["vecadd", "fib64", "dot_f64", "hist_bytes"]


@pytest.fixture(scope="module")
def exported(tmp_path_factory):
    cache = {}

    def get(name: str):
        if name not in cache:
            cache[name] = export_ip(KernelSource(name), tmp_path_factory.mktemp(name))
        return cache[name]
    return get


@pytest.mark.parametrize("name", KERNELS)
def test_folder_lints_clean(exported, name):
    ip = exported(name)
    ensure_verilator()
    result = lint(ip.out_dir, [str(ip.csr.waivers.relative_to(ip.out_dir)), "-f",
                               ip.file_list.name], ip.shell.module)
    assert result.ok, result.output


@pytest.mark.parametrize("name", KERNELS)
def test_driver_compiles_as_gnu11(exported, name, tmp_path):
    """gnu11: PeakRDL-cheader's header packs its struct (a GNU attribute) and
    checks its size with C11's static_assert."""
    ip = exported(name)
    header, source = ip.driver
    subprocess.run(["gcc", "-std=gnu11", "-pedantic", "-Wall", "-Wextra", "-Werror", "-c",
                    str(source), "-I", str(header.parent), "-o", str(tmp_path / "driver.o")],
                   check=True)


def test_folder_has_what_the_readme_lists(exported):
    ip = exported("vecadd")
    names = {p.relative_to(ip.out_dir).as_posix() for p in ip.out_dir.rglob("*") if p.is_file()}
    for want in ["vecadd.f", "vecadd_control.rdl", "README.md", "html/index.html",
                 "driver/vecadd_csr.h", "driver/vecadd_driver.h", "driver/vecadd_driver.c",
                 "rtl/vecadd_csr.sv", "rtl/vecadd_csr_pkg.sv", "rtl/vecadd_axi.sv",
                 "rtl/vecadd_csr.vlt"]:
        assert want in names
    listed = ip.file_list.read_text().split()
    assert listed[0] == "rtl/vecadd_csr_pkg.sv" and listed[-1] == "rtl/vecadd_axi.sv"
    assert all((ip.out_dir / p).is_file() for p in listed)
    readme = ip.readme.read_text()
    assert "| 0x10 | a_lo |" in readme and "| 0x00 | CTRL |" in readme


def test_shell_synthesizes_in_yosys(exported):
    ip = exported("hist_bytes")
    result = synthesize(ip.out_dir, ["-f", ip.file_list.name], ip.shell.module)
    assert result.cells > 0 and result.ffs > 0


def test_bad_kernel_is_one_line_exit_2(tmp_path):
    bad = tmp_path / "bad.c"
    bad.write_text("void bad(int a[4]) { a[0] = ; }\n")
    run = subprocess.run([sys.executable, "-m", "loom.cli", "export", str(bad), "-o",
                          str(tmp_path / "ip")], capture_output=True, text=True)
    assert run.returncode == 2
    assert run.stderr.count("\n") == 1 and "error:" in run.stderr, run.stderr


def test_the_exported_kit_runs_from_the_folder(exported):
    """tb/run_kit.py, as an integrator runs it: the pyuvm kit on the
    folder's own files, the native run's invocation, paused AXI channels."""
    ip = exported("vecadd")
    # from a make recipe (an integrator's CI): MAKEFLAGS is set, here empty
    run = subprocess.run([sys.executable, "tb/run_kit.py", "--seed", "2"], cwd=ip.out_dir,
                         capture_output=True, text=True, env={**os.environ, "MAKEFLAGS": ""})
    assert run.returncode == 0 and "PASS: vecadd_axi, 1 invocation(s)" in run.stdout, \
        run.stdout[-2000:] + run.stderr[-2000:]
