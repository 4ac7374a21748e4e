"""Per-kernel flow benchmark: compile time per stage, simulation cycles and speed.

For each kernel (default: all of kernels/; or names given on the command line):
front-end stage times, lowering, golden run, RTL emission, Verilator build
(cached under gen/bench/<kernel>/ when unchanged), then one seeded simulation:
cycles, tokens, cycles per innermost loop iteration, simulation wall time and
simulated cycles per second (the run's wall time includes simulator start-up).
Target for simulation speed: 500,000 simulated cycles/s on the larger kernels;
`--long` adds scaled-up copies of two kernels (N raised in their #define) whose
runs are long enough for start-up not to dominate.

    tools/run python bench/kernels.py [KERNEL ...] [--seed S] [--long]
"""

from __future__ import annotations

import argparse
import re
import sys
import time
from pathlib import Path

from loom.frontend.driver import compile_kernel
from loom.inputs import Inputs
from loom.golden.loop_report import innermost_loop
from loom.lowering import lower
from loom.sim.flow import run_seed, setup
from loom.sim import profiles

ROOT = Path(__file__).resolve().parents[1]
KERNELS = ROOT / "kernels"
WORK = ROOT / "gen" / "bench"
TARGET = 500_000


LONG = {"bubble_sort": 256, "matmul": 24}   # kernel -> N of the scaled copy


def scaled_copy(name: str, n: int) -> Path:
    """kernels/<name>.c with its `#define N` raised, under gen/bench/long/."""
    text = (KERNELS / f"{name}.c").read_text()
    scaled, count = re.subn(r"#define N \d+", f"#define N {n}", text)
    assert count == 1, f"{name}.c has no single '#define N'"
    path = WORK / "long" / f"{name}.c"
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(scaled)
    return path


def bench(name: str, seed: int, source: Path | None = None, tag: str = "") -> dict:
    out = WORK / (name + tag)
    stages: dict[str, float] = {}
    t = time.perf_counter()
    arts = compile_kernel(source or KERNELS / f"{name}.c", None, [], [], out,
                          progress=lambda stage, path, secs: stages.__setitem__(stage, secs))
    t_lower = time.perf_counter()
    lower(arts.scf_mlir, arts.dfg_mlir, arts.top)
    stages["lower"] = time.perf_counter() - t_lower
    t_setup = time.perf_counter()
    s = setup(Inputs(name, out, arts.dfg_mlir, arts.bundle_path), None)
    stages["golden+rtl+build"] = time.perf_counter() - t_setup
    result = run_seed(s, profiles.for_seed(seed))
    r = result.report
    loop = innermost_loop(s.traced_golden.graph)
    inner = loop.body if loop else 0
    return dict(name=name + tag, ok=result.passed, cycles=r["cycles"], tokens=r["tokens"],
                inner=inner, per_iter=r["cycles"] / inner if inner else 0.0,
                sim_s=r["seconds"]["simulate"], cps=r["cycles_per_second"],
                build_s=s.build_seconds, stages=stages, total=time.perf_counter() - t)


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("kernels", nargs="*", help="kernel names (default: all)")
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--long", action="store_true", help="add the scaled-up long runs")
    args = ap.parse_args()
    names = args.kernels or sorted(p.stem for p in KERNELS.glob("*.c"))
    jobs = [(n, None, "") for n in names]
    if args.long:
        jobs += [(n, scaled_copy(n, size), f"@N={size}") for n, size in LONG.items()]
    print(f"{'kernel':20} {'ok':3} {'cycles':>8} {'tokens':>8} {'inner it':>8} {'cyc/it':>7} "
          f"{'sim s':>6} {'cycles/s':>9} {'build s':>7} {'clang':>6} {'import':>6} {'raise':>6} "
          f"{'scf':>6} {'native':>6} {'lower':>6}")
    rows = []
    for name, source, tag in jobs:
        row = bench(name, args.seed, source, tag)
        rows.append(row)
        st = row["stages"]
        print(f"{row['name']:20} {'yes' if row['ok'] else 'NO':3} {row['cycles']:>8} {row['tokens']:>8} "
              f"{row['inner']:>8} {row['per_iter']:>7.2f} {row['sim_s']:>6.2f} {row['cps']:>9,} "
              f"{row['build_s']:>7.1f} " + " ".join(f"{st.get(k, 0):>6.2f}" for k in
                                                   ("clang", "import", "raise", "scf", "native",
                                                    "lower")), flush=True)
    best = max(rows, key=lambda r: r["cycles"])
    startup = min(r["sim_s"] for r in rows)   # the shortest run is almost all start-up
    net = best["cycles"] / max(best["sim_s"] - startup, 1e-9)
    print(f"largest run: {best['name']} {best['cycles']} cycles in {best['sim_s']:.2f} s: "
          f"{best['cps']:,} cycles/s with simulator start-up, {net:,.0f} cycles/s after the "
          f"{startup:.2f} s start-up (target {TARGET:,})")
    return 0 if all(r["ok"] for r in rows) else 1


if __name__ == "__main__":
    sys.exit(main())
