"""`loom run`: one invocation on the golden model, compared with the expectations."""

from __future__ import annotations

import argparse
import sys
from dataclasses import dataclass
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


@dataclass
class Inputs:
    """What a command works on: the DFG (compiled or lowered as needed) and its bundle."""
    name: str
    out_dir: Path
    dfg: Path
    bundle: Path | None


def prepare(args: argparse.Namespace, need_bundle: bool = True) -> Inputs:
    """Resolve K; compile a .c file, lower a .scf.mlir file; find the bundle."""
    kernel = resolve_kernel(args.kernel)
    name = kernel_name(kernel)
    out_dir = Path(args.out_dir) if args.out_dir else Path("gen") / name
    given = Path(args.bundle) if getattr(args, "bundle", None) else None
    if kernel.name.endswith(".c"):
        arts = compile_kernel(kernel, args.top, args.include_dirs, args.defines, out_dir)
        lower(arts.scf_mlir, arts.dfg_mlir, arts.top, args.max_join_fanin)
        return Inputs(name, out_dir, arts.dfg_mlir, given or arts.bundle_path)
    bundle: Path | None = given or kernel.with_name(f"{name}.bundle.json")
    if not need_bundle and not bundle.exists():
        bundle = None
    elif not bundle.exists():
        raise LoomError("no bundle: give --bundle B.json (or put "
                        f"{bundle.name} beside the input)", Location(str(kernel)))
    if kernel.name.endswith(".scf.mlir"):
        dfg = out_dir / f"{name}.dfg.mlir"
        lower(kernel, dfg, args.top, args.max_join_fanin)
        return Inputs(name, out_dir, dfg, bundle)
    if kernel.name.endswith(".dfg.mlir"):
        return Inputs(name, out_dir, kernel, bundle)
    raise LoomError("expected a .c, .scf.mlir or .dfg.mlir file", Location(str(kernel)))


def run_main(args: argparse.Namespace) -> int:
    if args.stage != "dfg":
        return reference_main(args)

    inputs = prepare(args)
    kernel, bundle_path, out_dir, name = inputs.dfg, inputs.bundle, inputs.out_dir, inputs.name
    assert bundle_path is not None
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
