"""Checking at simulator speed: the checked run against a bare one, and memory.

For each kernel (default: cnn_layer; or `NAME[:-DX=Y,...]` on the command
line, e.g. `trisolv:-DN=1000`) the flow into gen/bench/sim_speed/<kernel>/,
then, under loom.sim.profiles.IDEAL:

  golden   seconds of the golden run (loom.golden.run.run_dfg)
  build    seconds of the checked top's Verilator build (cached builds: 0)
  checked  seconds of the simulation as `loom sim` runs it (per-channel
           summaries, result channels traced; loom.sim.flow.run_seed)
  bare     seconds of the same harness and top built with LOOM_BARE: no
           summaries, no trace, only the watchdog (the simulator alone)
  ratio    bare / checked simulation speed (target: at least 0.75)
  wall     the whole checked flow: golden + build + checked run + compare
  bound    2 x (golden + bare + build): the issue's ceiling for `wall`
  rss      peak resident memory of this Python process (MB); the kernel's
           own arrays included
  child    peak resident memory of any child process (MB): the C++ compiler
           of a build or the simulator, whichever was larger

    tools/run python bench/sim_speed.py [KERNEL[:-DX=Y,...] ...] [--lock FILE]
"""

from __future__ import annotations

import argparse
import resource
import sys
import time
from dataclasses import dataclass
from pathlib import Path

from loom.frontend.driver import compile_kernel
from loom.inputs import Inputs
from loom.lowering import lower
from loom.sim import profiles
from loom.sim.flow import run_seed, setup
from loom.sim.harness import run_plusargs
from loom.sim.runner import SimBuild, file_lock

ROOT = Path(__file__).resolve().parents[1]
KERNELS = ROOT / "kernels"
OUT = ROOT / "gen" / "bench" / "sim_speed"
DEFAULT = ["cnn_layer"]


@dataclass
class Row:
    name: str
    tokens: int
    cycles: int
    golden: float
    build: float
    checked: float
    bare: float
    wall: float
    rss_mb: float
    child_rss_mb: float
    passed: bool

    @property
    def ratio(self) -> float:
        return self.bare / self.checked if self.checked else 0.0

    @property
    def bound(self) -> float:
        return 2 * (self.golden + self.bare + self.build)


def _peak_mb(who: int) -> float:
    return resource.getrusage(who).ru_maxrss / 1024


def bench(spec: str) -> Row:
    name, _, flags = spec.partition(":")
    defines = [f.removeprefix("-D") for f in flags.split(",") if f]
    out = OUT / (name + "".join(f"_{d}" for d in defines).replace("=", ""))
    t0 = time.perf_counter()
    arts = compile_kernel(KERNELS / f"{name}.c", None, [], defines, out)
    lower(arts.scf_mlir, arts.dfg_mlir, arts.top)
    s = setup(Inputs(name, out, arts.dfg_mlir, arts.bundle_path), None)
    checked = run_seed(s, profiles.IDEAL)
    wall = time.perf_counter() - t0
    golden_s = s.golden.execution.seconds

    bare = SimBuild(s.build.top, s.build.sources, out / "sim_build_bare", bare=True)
    bare.build()
    run_dir = (out / "sim" / "bare").resolve()
    run_dir.mkdir(parents=True, exist_ok=True)
    plusargs = run_plusargs(s.rtl.netlist, s.bundle, run_dir, profiles.IDEAL)
    plusargs = [a for a in plusargs if not a.startswith(("+loom_trace=", "+loom_summary=",
                                                         "+loom_progress="))]
    result = bare.run(run_dir, plusargs, max_cycles=1000 + 200 * s.golden_tokens)
    report = checked.report
    return Row(name + (f" {' '.join(defines)}" if defines else ""), report["tokens"],
               report["cycles"], golden_s, s.build_seconds, report["seconds"]["simulate"],
               result["seconds"], wall, _peak_mb(resource.RUSAGE_SELF),
               _peak_mb(resource.RUSAGE_CHILDREN), checked.passed)


def table(rows: list[Row]) -> str:
    head = (f"{'kernel':<22} {'tokens':>10} {'cycles':>10} {'golden':>7} {'build':>6} "
            f"{'checked':>8} {'bare':>6} {'ratio':>6} {'wall':>7} {'bound':>7} "
            f"{'rss':>6} {'child':>7}  check")
    lines = [head, "-" * len(head)]
    for r in rows:
        lines.append(f"{r.name:<22} {r.tokens:>10} {r.cycles:>10} {r.golden:>7.1f} "
                     f"{r.build:>6.1f} {r.checked:>8.2f} {r.bare:>6.2f} {r.ratio:>6.2f} "
                     f"{r.wall:>7.1f} {r.bound:>7.1f} {r.rss_mb:>6.0f} {r.child_rss_mb:>7.0f}  "
                     f"{'pass' if r.passed else 'FAIL'}")
    return "\n".join(lines)


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("kernels", nargs="*", default=DEFAULT, metavar="KERNEL[:-DX=Y,...]")
    ap.add_argument("--lock", type=Path, help="run each kernel under flock on this file")
    args = ap.parse_args(argv)
    rows = []
    for spec in args.kernels:
        print(f"sim_speed: {spec}", file=sys.stderr, flush=True)
        with file_lock(args.lock):
            rows.append(bench(spec))
    print(table(rows))
    return 0 if all(r.passed for r in rows) else 1


if __name__ == "__main__":
    sys.exit(main())
