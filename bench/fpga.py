"""FPGA figures of the exported IP (issue 34): LUTs, FFs, DSPs, BRAMs, Fmax on an ECP5.

For each kernel: the kernel top alone and the IP of `loom export` (the top
inside its AXI shell), synthesized by Yosys (synth_ecp5) and placed and
routed out of context by nextpnr-ecp5 on an LFE5UM5G-85F, speed grade 8,
against a 100 MHz clock (loom.export.fpga); the units on each critical
path; and the cycles of one invocation, direct (`loom sim --ideal`) and
through the shell (`loom sim --iface axi --ideal`: AxiLiteMaster and
AxiRam without pauses, ap_start write to ap_done as the host sees it).
The shell's cost: its LUTs over the top's, its cycles over the top's.
A fabric preset's RTL is implemented the same way for scale.

    tools/run python bench/fpga.py [KERNEL ...] [--fabric PRESET] [--no-cycles]

Writes gen/bench/fpga/<kernel>/ (one folder per kernel); a run takes about
a minute a kernel (two place-and-route runs, two Verilator builds).
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

from loom.export.fpga import ECP5_85K, FpgaFigures, implement
from loom.export.package import export_ip
from loom.export.sim import axi_run, axi_setup
from loom.fabric.adg_file import load_adg
from loom.fabric.rtl.command import write_fabric_rtl
from loom.golden.run import find_func
from loom.inputs import KernelSource, prepare
from loom.ir import load_module
from loom.rtl.command import write_rtl
from loom.sim import profiles
from loom.sim.flow import run_seed, setup

ROOT = Path(__file__).resolve().parents[1]
WORK = ROOT / "gen" / "bench" / "fpga"
# twelve kernels without a divider, of make test's list, then one with
KERNELS = ["vecadd", "axpy", "dot", "fir", "histogram", "matmul", "atax", "bicg", "gesummv",
           "crc32", "prefix_sum", "stencil_3x3", "gcd"]
FREQ_MHZ = 100.0


def _top(name: str) -> FpgaFigures:
    inputs = prepare(KernelSource(name, out_dir=WORK / name / "top"), need_bundle=False)
    func = find_func(load_module(inputs.dfg), None, str(inputs.dfg))
    arts = write_rtl(func, str(inputs.dfg), inputs.out_dir, inputs.name)
    return implement(arts.file_list.parent, ["-f", arts.file_list.name], arts.top_module,
                     freq=FREQ_MHZ)


def _ip(name: str) -> FpgaFigures:
    ip = export_ip(KernelSource(name), WORK / name / "ip")
    return implement(ip.out_dir, ["-f", ip.file_list.name], ip.shell.module, freq=FREQ_MHZ)


def _cycles(name: str) -> tuple[int, int]:
    """One invocation's cycles: the direct top under --ideal, the IP through the shell."""
    inputs = prepare(KernelSource(name, out_dir=WORK / name / "sim"))
    direct = run_seed(setup(inputs, None), profiles.IDEAL).report["cycles"]
    axi = axi_run(axi_setup(KernelSource(name), WORK / name / "axi"), 1, ideal=True)
    if not axi.passed:
        raise RuntimeError(f"{name} fails through the shell: {axi.problems[:2]}")
    return direct, sum(axi.cycles)


def _units(fig: FpgaFigures) -> str:
    short = [u.split(".")[-1].removeprefix("u_") for u in fig.critical]
    return " > ".join(short[:3]) + (" ..." if len(short) > 3 else "")


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("kernels", nargs="*", default=KERNELS)
    ap.add_argument("--fabric", metavar="PRESET", default="chess-2x2",
                    help="a fabric preset implemented for scale (default chess-2x2)")
    ap.add_argument("--no-cycles", action="store_true", help="skip the simulations")
    args = ap.parse_args(argv)
    print(f"device {ECP5_85K.name}, nextpnr-ecp5 out of context, clock {FREQ_MHZ:g} MHz")
    head = (f"{'kernel':14} {'top LUT':>7} {'IP LUT':>7} {'shell':>6} {'IP FF':>6} {'DSP':>4} "
            f"{'BRAM':>4} {'top MHz':>7} {'IP MHz':>6} {'cyc top':>7} {'cyc IP':>7} {'+cyc':>6}  "
            "critical path (IP)")
    print(head)
    print("-" * len(head))
    for name in args.kernels:
        top = _top(name)
        ip = _ip(name)
        shell = (ip.luts - top.luts) / top.luts if top.luts else 0.0
        if args.no_cycles:
            direct = axi = 0
        else:
            direct, axi = _cycles(name)
        extra = f"{(axi - direct) / direct:+6.1%}" if direct else "     -"
        print(f"{name:14} {top.luts:7} {ip.luts:7} {shell:6.1%} {ip.ffs:6} {ip.dsps:4} "
              f"{ip.brams:4} {top.fmax_mhz:7.1f} {ip.fmax_mhz:6.1f} {direct or '-':>7} "
              f"{axi or '-':>7} {extra}  {_units(ip)}", flush=True)
    if args.fabric:
        out = WORK / f"fabric-{args.fabric}"
        arts = write_fabric_rtl(load_adg(args.fabric, out), out)
        fab = implement(arts.file_list.parent, ["-f", arts.file_list.name], arts.rtl.top,
                        freq=FREQ_MHZ)
        print(f"fabric {args.fabric}: {fab.luts} LUT, {fab.ffs} FF, {fab.dsps} DSP, "
              f"{fab.brams} BRAM, {fab.fmax_mhz:.1f} MHz; critical path {_units(fab)}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
