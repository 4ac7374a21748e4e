"""`loom run`: one invocation on the golden model, compared with the expectations."""

from __future__ import annotations

import argparse
import sys

from loom.bundle import load_bundle
from loom.frontend.reference import reference_main
from loom.ir import load_module
from loom.golden.loop_report import loop_streams
from loom.inputs import KernelSource, prepare
from loom.progress import Progress
from loom.golden.run import GoldenRun, find_func, golden_report, run_dfg, write_report

MAX_PROBLEM_LINES = 20


def run_main(args: argparse.Namespace) -> int:
    if args.stage != "dfg":
        return reference_main(args)

    inputs = prepare(KernelSource.from_args(args))
    kernel, bundle_path, out_dir, name = inputs.dfg, inputs.bundle, inputs.out_dir, inputs.name
    assert bundle_path is not None
    bundle = load_bundle(bundle_path)
    module = load_module(kernel)
    func = find_func(module, args.top, str(kernel))
    golden = run_dfg(func, bundle, str(kernel), args.max_steps, Progress(enabled=args.progress),
                     traces=args.traces)

    report_path = out_dir / f"{name}.golden.json"
    write_report(report_path, golden_report(name, golden))

    ex = golden.execution
    rate = ex.total_firings / ex.seconds if ex.seconds else 0.0
    print(f"golden: {kernel} on {bundle_path}: {ex.total_firings} firings in "
          f"{ex.seconds:.3f} s ({rate / 1e3:.0f}k firings/s)")
    if ex.traces is None:
        print("  loops: not counted (--no-traces)")
    for loop in loop_streams(golden.graph) if ex.traces is not None else []:
        print(f"  {loop.line()}")
    for line in golden.outcome.warnings:
        print(line, file=sys.stderr)
    problems = golden.problems()
    for line in problems[:MAX_PROBLEM_LINES]:
        print(f"  {line}")
    if len(problems) > MAX_PROBLEM_LINES:
        print(f"  ... and {len(problems) - MAX_PROBLEM_LINES} more in {report_path}")
    print(f"{_verdict(golden)}; report {report_path}")
    sys.stdout.flush()
    return 0 if golden.ok else 1


def _verdict(golden: GoldenRun) -> str:
    """One self-consistent summary: nothing is said to match that was not compared."""
    ex = golden.execution
    if not ex.returned:
        return "FAIL: the run stopped before every invocation returned; nothing compared"
    state = "quiescent" if ex.ok else "not quiescent"
    if golden.mismatches:
        return f"FAIL: results or memories differ, {state}"
    return f"{'PASS' if golden.ok else 'FAIL'}: results and memories match, {state}"
