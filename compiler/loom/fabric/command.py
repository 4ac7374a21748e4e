"""`loom adg`: write a preset ADG, list the presets, or check an ADG file.

    loom adg PRESET -o DIR      DIR/PRESET.fabric.mlir and DIR/PRESET.fabric.viz.json
    loom adg --list             one line per preset
    loom adg check FILE         parse and verify; one summary line, exit 2 if invalid
"""

from __future__ import annotations

import argparse
from pathlib import Path

from loom.diagnostics import LoomError
from loom.fabric.adg_file import read_adg
from loom.fabric.presets import preset, presets
from loom.fabric.summary import summarize


def adg_main(args: argparse.Namespace) -> int:
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
