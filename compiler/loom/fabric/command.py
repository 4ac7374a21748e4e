"""`loom adg`: write a preset ADG, list the presets, check an ADG file, or
find the smallest preset that maps a set of kernels.

    loom adg PRESET -o DIR      DIR/PRESET.fabric.mlir and DIR/PRESET.fabric.viz.json
    loom adg --list             one line per preset
    loom adg check FILE         parse and verify; one summary line, exit 2 if invalid
    loom adg --for K1,K2,...    the smallest preset that maps every kernel (or
    loom adg --for-file F       those F names, one a line), each kernel's share of it
"""

from __future__ import annotations

import argparse
from pathlib import Path

from loom.diagnostics import Location, LoomError
from loom.fabric.adg_file import read_adg
from loom.fabric.presets import preset, presets
from loom.fabric.summary import summarize
from loom.inputs import KernelSource
from loom.progress import Progress


def adg_main(args: argparse.Namespace) -> int:
    if args.kernels or args.kernel_file:
        if args.target is not None or args.list:
            raise LoomError("loom adg: --for and --for-file take no preset, `check` or --list")
        return _fit_main(args)
    if args.list:
        listed = presets()
        width = max(len(p.name) for p in listed)
        for p in listed:
            print(f"{p.name:<{width}}  {p.description}")
        return 0
    if args.target is None:
        raise LoomError("loom adg: give a preset name, `check FILE` or --list")
    if args.target == "check":
        if args.file is None:
            raise LoomError("loom adg check: give the ADG file to check")
        summary = summarize(read_adg(Path(args.file), args.file).view)
        print(f"{args.file}: ok: {summary.line()}")
        return 0
    if args.file is not None:
        raise LoomError(f"loom adg: unexpected argument '{args.file}' after the preset name")
    out_dir = Path(args.out_dir or "gen/adg")
    mlir, viz = preset(args.target).write(out_dir, args.target)
    print(f"adg: {mlir}")
    print(f"viz: {viz}")
    return 0


def _kernel_names(args: argparse.Namespace) -> list[str]:
    """--for's comma list, or --for-file's names (one a line, `#` comments)."""
    if args.kernel_file is not None:
        path = Path(args.kernel_file)
        try:
            text = path.read_text()
        except OSError as err:
            raise LoomError(f"cannot read the kernel list: {err.strerror}",
                            Location(str(path))) from err
        names = [line.split("#")[0].strip() for line in text.splitlines()]
    else:
        names = args.kernels.split(",")
    names = [n.strip() for n in names if n.strip()]
    if not names:
        raise LoomError("loom adg --for: no kernel named")
    return names


def _fit_main(args: argparse.Namespace) -> int:
    from loom.mapper.preset_fit import fit_presets

    names = _kernel_names(args)
    out = Path(args.out_dir or "gen/adg-for")
    sources = [KernelSource(n, out_dir=out / Path(n).stem) for n in names]
    progress = Progress(enabled=args.progress)
    try:
        fit = fit_presets(sources, progress=progress)
    finally:
        progress.clear()
    for p in fit.passed_over:
        print(f"passed over {p.preset}: {p.kernel}: {p.reason.message}")
    if fit.name is None or fit.view is None:
        last = fit.passed_over[-1]
        raise LoomError(f"loom adg --for: no preset maps every kernel; on the largest, "
                        f"{last.preset}, {last.kernel}: {last.reason.message}", last.reason.loc)
    print(f"adg: {fit.name} maps all {len(names)} kernel(s)")
    width = max(len(p.compiled.inputs.name) for p in fit.placed)
    for p in fit.placed:
        print(f"  {p.compiled.inputs.name:<{width}}  {p.line(fit.view)}")
    return 0
