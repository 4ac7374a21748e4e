"""`loom config decode X.config.bin --adg A`: every slice's fields by name.

The words are read as LOOM writes them (32-bit little-endian, no header)
and split by the ADG's layout (fabric/config_layout.py, the same module
that encodes them). An opcode is named after the unit it selects; a
temporal PE's instruction slot gets a line of its own first: its unit and
tag, or unused.
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
            slot, _, part = name.partition(".")
            if s.kind == "temporal_pe" and part == "valid" and slot.startswith("insn"):
                lines.append(f"  {_slot_line(s, slot, values)}")
            note = ""
            if name.rpartition(".")[2] == "opcode" and value < len(s.units):
                note = f"  ({s.units[value]})"
            lines.append(f"  {name} = {value}{note}")
    return lines


def _slot_line(s: cl.Slice, slot: str, values: dict[str, int]) -> str:
    """A temporal PE's instruction slot at a glance: its unit and tag, or unused."""
    if not values.get(f"{slot}.valid"):
        return f"slot {slot[4:]}: unused"
    opcode = values.get(f"{slot}.opcode", 0)
    unit = s.units[opcode] if opcode < len(s.units) else f"opcode {opcode} (no unit)"
    return f"slot {slot[4:]}: {unit} on tag {values.get(f'{slot}.tag', 0)}"


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
