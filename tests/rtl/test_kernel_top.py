"""Kernel tops (loom rtl): lint-clean under -Wall (plain and with the simulation-only
code), a file list an FPGA/ASIC flow can read, and Yosys synthesis; the
simulation-only watchdog counts cycles without a transfer."""

from dataclasses import replace
from pathlib import Path

import pytest

from loom.golden.run import find_func
from loom.ir import load_module
from loom.lowering import lower
from loom.rtl.command import write_rtl
from loom.inputs import Inputs
from loom.rtl.gates import lint, synthesize
from loom.sim import profiles
from loom.sim.flow import run_seed, setup
from loom.toolpaths import ensure_verilator

KERNELS = sorted(p.stem for p in (Path(__file__).resolve().parents[2] / "kernels").glob("*.c"))
SYNTH_KERNELS = ["vecadd", "gcd", "histogram"]


def _rtl(compiled, name: str, tmp_path: Path):
    arts = compiled(name)
    dfg = tmp_path / f"{name}.dfg.mlir"
    lower(arts.scf_mlir, dfg, arts.top)
    func = find_func(load_module(dfg), arts.top, str(dfg))
    return write_rtl(func, str(dfg), tmp_path, name)


@pytest.mark.parametrize("name", KERNELS)
def test_kernel_top_lints_clean(compiled, tmp_path, name):
    ensure_verilator()
    rtl = _rtl(compiled, name, tmp_path)
    files = rtl.file_list.read_text().split()
    assert files[-1] == f"{name}_top.sv" and all((rtl.file_list.parent / f).exists() for f in files)
    for defines in ((), ("LOOM_SIM",)):
        result = lint(rtl.file_list.parent, files, rtl.top_module, defines)
        assert result.ok, f"{defines}: {result.output}"
    text = rtl.top_file.read_text()
    assert text.startswith(f"// {name}_top: rendered from templates/kernel_top.sv.j2")


@pytest.mark.parametrize("name", SYNTH_KERNELS)
def test_kernel_top_synthesizes(compiled, tmp_path, name):
    rtl = _rtl(compiled, name, tmp_path)
    files = rtl.file_list.read_text().split()
    result = synthesize(rtl.file_list.parent, files, rtl.top_module)
    assert result.cells > 0 and result.ffs > 0


WATCHDOG = 16
"""Idle cycles (no transfer on any channel) before the top declares a
deadlock, for the test below; the default is 20,000."""


def test_the_watchdog_counts_cycles_without_a_transfer(compiled, tmp_path):
    """vecadd's ideal run moves a token on some channel in almost every cycle
    (at most 3 cycles apart, measured on its --trace) and lasts far longer
    than WATCHDOG cycles: without drain cycles after its last output (which
    have no transfers) it passes with a watchdog of WATCHDOG idle cycles. A
    watchdog that counted cycles, or missed the transfers, would fire."""
    arts = compiled("vecadd")
    dfg = tmp_path / "vecadd.dfg.mlir"
    lower(arts.scf_mlir, dfg, arts.top)
    s = setup(Inputs("vecadd", tmp_path, dfg, arts.bundle_path), None)
    result = run_seed(s, replace(profiles.IDEAL, watchdog=WATCHDOG, drain=0))
    assert result.passed, "\n".join(result.problems)
    assert result.report["cycles"] > 8 * WATCHDOG
