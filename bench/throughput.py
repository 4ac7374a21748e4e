"""Throughput under the ideal profile: cycles, achieved II, II bound, area, buffers.

For each kernel (default: the rows of issue 11's table below; or names given on
the command line) the whole flow into gen/bench/throughput/<kernel>/ and one
run under loom.sim.profiles.IDEAL (`loom sim K --ideal`: inputs never idle,
outputs always ready, memory ready every cycle, every response exactly one
cycle after its request), checked channel by channel like any run. Columns:

  iters    innermost-loop iterations: the largest body count over the loops of
           the golden run (loom.golden.loop_report: a loop's `body` is the
           number of iterations its body ran, summed over its activations).
           In every bench kernel that loop is the innermost one; where the
           count follows from the C, FORMULA states it and the bench checks it.
  cycles   cycles of the ideal run (reset to the last token, as `loom sim`).
  II       achieved II = cycles / iters: the whole run, prologue, outer loops
           and any other loop nest included, over the innermost iterations;
           so an upper bound on the innermost loop's steady-state II.
  bound    the innermost loop's II bound from the netlist (the loop of
           `iters`; loom.rtl.timing.loop_bound: over the cycles its condition
           decides, the largest latency around one over its tokens); II
           cannot be below it. An outer loop may have a larger bound and
           still cost less, as it iterates less.
  order    the lowering's memory ordering (`--ordering`: analysis keeps only
           the orderings dependence analysis cannot rule out; seed, seed 000's
           full order of each array's accesses; lsq, analysis plus a
           load-store queue for an array analysis cannot order).
  lsq      load-store queues in the netlist.
  ref      the best published HLS result for the same C shape (EPFL
           Dynamatic, issue 11) in cycles, or the issue's target (vecadd: 300
           cycles; while loop: II 4); `x ref` cycles over it, `met` whether
           the run reaches it. With --dependence, issue 32's rows: loops that
           load and store one array, against Dynamatic's FPGA20 cycles.
  base     cycles and cells of the same run on main before issue 11's
           pipelined memory and buffer placement (commit 7d061e0): the
           baseline the changes are measured by (cells: the 25 % budget).
  cells    Yosys generic synthesis of the whole top (read_slang -j 1;
  FFs      synth -flatten; stat) with every unit: cells and flip-flops.
  slots    buffer slots the netlist inserts (tehb and oehb one each, a fifo
           its depth); `bufs` the number of buffer units.

Each kernel's flow and its synthesis run under `--lock FILE` (flock), one at a
time, when given. Yosys results are cached by RTL text under
gen/bench/throughput/area.json. Takes minutes (cnn_layer alone runs 1.3 M
simulated cycles and its golden model about half a minute); progress goes to
stderr.

With --float, issue 33's rows: Dynamatic's twelve float kernels of that
issue's list, its own files (bench/dynamatic_suite.py extracts them from a
Dynamatic git directory at the report's commit and gives their
`dynamatic/Integration.h` one line), against the FPGA20 cycles of the
anchors TSV; there `iters` has no formula.

    tools/run python bench/throughput.py [KERNEL ...] [--dependence | --float]
                                         [--ordering analysis|seed|lsq|all]
                                         [--lock /work/helpers/cpu.lock] [--no-area]
"""

from __future__ import annotations

import argparse
import hashlib
import json
import sys
import time
from dataclasses import dataclass
from fractions import Fraction
from pathlib import Path

from loom.frontend.driver import compile_kernel
from loom.golden.loop_report import RAW_SUFFIX, innermost_loop
from loom.inputs import Inputs
from loom.lowering import lower
from loom.ordering_modes import ORDERINGS
from loom.rtl.gates import synthesize
from loom.rtl.netlist import Netlist
from loom.rtl.timing import loop_bound
from loom.rtl.units import FIFO_KINDS
from loom.sim import profiles
from loom.sim.runner import file_lock
from loom.sim.flow import SimSetup, run_seed, setup

import dynamatic_suite

ROOT = Path(__file__).resolve().parents[1]
KERNELS = ROOT / "kernels"
WORK = ROOT / "gen" / "bench" / "throughput"


@dataclass(frozen=True)
class Reference:
    cycles: int | None = None   # at most this many cycles
    ii: int | None = None       # or: achieved II at most this
    source: str = ""

    def text(self) -> str:
        return f"{self.cycles}" if self.cycles is not None else f"II {self.ii}"

    def met(self, cycles: int, ii: float) -> bool:
        if self.cycles is not None:
            return cycles <= self.cycles
        return self.ii is not None and ii <= self.ii


# Issue 11's table: the kernel of each row and its reference. The Dynamatic
# figures are for its integration tests of the same shape and sizes.
REFERENCE: dict[str, Reference] = {
    "vecadd": Reference(cycles=300, source="target: II 1 on N=256"),
    "fir": Reference(cycles=1011, source="Dynamatic fir"),
    "stencil_3x3": Reference(cycles=543, source="Dynamatic stencil_2d"),
    "insertion_break": Reference(cycles=962, source="Dynamatic insertion_sort"),
    "gaussian": Reference(cycles=20360, source="Dynamatic gaussian"),
    "matmul30": Reference(cycles=33647, source="Dynamatic matrix"),
    "cnn_layer": Reference(cycles=970662, source="Dynamatic cnn"),
    "while_sum": Reference(ii=4, source="Dynamatic while_loop_1"),
}

# Issue 32's table: loops that load and store one array, each our kernel in
# the shape and sizes of a Dynamatic integration test, against its FPGA20
# cycles (Dynamatic's performance report of 2025-09-01, commit a1d6b1195).
# gaussian's figure there is 5,834 (issue 11 compared an older 20,360).
DEPENDENCE: dict[str, Reference] = {
    "video_filter": Reference(cycles=949, source="Dynamatic video_filter"),
    "gaussian": Reference(cycles=5834, source="Dynamatic gaussian (2025-09-01)"),
    "matrix_power": Reference(cycles=646, source="Dynamatic matrix_power"),
    "gemver": Reference(cycles=2876, source="Dynamatic gemver"),
    "bicg_acc": Reference(cycles=948, source="Dynamatic bicg"),
    "pivot": Reference(cycles=272, source="Dynamatic pivot"),
    "triangular": Reference(cycles=133, source="Dynamatic triangular"),
    "image_resize": Reference(cycles=1097, source="Dynamatic image_resize"),
    "k2mm_acc": Reference(cycles=3812, source="Dynamatic kernel_2mm"),
    "count_loop": Reference(cycles=8, source="Dynamatic simple_example_1"),
}

# Issue 33's table: Dynamatic's float kernels the issue lists, run from its
# own files; their references are the anchors TSV's FPGA20 cycles (float_kernels).
FLOAT = ("float_basic", "atax_float", "bicg_float", "gemm_float", "kernel_2mm_float",
         "kernel_3mm_float", "gesummv_float", "mvt_float", "gemver_float", "symm_float",
         "syr2k_float", "get_tanh")

# innermost iterations from the C (None: data-dependent)
FORMULA: dict[str, int | None] = {
    "vecadd": 256,                          # N
    "fir": 1000,                            # TAPS
    "stencil_3x3": 28 * 3 * 3,              # OUT_COLS x K x K
    "insertion_break": None,                # the shifts: depends on the data
    "gaussian": 153 * 19,                   # pivot/row pairs 1 <= p < r <= 18, columns 1..19
    "matmul30": 30 * 30 * 30,
    "cnn_layer": 5 * 10 * 10 * 10 * 2 * 4 * 4,   # groups x maps x y x x x o x ky x kx
    "while_sum": 901,                       # elements 0..900
}

# (cycles, cells) of this bench on main at 7d061e0, before issue 11's changes
BASELINE: dict[str, tuple[int, int]] = {
    "vecadd": (1029, 1044),
    "fir": (5505, 4958),
    "stencil_3x3": (1855, 8229),
    "insertion_break": (3234, 4262),
    "gaussian": (38117, 8963),
    "matmul30": (152106, 7812),
    "cnn_layer": (1291972, 15365),
    "while_sum": (7211, 1801),
}


@dataclass
class Row:
    name: str
    ordering: str
    ok: bool
    iters: int
    cycles: int
    bound: Fraction | float
    cells: int | None
    ffs: int | None
    slots: int
    bufs: int
    queues: int
    problems: list[str]

    @property
    def ii(self) -> float:
        return self.cycles / self.iters if self.iters else 0.0


def _log(msg: str) -> None:
    print(msg, file=sys.stderr, flush=True)


@dataclass(frozen=True)
class Source:
    """Where a row's kernel comes from: its C file and include directories."""

    c_file: Path
    include_dirs: tuple[str, ...] = ()

    @classmethod
    def ours(cls, name: str) -> Source:
        return cls(KERNELS / f"{name}.c")


def float_kernels(gitdir: Path, commit: str, anchors: Path
                  ) -> tuple[dict[str, Source], dict[str, Reference]]:
    """FLOAT's kernels from Dynamatic's git directory and their FPGA20 references."""
    out = WORK / "dynamatic"
    tests = dynamatic_suite.extract(gitdir, commit, out)
    include = str(dynamatic_suite.write_header(out))
    figures = dynamatic_suite.read_anchors(anchors)
    sources = {k: Source(tests / k / f"{k}.c", (include,)) for k in FLOAT}
    return sources, {k: Reference(cycles=figures[k], source=f"Dynamatic {k} FPGA20")
                     for k in FLOAT if k in figures}


def _simulate(name: str, source: Source, ordering: str) -> SimSetup:
    out = WORK / (name if ordering == "analysis" else f"{name}.{ordering}-ordering")
    arts = compile_kernel(source.c_file, None, list(source.include_dirs), [], out)
    lower(arts.scf_mlir, arts.dfg_mlir, arts.top, ordering=ordering)
    return setup(Inputs(name, out, arts.dfg_mlir, arts.bundle_path), None)


def innermost(s: SimSetup) -> tuple[int, Fraction | float]:
    """The innermost loop's iterations and II bound ((0, 0) without loops)."""
    loop = innermost_loop(s.traced_golden.graph)
    if loop is None:
        return 0, Fraction(0)
    return loop.body, loop_bound(s.rtl.netlist, loop.loop + RAW_SUFFIX)


def buffer_slots(net: Netlist) -> int:
    return sum(inst.spec.params.get("slots", 1) for inst in net.instances
               if inst.spec.family in FIFO_KINDS)


def _area(s: SimSetup, cache: dict) -> tuple[int, int]:
    rtl_dir = s.rtl.file_list.parent
    files = s.rtl.file_list.read_text().split()
    key = hashlib.sha256("".join((rtl_dir / f).read_text() for f in files).encode()).hexdigest()
    if key not in cache:
        r = synthesize(rtl_dir, files, s.rtl.top_module)
        cache[key] = [r.cells, r.ffs]
    cells, ffs = cache[key]
    return cells, ffs


def bench(name: str, source: Source, ordering: str, lock: Path | None,
          area: dict | None) -> Row:
    t = time.perf_counter()
    with file_lock(lock):
        _log(f"throughput: {name} ({ordering} ordering): compile, golden run, RTL, "
             "Verilator build, ideal run")
        s = _simulate(name, source, ordering)
        result = run_seed(s, profiles.IDEAL)
    problems = list(result.problems)
    iters, bound = innermost(s)
    expected = FORMULA.get(name)
    if expected is not None and iters != expected:
        problems.append(f"innermost iterations {iters}, the C says {expected}")
    cells = ffs = None
    if area is not None:
        with file_lock(lock):
            _log(f"throughput: {name}: Yosys synthesis of {s.rtl.top_module}")
            cells, ffs = _area(s, area)
    net = s.rtl.netlist
    _log(f"throughput: {name}: {result.report['cycles']} cycles, "
         f"{time.perf_counter() - t:.0f} s")
    return Row(name, ordering, result.passed and not problems, iters, result.report["cycles"],
               bound, cells, ffs, buffer_slots(net), net.buffers,
               sum(inst.spec.family == "lsq" for inst in net.instances), problems)


def _fmt(v: object, width: int) -> str:
    return f"{'-' if v is None else v:>{width}}"


def print_table(rows: list[Row], references: dict[str, Reference]) -> None:
    print(f"{'kernel':16} {'order':8} {'ok':3} {'iters':>7} {'cycles':>8} {'II':>6} "
          f"{'bound':>6} {'ref':>7} {'x ref':>5} {'met':>3} {'base':>8} {'cells':>7} "
          f"{'base':>7} {'FFs':>6} {'slots':>5} {'bufs':>4} {'lsq':>3}")
    print("-" * 128)
    for r in rows:
        ref = references.get(r.name)
        ratio = f"{r.cycles / ref.cycles:.2f}" if ref and ref.cycles else "-"
        base_cycles, base_cells = BASELINE.get(r.name, (None, None))
        bound = f"{float(r.bound):.2f}" if r.bound != float("inf") else "inf"
        print(f"{r.name:16} {r.ordering:8} {'yes' if r.ok else 'NO':3} {r.iters:>7} "
              f"{r.cycles:>8} {r.ii:>6.2f} {bound:>6} {ref.text() if ref else '-':>7} "
              f"{ratio:>5} {('yes' if ref.met(r.cycles, r.ii) else 'no') if ref else '-':>3} "
              f"{_fmt(base_cycles, 8)} {_fmt(r.cells, 7)} {_fmt(base_cells, 7)} {_fmt(r.ffs, 6)} "
              f"{r.slots:>5} {r.bufs:>4} {r.queues:>3}")
    print("-" * 128)
    for r in rows:
        for p in r.problems[:3]:
            print(f"{r.name}: {p}")


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("kernels", nargs="*",
                    help="kernel names (default: issue 11's rows, or with --dependence "
                         "issue 32's)")
    ap.add_argument("--dependence", action="store_true",
                    help="issue 32's rows and references (loops that load and store one "
                         "array, against Dynamatic's FPGA20 cycles)")
    ap.add_argument("--float", action="store_true",
                    help="issue 33's rows (Dynamatic's float kernels, its own files, "
                         "against its FPGA20 cycles)")
    ap.add_argument("--dynamatic", type=Path, default=dynamatic_suite.DYNAMATIC,
                    help="with --float: Dynamatic's git directory "
                         f"(default {dynamatic_suite.DYNAMATIC})")
    ap.add_argument("--commit", default=dynamatic_suite.COMMIT,
                    help=f"with --float: its commit (default {dynamatic_suite.COMMIT})")
    ap.add_argument("--anchors", type=Path, default=dynamatic_suite.ANCHORS,
                    help="with --float: the FPGA20 cycles TSV")
    ap.add_argument("--ordering", choices=[*ORDERINGS, "all"], default="analysis",
                    help="the lowering's memory ordering (all: a row for each)")
    ap.add_argument("--lock", type=Path, help="flock this file around each kernel's runs")
    ap.add_argument("--no-area", action="store_true", help="skip the Yosys synthesis")
    args = ap.parse_args(argv)
    if args.dependence and args.float:
        ap.error("--dependence and --float are two tables; give one")
    sources: dict[str, Source] = {}
    references = DEPENDENCE if args.dependence else REFERENCE
    if args.float:
        try:
            sources, references = float_kernels(args.dynamatic, args.commit, args.anchors)
        except dynamatic_suite.BenchInputError as e:
            print(e, file=sys.stderr)
            return 2
    names = args.kernels or list(sources or references)
    orderings = list(ORDERINGS) if args.ordering == "all" else [args.ordering]
    WORK.mkdir(parents=True, exist_ok=True)
    cache_file = WORK / "area.json"
    area = None
    if not args.no_area:
        area = json.loads(cache_file.read_text()) if cache_file.exists() else {}
    rows = []
    for name in names:
        for ordering in orderings:
            rows.append(bench(name, sources.get(name) or Source.ours(name), ordering,
                              args.lock, area))
            if area is not None:
                cache_file.write_text(json.dumps(area))
    print_table(rows, references)
    return 0 if all(r.ok for r in rows) else 1


if __name__ == "__main__":
    sys.exit(main())
