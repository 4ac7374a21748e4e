"""`loom config decode X.config.bin --adg A`: every slice's fields by name.

The words are read as LOOM writes them (32-bit little-endian, no header)
and split by the ADG's layout (fabric/config_layout.py, the same module
that encodes them). A spatial PE's unit payload is named after the unit
its opcode selects.
"""

from __future__ import annotations

import argparse
from pathlib import Path

from loom.diagnostics import Location, LoomError
from loom.fabric import config_layout as cl
from loom.fabric.adg_file import load_adg
from loom.mapper.config_files import read_config_bin


def decode_lines(layout: cl.FabricLayout, words: list[int]) -> list[str]:
    lines = []
    for s, values in zip(layout.slices, layout.decode(words).values()):
        last = s.word_offset + s.word_count - 1
        lines.append(f"{s.name} ({s.kind}) words {s.word_offset}..{last}")
        for name, value in values.items():
            note = ""
            if name == "opcode" and s.fu_layouts and value < len(s.fu_layouts):
                note = f"  ({s.fu_layouts[value].name})"
            lines.append(f"  {name} = {value}{note}")
    return lines


def config_main(args: argparse.Namespace) -> int:
    if args.action != "decode":
        raise LoomError(f"loom config: unknown action '{args.action}' (expected decode)")
    path = Path(args.file)
    if not path.exists():
        raise LoomError(f"no such config file '{args.file}'", Location(args.file))
    layout = cl.fabric_layout(load_adg(args.adg, Path(args.out_dir or "gen/adg")).view)
    try:
        words = read_config_bin(path.read_bytes())
        lines = decode_lines(layout, words)
    except ValueError as err:
        raise LoomError(f"{err} (the layout of {args.adg})", Location(args.file)) from err
    print("\n".join(lines))
    return 0


__all__ = ["config_main", "decode_lines"]
