"""`loom compile`: the front-end artifacts, then the DFG stage."""

from __future__ import annotations

import argparse
import time
from pathlib import Path

from loom.diagnostics import LoomError, Location
from loom.frontend.driver import Artifacts, compile_kernel, kernel_name, resolve_kernel
from loom.lowering import lower
from loom.lowering.ordering import ordering_report
from loom.ordering_modes import DIRECT_ORDERING

__all__ = ["compile_main", "compile_kernel", "resolve_kernel", "Artifacts"]


def _progress(stage: str, path: Path, seconds: float) -> None:
    print(f"  {stage:<7} {path}  ({seconds:.2f} s)", flush=True)


def compile_main(args: argparse.Namespace) -> int:
    kernel = resolve_kernel(args.kernel)
    name = kernel_name(kernel)
    out_dir = Path(args.out_dir) if args.out_dir else Path("gen") / name
    fanin = getattr(args, "max_join_fanin", 64)
    flat = bool(getattr(args, "flat_memrefs", False))
    ordering = getattr(args, "ordering", None) or DIRECT_ORDERING
    explain = bool(getattr(args, "explain_ordering", False))
    if kernel.suffix != ".c" and not kernel.name.endswith(".scf.mlir"):
        raise LoomError("loom compile takes a .c or .scf.mlir file", Location(str(kernel)))
    print(f"loom compile {kernel} -> {out_dir}/", flush=True)
    if kernel.name.endswith(".scf.mlir"):
        # An SCF file is a valid entry point: only the DFG stage is left to run.
        _lower(kernel, out_dir / f"{name}.dfg.mlir", args.top, fanin, flat, ordering, explain)
        return 0
    arts = compile_kernel(kernel, args.top, args.include_dirs, args.defines, out_dir,
                          progress=_progress)
    _lower(arts.scf_mlir, arts.dfg_mlir, arts.top, fanin, flat, ordering, explain)
    return 0


def _lower(scf_mlir: Path, dfg_mlir: Path, top: str | None, max_join_fanin: int,
           flat_memrefs: bool, ordering: str, explain: bool) -> None:
    """The SCF to DFG stage; `explain` prints the orderings each array keeps."""
    t = time.perf_counter()
    lowered = lower(scf_mlir, dfg_mlir, top, max_join_fanin, flat_memrefs, ordering)
    _progress("dfg", dfg_mlir, time.perf_counter() - t)
    if explain:
        print(f"memory ordering ({ordering}):")
        for line in ordering_report(lowered.record):
            print(f"  {line}")
