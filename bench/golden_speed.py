"""Golden-model speed: op firings per second on one core.

Kernels of the sizes in issue 15: kernels/cnn_layer.c (one CNN layer, about
7.6M firings) and kernels/trisolv.c with -DN=1000 (a 1000-row triangular
solve, about 14.0M firings: a load's address and data halves are firings of
their own); and two DFGs from tests/golden/data: a
100k-iteration stream -> gate -> carry loop (sum_loop) and a loop with memory
traffic in two ctrl-done groups (scale, 100k elements).
The rate is firings per CPU second of the run (time.process_time), which a
busy machine disturbs less than wall time; both are printed. The run is
run_dfg: building the graph from the bundle, compiling its step function
(golden/codegen.py), running it and comparing results and memories. The run is in
the mode `loom sim` uses (summary mode: per-channel counts and digests, no
traces); --traced adds a second row per case in traced mode (`loom run`'s
default, and the rerun after a divergence).
Target: at least 2,000,000 firings/s on each kernel, in summary mode.
Run: tools/run python bench/golden_speed.py [--rows N] [--only NAME] [--traced]
"""

from __future__ import annotations

import argparse
import sys
import time
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

from xdsl.ir import Operation

from loom.bundle import Bundle, MemoryRegion, ScalarInput, load_bundle
from loom.frontend.driver import compile_kernel
from loom.golden.run import find_func, run_dfg
from loom.ir import load_module, parse_module
from loom.lowering import lower

ROOT = Path(__file__).resolve().parent.parent
DATA = ROOT / "tests" / "golden" / "data"
OUT = ROOT / "gen" / "bench" / "golden_speed"
N = 100_000
TARGET = 2_000_000


@dataclass
class Row:
    name: str
    mode: str
    firings: int
    cpu: float
    wall: float
    ok: bool

    @property
    def rate(self) -> float:
        return self.firings / self.cpu if self.cpu else 0.0


def _measure(name: str, func: Operation, bundle: Bundle, traced: bool) -> Row:
    wall, cpu = time.perf_counter(), time.process_time()
    golden = run_dfg(func, bundle, name, traces=traced)
    cpu, wall = time.process_time() - cpu, time.perf_counter() - wall
    return Row(name, "traced" if traced else "summary", golden.execution.total_firings,
               cpu, wall, golden.ok)


def _measure_modes(name: str, func: Operation, bundle: Bundle, traced: bool) -> list[Row]:
    """Summary mode (loom sim's), then traced mode if asked."""
    return [_measure(name, func, bundle, mode) for mode in (False, True)[:1 + traced]]


def _dfg_case(name: str, text: str, bundle: Bundle, traced: bool) -> list[Row]:
    return _measure_modes(name, find_func(parse_module(text, name), None, name), bundle, traced)


def _kernel_case(label: str, kernel: str, defines: list[str], traced: bool) -> list[Row]:
    out = OUT / label.split()[0]
    arts = compile_kernel(ROOT / "kernels" / f"{kernel}.c", None, [], defines, out)
    lower(arts.scf_mlir, arts.dfg_mlir, arts.top)
    func = find_func(load_module(arts.dfg_mlir), None, str(arts.dfg_mlir))
    return _measure_modes(label, func, load_bundle(arts.bundle_path), traced)


def cases(rows: int, traced: bool) -> dict[str, Callable[[], list[Row]]]:
    return {
        "sum_loop": lambda: _dfg_case(
            "sum_loop (stream->gate->carry)", (DATA / "sum_loop.dfg.mlir").read_text(),
            Bundle("sum", scalar_inputs=[ScalarInput(0, [N])]), traced),
        "scale": lambda: _dfg_case(
            "scale (load/store, 2 groups)",
            (DATA / "scale.dfg.mlir").read_text().replace("16xi32", f"{N}xi32"),
            Bundle("scale", scalar_inputs=[ScalarInput(2, [3]), ScalarInput(3, [N])],
                   memory_regions=[MemoryRegion(0, 4, list(range(N))),
                                   MemoryRegion(1, 4, [0] * N)]), traced),
        "cnn_layer": lambda: _kernel_case("cnn_layer (10x10, 10 maps)", "cnn_layer", [], traced),
        "trisolv": lambda: _kernel_case(f"trisolv ({rows} rows)", "trisolv", [f"N={rows}"],
                                        traced),
    }


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--rows", type=int, default=1000, help="trisolv rows (default 1000)")
    ap.add_argument("--only", action="append", help="run only these cases")
    ap.add_argument("--traced", action="store_true",
                    help="also measure traced mode (every channel's tokens kept)")
    args = ap.parse_args(argv)
    table = cases(args.rows, args.traced)
    print(f"{'case':32} {'mode':8} {'firings':>10} {'cpu s':>7} {'wall s':>7} "
          f"{'firings/s':>10} {'target':>10} ok", flush=True)
    rows = []
    for key, run in table.items():
        if args.only and key not in args.only:
            continue
        for r in run():
            rows.append(r)
            print(f"{r.name:32} {r.mode:8} {r.firings:>10} {r.cpu:>7.2f} {r.wall:>7.2f} "
                  f"{r.rate:>10,.0f} {TARGET:>10,} {'yes' if r.ok else 'NO'}", flush=True)
    worst = min((r for r in rows if r.mode == "summary"), key=lambda r: r.rate)
    print(f"slowest (summary mode): {worst.name}, {worst.rate:,.0f} firings/s "
          f"({'meets' if worst.rate >= TARGET else 'MISSES'} the {TARGET:,} target)")
    return 0 if all(r.ok for r in rows) else 1


if __name__ == "__main__":
    sys.exit(main())
