"""Kernels on a fabric preset beside their direct RTL, both under the ideal profile.

For each kernel (default: the regression's make-test kernels on its preset,
tests/sim/test_fabric_regression.py; or names given on the command line) two
runs under loom.sim.profiles.IDEAL (inputs never idle, outputs always ready,
memory ready every cycle with latency exactly 1), each checked like any run:

  `loom sim K --adg A --ideal`  compiled for the preset, mapped, config.bin
                                streamed into the fabric's config port, results
                                and memories against the native run
                                (loom.sim.fabric_flow), into
                                gen/bench/fabric_kernels/<kernel>/fabric/;
  `loom sim K --ideal`          the kernel's own RTL, checked channel by
                                channel (loom.sim.flow), into .../direct/.

Columns:

  adg        the preset (one Verilator build under gen/fabric_build/<adg>,
             shared by every kernel on it)
  words      config words of the kernel's configuration (config.bin)
  fabric     cycles of the fabric run: reset to the last output token, the
             config stream included (the harness streams config.bin after
             reset, then starts the kernel)
  direct     cycles of the direct RTL's run (reset to the last token)
  ratio      fabric / direct
  f.build    seconds of the fabric's Verilator build (0: cached; the first
             kernel on a preset pays it), f.sim the fabric run's simulation
  d.build    the direct RTL's build (cached by RTL text), d.sim its simulation

Area of the preset, with `--area` only: bench/fabric_area.py's total
(its hierarchical Yosys runs, cached under gen/bench/fabric_area/: the
top's own logic plus each component times its instances); slow the first
time (minutes of Yosys for an 8x8 preset).

Each kernel's runs take `--lock FILE` (flock) one at a time, when given.
Progress goes to stderr.

    tools/run python bench/fabric_kernels.py [KERNEL ...] [--adg PRESET] [--lock /work/helpers/cpu.lock] [--area]
"""

from __future__ import annotations

import argparse
import sys
import time
from dataclasses import dataclass, field
from pathlib import Path

from fabric_area import WORK as AREA_WORK, Synth, fabric_area
from loom.fabric.adg_view import adg_view
from loom.fabric.presets import preset
from loom.fabric.rtl.top import fabric_rtl
from loom.inputs import KernelSource, prepare
from loom.mapper.kernel_map import MapRequest
from loom.sim import fabric_flow, profiles
from loom.sim.flow import run_seed, setup
from loom.sim.runner import file_lock

ROOT = Path(__file__).resolve().parents[1]
WORK = ROOT / "gen" / "bench" / "fabric_kernels"
PRESET = "chess-8x8-ext2"
KERNELS = ["sum_n", "crc32", "fletcher16", "dot", "fir", "while_sum"]
"""A spread of the regression's make-test kernels on PRESET (reductions
over one memref, a checksum over bytes, two-memref streams)."""


@dataclass
class Run:
    ok: bool
    cycles: int
    build: float
    simulate: float
    problems: list[str] = field(default_factory=list)


@dataclass
class Row:
    kernel: str
    adg: str
    words: int
    fabric: Run
    direct: Run

    @property
    def ok(self) -> bool:
        return self.fabric.ok and self.direct.ok


def _log(msg: str) -> None:
    print(msg, file=sys.stderr, flush=True)




def fabric_run(kernel: str, adg: str) -> tuple[int, Run]:
    """Config words and the ideal run on the fabric (as fabric_sim_main drives it)."""
    s = fabric_flow.setup(MapRequest(KernelSource(kernel, out_dir=WORK / kernel / "fabric"), adg))
    r = fabric_flow.run(s, profiles.IDEAL)
    return len(s.words), Run(r.passed, r.report["cycles"], s.build_seconds,
                             r.report["seconds"]["simulate"], r.problems)


def direct_run(kernel: str) -> Run:
    """The kernel's own RTL under the ideal profile (as sim_main drives it)."""
    s = setup(prepare(KernelSource(kernel, out_dir=WORK / kernel / "direct")), None)
    r = run_seed(s, profiles.IDEAL)
    return Run(r.passed, r.report["cycles"], s.build_seconds,
               r.report["seconds"]["simulate"], r.problems)


def bench(kernel: str, adg: str, lock: Path | None) -> Row:
    t = time.perf_counter()
    with file_lock(lock):
        _log(f"fabric_kernels: {kernel} on {adg}: compile, map, fabric build, ideal run")
        words, fabric = fabric_run(kernel, adg)
    with file_lock(lock):
        _log(f"fabric_kernels: {kernel}: direct RTL, ideal run")
        direct = direct_run(kernel)
    _log(f"fabric_kernels: {kernel}: {fabric.cycles} / {direct.cycles} cycles, "
         f"{time.perf_counter() - t:.0f} s")
    return Row(kernel, adg, words, fabric, direct)


def preset_area(adg: str, lock: Path | None) -> str:
    """bench/fabric_area.py's total for the preset (cached Yosys runs)."""
    total = fabric_area(adg, fabric_rtl(adg_view(preset(adg).build()), adg), Synth(AREA_WORK, lock)).total
    return f"{total.cells} cells, {total.ffs} FFs (bench/fabric_area.py's total)"


def print_table(rows: list[Row], areas: dict[str, str]) -> None:
    print(f"{'kernel':12} {'ok':3} {'adg':16} {'words':>5} {'fabric':>7} {'direct':>7} "
          f"{'ratio':>6} {'f.build':>7} {'f.sim':>6} {'d.build':>7} {'d.sim':>6}")
    print("-" * 92)
    for r in rows:
        ratio = r.fabric.cycles / r.direct.cycles if r.direct.cycles else 0.0
        print(f"{r.kernel:12} {'yes' if r.ok else 'NO':3} {r.adg:16} {r.words:>5} "
              f"{r.fabric.cycles:>7} {r.direct.cycles:>7} {ratio:>6.2f} "
              f"{r.fabric.build:>7.1f} {r.fabric.simulate:>6.1f} "
              f"{r.direct.build:>7.1f} {r.direct.simulate:>6.1f}")
    print("-" * 92)
    for adg, area in areas.items():
        print(f"area of {adg}: {area}")
    for r in rows:
        for p in [*r.fabric.problems[:3], *r.direct.problems[:3]]:
            print(f"{r.kernel}: {p}")


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("kernels", nargs="*", help=f"kernel names (default: {' '.join(KERNELS)})")
    ap.add_argument("--adg", default=PRESET, help=f"the fabric preset (default {PRESET})")
    ap.add_argument("--lock", type=Path, help="flock this file around each kernel's runs")
    ap.add_argument("--area", action="store_true",
                    help="the preset's area from bench/fabric_area.py (Yosys, cached)")
    args = ap.parse_args(argv)
    WORK.mkdir(parents=True, exist_ok=True)
    rows = [bench(k, args.adg, args.lock) for k in args.kernels or KERNELS]
    areas = {}
    if args.area:
        AREA_WORK.mkdir(parents=True, exist_ok=True)
        areas[args.adg] = preset_area(args.adg, args.lock)
    print_table(rows, areas)
    return 0 if all(r.ok for r in rows) else 1


if __name__ == "__main__":
    sys.exit(main())
