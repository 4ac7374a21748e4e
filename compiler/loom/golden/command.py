"""`loom run`: one invocation on the golden model, compared with the expectations."""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

from loom.bundle import load_bundle
from loom.diagnostics import Location, LoomError, NotBuiltError
from loom.golden.run import find_func, golden_report, run_dfg, write_report

MAX_PROBLEM_LINES = 20


def _stem(path: Path) -> str:
    name = path.name
    for suffix in (".dfg.mlir", ".scf.mlir", ".cf.mlir", ".mlir", ".c"):
        if name.endswith(suffix):
            return name[: -len(suffix)]
    return path.stem


def run_main(args: argparse.Namespace) -> int:
    if args.stage != "dfg":
        try:
            from loom.frontend.reference import reference_main
        except ImportError:
            raise NotBuiltError("the SCF/CF reference interpreter is not built yet") from None
        return reference_main(args)

    kernel = Path(args.kernel)
    if not kernel.name.endswith(".dfg.mlir"):
        try:
            from loom.lowering.pipeline import dfg_for_kernel
        except ImportError:
            raise NotBuiltError("the SCF-to-DFG lowering is not built yet; "
                                "give loom run a .dfg.mlir file and --bundle") from None
        kernel, bundle_path = dfg_for_kernel(args)
    else:
        bundle_path = Path(args.bundle) if args.bundle else \
            kernel.with_name(_stem(kernel) + ".bundle.json")
        if not bundle_path.exists():
            raise LoomError("no bundle: give --bundle B.json (or put "
                            f"{bundle_path.name} beside the DFG)", Location(str(kernel)))
    if not kernel.exists():
        raise LoomError("no such file", Location(str(kernel)))

    from loom.ir import load_module  # xDSL context: imported only when needed

    name = _stem(kernel)
    bundle = load_bundle(args.bundle or bundle_path)
    module = load_module(kernel)
    func = find_func(module, args.top, str(kernel))
    golden = run_dfg(func, bundle, str(kernel), args.max_steps)

    out_dir = Path(args.out_dir) if args.out_dir else Path("gen") / name
    report_path = out_dir / f"{name}.golden.json"
    write_report(report_path, golden_report(name, golden))

    ex = golden.execution
    rate = ex.total_firings / ex.seconds if ex.seconds else 0.0
    print(f"golden: {kernel} on {bundle_path}: {ex.total_firings} firings in "
          f"{ex.seconds:.3f} s ({rate / 1e3:.0f}k firings/s)")
    problems = golden.problems()
    for line in problems[:MAX_PROBLEM_LINES]:
        print(f"  {line}")
    if len(problems) > MAX_PROBLEM_LINES:
        print(f"  ... and {len(problems) - MAX_PROBLEM_LINES} more in {report_path}")
    verdict = "PASS" if golden.ok else "FAIL"
    print(f"{verdict}: results {'match' if not golden.mismatches else 'differ'}, "
          f"{'quiescent' if ex.ok else 'not quiescent'}; report {report_path}")
    sys.stdout.flush()
    return 0 if golden.ok else 1
