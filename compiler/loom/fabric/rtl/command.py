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
from loom.fabric.adg_file import Adg, load_adg
from loom.fabric.rtl.top import FabricRtl, fabric_rtl


@dataclass(frozen=True)
class FabricRtlFiles:
    rtl: FabricRtl
    top_file: Path
    file_list: Path
    files: tuple[Path, ...]


def write_fabric_rtl(adg: Adg, out_dir: Path) -> FabricRtlFiles:
    """The fabric RTL of `adg` in `out_dir/rtl`, and its file list."""
    name = adg.name
    try:
        rtl = fabric_rtl(adg.view, name)
    except LoomError as err:
        raise LoomError(err.message, err.loc or Location(str(adg.path))) from err
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
    adg = load_adg(args.adg, out_dir or Path("gen") / Path(args.adg).name)
    arts = write_fabric_rtl(adg, out_dir or Path("gen") / adg.name)
    print(f"rtl: {arts.top_file} (module {arts.rtl.top}, {len(arts.rtl.view.nodes)} "
          f"components, {len(arts.files)} files, {arts.rtl.layout.word_count} config words)")
    print(f"     file list {arts.file_list}")
    return 0
