"""`loom run`: one invocation on the golden model, compared with the expectations."""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

from loom.bundle import load_bundle
from loom.diagnostics import Location, LoomError
from loom.frontend.driver import compile_kernel, kernel_name, resolve_kernel
from loom.frontend.reference import reference_main
from loom.ir import load_module
from loom.lowering import lower
from loom.golden.loop_report import loop_streams
from loom.golden.run import find_func, golden_report, run_dfg, write_report

MAX_PROBLEM_LINES = 20


def _dfg_and_bundle(args: argparse.Namespace) -> tuple[Path, Path, Path]:
    """The DFG to run, its bundle and the output directory; compiles C and SCF inputs."""
    kernel = resolve_kernel(args.kernel)
    name = kernel_name(kernel)
    out_dir = Path(args.out_dir) if args.out_dir else Path("gen") / name
    if kernel.name.endswith(".c"):
        arts = compile_kernel(kernel, args.top, args.include_dirs, args.defines, out_dir)
        lower(arts.scf_mlir, arts.dfg_mlir, arts.top, args.max_join_fanin)
        return arts.dfg_mlir, Path(args.bundle) if args.bundle else arts.bundle_path, out_dir
    bundle_path = Path(args.bundle) if args.bundle else \
        kernel.with_name(f"{name}.bundle.json")
    if not bundle_path.exists():
        raise LoomError("no bundle: give --bundle B.json (or put "
                        f"{bundle_path.name} beside the input)", Location(str(kernel)))
    if kernel.name.endswith(".scf.mlir"):
        dfg = out_dir / f"{name}.dfg.mlir"
        lower(kernel, dfg, args.top, args.max_join_fanin)
        return dfg, bundle_path, out_dir
    if kernel.name.endswith(".dfg.mlir"):
        return kernel, bundle_path, out_dir
    raise LoomError("expected a .c, .scf.mlir or .dfg.mlir file", Location(str(kernel)))


def run_main(args: argparse.Namespace) -> int:
    if args.stage != "dfg":
        return reference_main(args)

    kernel, bundle_path, out_dir = _dfg_and_bundle(args)
    name = kernel_name(kernel)
    bundle = load_bundle(bundle_path)
    module = load_module(kernel)
    func = find_func(module, args.top, str(kernel))
    golden = run_dfg(func, bundle, str(kernel), args.max_steps)

    report_path = out_dir / f"{name}.golden.json"
    write_report(report_path, golden_report(name, golden))

    ex = golden.execution
    rate = ex.total_firings / ex.seconds if ex.seconds else 0.0
    print(f"golden: {kernel} on {bundle_path}: {ex.total_firings} firings in "
          f"{ex.seconds:.3f} s ({rate / 1e3:.0f}k firings/s)")
    for loop in loop_streams(golden.graph):
        print(f"  {loop.line()}")
    problems = golden.problems()
    for line in problems[:MAX_PROBLEM_LINES]:
        print(f"  {line}")
    if len(problems) > MAX_PROBLEM_LINES:
        print(f"  ... and {len(problems) - MAX_PROBLEM_LINES} more in {report_path}")
    verdict = "PASS" if golden.ok else "FAIL"
    print(f"{verdict}: results and memories {'match' if not golden.mismatches else 'differ'}, "
          f"{'quiescent' if ex.ok else 'not quiescent'}; report {report_path}")
    sys.stdout.flush()
    return 0 if golden.ok else 1
