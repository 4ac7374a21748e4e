"""Kernels on a fabric preset beside their direct RTL, both under the ideal profile,
and the fabric run beside what the mapping's throughput model predicts.

For each kernel (default: KERNELS, each on its preset; or `KERNEL[@PRESET]`
names on the command line, PRESET by default) two runs under
loom.sim.profiles.IDEAL (inputs never idle, outputs always ready, memory
ready every cycle with latency exactly 1), each checked like any run:

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
  map        seconds to compile and map the kernel (loom.mapper.kernel_map)
  config     cycles of the config stream (reset to its last word: config.bin's
             words back to back)
  kernel     the fabric's kernel cycles: from the cycle after the last config
             word to the last output token, memory request or PE input transfer
  direct     cycles of the direct RTL's run (reset to the last token; its
             reset and start take a cycle or two, no configuration), of the
             DFG the fabric runs: the memory ordering of `--ordering`
             (default seed, as the fabric compiles: mapper/kernel_compile.py)
  ratio      kernel / direct
  II         the mapping's expected II (loom.mapper.throughput: the largest
             loop bound on the fabric), and `d.II` the same loops' bound in
             the direct RTL
  bound      the model's lower bound on the kernel cycles (every loop's
             activations at its bound); a run below it is a model error
  pred       the model's prediction: the largest over the loops of
             iterations x II; `err` = (kernel - pred) / kernel
  f.build    seconds of the fabric's Verilator build (0: cached; the first
             kernel on a preset pays it), f.sim the fabric run's simulation
             (the simulator's start included), cyc/s the run's cycles (config
             and kernel) per second of it

Under the table, each row above LIMIT names its slowest loop against the
direct RTL, that loop's bound, and where the fabric's cycles on its
critical recurrence are (link registers of backward switch hops, fifos kept
as registers, PE output buffers).

Area of the preset, with `--area` only: bench/fabric_area.py's total
(its hierarchical Yosys runs, cached under gen/bench/fabric_area/: the
top's own logic plus each component times its instances); slow the first
time (minutes of Yosys for an 8x8 preset).

Each kernel's runs take `--lock FILE` (flock) one at a time, when given.
Progress goes to stderr.

    tools/run python bench/fabric_kernels.py [KERNEL[@PRESET] ...] [--adg PRESET]
                                             [--ordering analysis|seed] [--rounds N]
                                             [--lock FILE] [--area]
"""

from __future__ import annotations

import argparse
import math
import sys
import time
from dataclasses import dataclass, field
from pathlib import Path

from fabric_area import WORK as AREA_WORK, AreaRow, Synth, fabric_area
from loom.cli import collect_less
from loom.fabric.adg_view import adg_view
from loom.fabric.presets import preset
from loom.fabric.rtl.top import fabric_rtl
from loom.inputs import KernelSource, prepare
from loom.ordering_modes import FABRIC_ORDERING, ORDERINGS
from loom.mapper.kernel_map import MapRequest, map_kernel
from loom.mapper.mapping import ROUNDS
from loom.sim import fabric_flow, profiles
from loom.sim.flow import run_seed, setup
from loom.sim.runner import file_lock

ROOT = Path(__file__).resolve().parents[1]
WORK = ROOT / "gen" / "bench" / "fabric_kernels"
PRESET = "chess-8x8-ext2-f8"
KERNELS = ["sum_n", "crc32", "crc16", "fletcher16", "countdown_replay", "self_assign",
           "while_search", "zero_trip", "dot", "axpy", "countdown", "digits", "fir", "collatz",
           "while_sum", "factmod", "gcd_sub", "prefix_sum@chess-4x4-ext2x3-ring-b2-f",
           "matmul@chess-16x16-t2-ext8x9s3-f8", "gemm@chess-16x16-t2-ext8x9s3-f8",
           "stencil_3x3@chess-16x16-t2-ext8x9s3-f8", "jacobi_1d@chess-16x16-t2-ext8x9s3-f8"]
"""Issue 30's table: the fabric regression's make-test kernels (reductions
over one memref, checksums over bytes, two-memref streams, while loops),
while loops and divisions in a recurrence (factmod, gcd_sub), a tagged
two-load kernel, and matmul, gemm, the 3x3 stencil and jacobi_1d on the
16x16 with eight input slots (its build takes about 20 minutes the first
time)."""


@dataclass
class Run:
    ok: bool
    cycles: int
    build: float
    simulate: float
    problems: list[str] = field(default_factory=list)


@dataclass
class FabricRun:
    run: Run
    words: int
    map_seconds: float
    config_cycles: int
    kernel_cycles: int
    expected_ii: float | None
    direct_ii: float | None
    bound: int
    predicted: int
    limit: str = ""
    """What holds the slowest loop (throughput.LoopThroughput.limit)."""


@dataclass
class Row:
    kernel: str
    adg: str
    fabric: FabricRun
    direct: Run

    @property
    def ok(self) -> bool:
        return self.fabric.run.ok and self.direct.ok


LIMIT = 1.5
"""Issue 30's target for kernel / direct: rows above it say what stops them."""


def _log(msg: str) -> None:
    print(msg, file=sys.stderr, flush=True)




def fabric_run(kernel: str, adg: str, ordering: str, rounds: int = ROUNDS) -> FabricRun:
    """The ideal run on the fabric (as fabric_sim_main drives it) and the model's figures."""
    t = time.perf_counter()
    source = KernelSource(kernel, out_dir=WORK / kernel / "fabric", ordering=ordering)
    mapped = map_kernel(MapRequest(source, adg, rounds=rounds), need_bundle=True)
    map_seconds = time.perf_counter() - t
    s = fabric_flow.setup_mapped(mapped)
    r = fabric_flow.run(s, profiles.IDEAL).report
    model = mapped.written.throughput
    direct_ii = max((lp.direct_ii for lp in model.loops), default=0)
    return FabricRun(Run(r["status"] == "pass", r["cycles"], s.build_seconds,
                         r["seconds"]["simulate"], r["problems"]),
                     len(s.words), map_seconds, r["config_cycles"] or 0, r["kernel_cycles"] or 0,
                     r["throughput"]["expected_ii"], float(direct_ii),
                     r["throughput"]["bound_cycles"], r["throughput"]["predicted_cycles"],
                     model.slowest().limit() if model.loops else "")


def direct_run(kernel: str, ordering: str) -> Run:
    """The kernel's own RTL under the ideal profile (as sim_main drives it),
    of the memory ordering the fabric compiles with."""
    s = setup(prepare(KernelSource(kernel, out_dir=WORK / kernel / "direct",
                                   ordering=ordering)), None)
    r = run_seed(s, profiles.IDEAL)
    return Run(r.passed, r.report["cycles"], s.build_seconds,
               r.report["seconds"]["simulate"], r.problems)


def bench(spec: str, default_adg: str, ordering: str, lock: Path | None,
          rounds: int = ROUNDS) -> Row:
    kernel, _, adg = spec.partition("@")
    adg = adg or default_adg
    t = time.perf_counter()
    with file_lock(lock):
        _log(f"fabric_kernels: {kernel} on {adg}: compile, map, fabric build, ideal run")
        fabric = fabric_run(kernel, adg, ordering, rounds)
    with file_lock(lock):
        _log(f"fabric_kernels: {kernel}: direct RTL, ideal run")
        direct = direct_run(kernel, ordering)
    _log(f"fabric_kernels: {kernel}: {fabric.kernel_cycles} / {direct.cycles} cycles, "
         f"{time.perf_counter() - t:.0f} s")
    return Row(kernel, adg, fabric, direct)


def preset_total(adg: str, lock: Path | None) -> AreaRow:
    """bench/fabric_area.py's total for the preset (cached Yosys runs)."""
    return fabric_area(adg, fabric_rtl(adg_view(preset(adg).build()), adg),
                       Synth(AREA_WORK, lock)).total


def preset_area(adg: str, lock: Path | None) -> str:
    total = preset_total(adg, lock)
    return f"{total.cells} cells, {total.ffs} FFs (bench/fabric_area.py's total)"


def _ii(v: float | None) -> str:
    return "-" if v is None else f"{v:g}"


def print_table(rows: list[Row], areas: dict[str, str]) -> None:
    head = (f"{'kernel':16} {'ok':3} {'adg':24} {'map':>5} {'config':>6} {'kernel':>7} "
            f"{'direct':>6} {'ratio':>6} {'II':>5} {'d.II':>5} {'bound':>7} {'pred':>7} "
            f"{'err':>6} {'f.build':>7} {'f.sim':>6} {'cyc/s':>6}")
    print(head)
    print("-" * len(head))
    ratios = []
    for r in rows:
        f = r.fabric
        ratio = f.kernel_cycles / r.direct.cycles if r.direct.cycles else 0.0
        err = (f.kernel_cycles - f.predicted) / f.kernel_cycles if f.kernel_cycles else 0.0
        if r.ok and ratio:
            ratios.append(ratio)
        print(f"{r.kernel:16} {'yes' if r.ok else 'NO':3} {r.adg:24} {f.map_seconds:>5.1f} "
              f"{f.config_cycles:>6} {f.kernel_cycles:>7} {r.direct.cycles:>6} {ratio:>6.2f} "
              f"{_ii(f.expected_ii):>5} {_ii(f.direct_ii):>5} {f.bound:>7} {f.predicted:>7} "
              f"{err:>6.1%} {f.run.build:>7.1f} {f.run.simulate:>6.1f} "
              f"{f.run.cycles / f.run.simulate if f.run.simulate else 0:>6.0f}")
    print("-" * len(head))
    if ratios:
        print(f"kernel / direct: geometric mean {math.prod(ratios) ** (1 / len(ratios)):.2f}, "
              f"largest {max(ratios):.2f}, over {len(ratios)} passing kernel(s)")
    slow = [r for r in rows if r.direct.cycles and r.fabric.kernel_cycles > LIMIT * r.direct.cycles]
    if slow:
        print(f"rows above {LIMIT}: the loop that holds each back, at its model bound, and the "
              "fabric registers on its critical recurrence")
    for r in slow:
        print(f"  {r.kernel}: {r.fabric.limit}")
    for adg, area in areas.items():
        print(f"area of {adg}: {area}")
    for r in rows:
        for p in [*r.fabric.run.problems[:3], *r.direct.problems[:3]]:
            print(f"{r.kernel}: {p}")


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("kernels", nargs="*", metavar="KERNEL[@PRESET]",
                    help=f"kernel names, each on PRESET or --adg (default: {' '.join(KERNELS)})")
    ap.add_argument("--adg", default=PRESET,
                    help=f"the preset of a kernel named without one (default {PRESET})")
    ap.add_argument("--lock", type=Path, help="flock this file around each kernel's runs")
    ap.add_argument("--ordering", choices=ORDERINGS, default=FABRIC_ORDERING,
                    help=f"the memory ordering of both runs (default {FABRIC_ORDERING}, as the "
                         "fabric compiles)")
    ap.add_argument("--rounds", type=int, default=ROUNDS,
                    help=f"the mapper's routing rounds at most (default {ROUNDS}, loom map's)")
    ap.add_argument("--area", action="store_true",
                    help="the preset's area from bench/fabric_area.py (Yosys, cached)")
    args = ap.parse_args(argv)
    collect_less()   # as `loom map` runs: its map times are the command's
    WORK.mkdir(parents=True, exist_ok=True)
    rows = [bench(k, args.adg, args.ordering, args.lock, args.rounds)
            for k in args.kernels or KERNELS]
    areas = {}
    if args.area:
        AREA_WORK.mkdir(parents=True, exist_ok=True)
        areas[args.adg] = preset_area(args.adg, args.lock)
    print_table(rows, areas)
    return 0 if all(r.ok for r in rows) else 1


if __name__ == "__main__":
    sys.exit(main())
