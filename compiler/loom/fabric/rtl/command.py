"""`loom rtl --adg A [-o DIR]`: the fabric RTL of an ADG, no kernel needed.

A is a .fabric.mlir file or a preset name (written to DIR/<preset>.fabric.mlir
first). Writes DIR/rtl/<adg>_fabric.sv (the top; <adg> as an identifier, chess_2x2), one file per component
module and the config store, and DIR/rtl/<adg>.f (submodules first, top last).
"""

from __future__ import annotations

import argparse
from dataclasses import dataclass
from pathlib import Path

from loom.diagnostics import LoomError, Location
from loom.fabric.presets import parse_preset, preset
from loom.fabric.rtl.top import FabricRtl, fabric_rtl
from loom.ir import load_module


@dataclass(frozen=True)
class FabricRtlFiles:
    rtl: FabricRtl
    top_file: Path
    file_list: Path
    files: tuple[Path, ...]


def adg_stem(path: Path) -> str:
    """LOOM's ADG stem: the file stem minus a trailing `.fabric`."""
    return path.name.removesuffix(".mlir").removesuffix(".fabric")


def resolve_adg(target: str, out_dir: Path) -> tuple[Path, str]:
    """(ADG file, ADG name) of a file path or a preset name."""
    path = Path(target)
    if path.suffix == ".mlir" or path.exists():
        if not path.exists():
            raise LoomError(f"no such ADG file '{target}'", Location(target))
        return path, adg_stem(path)
    parse_preset(target)   # one-line error for an unknown preset
    mlir, _ = preset(target).write(out_dir, target)
    return mlir, target


def write_fabric_rtl(adg: Path, name: str, out_dir: Path) -> FabricRtlFiles:
    module = load_module(adg)
    try:
        rtl = fabric_rtl(module, name)
    except LoomError as err:
        raise LoomError(err.message, err.loc or Location(str(adg))) from err
    rtl_dir = out_dir / "rtl"
    rtl_dir.mkdir(parents=True, exist_ok=True)
    files = []
    for m in rtl.modules:
        path = rtl_dir / f"{m.name}.sv"   # the top is <adg>_fabric (an identifier)
        if not path.exists() or path.read_text() != m.text:
            path.write_text(m.text)
        files.append(path)
    file_list = rtl_dir / f"{name}.f"
    file_list.write_text("".join(f"{p.name}\n" for p in files))
    return FabricRtlFiles(rtl, files[-1], file_list, tuple(files))


def fabric_rtl_main(args: argparse.Namespace) -> int:
    if args.kernel is not None:
        raise LoomError("loom rtl --adg writes the fabric alone; give no kernel "
                        "(a mapped kernel runs with loom sim K --adg A)")
    out_dir = Path(args.out_dir) if args.out_dir else None
    adg, name = resolve_adg(args.adg, out_dir or Path("gen") / Path(args.adg).name)
    out = out_dir or Path("gen") / name
    arts = write_fabric_rtl(adg, name, out)
    print(f"rtl: {arts.top_file} (module {arts.rtl.top}, {len(arts.rtl.graph.nodes)} "
          f"components, {len(arts.files)} files, {arts.rtl.layout.word_count} config words)")
    print(f"     file list {arts.file_list}")
    return 0
