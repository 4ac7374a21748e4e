"""Where an ADG comes from: a `.fabric.mlir` file or a preset name, parsed
once into the view every later stage reads.

`load_adg` is the one place a run reads its ADG: `loom rtl --adg`, `loom
map --adg` and `loom sim --adg` each call it once and hand the `Adg` on.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

from xdsl.dialects.builtin import ModuleOp

from loom.diagnostics import Location, LoomError
from loom.fabric.adg_view import AdgView, adg_view
from loom.fabric.presets import parse_preset, preset
from loom.ir import load_module


@dataclass(frozen=True)
class Adg:
    """A parsed, verified ADG."""

    name: str
    """The ADG stem in artifact names (a preset's name, a file's stem)."""
    path: Path
    """The ADG file (a preset's is written first)."""
    view: AdgView


def adg_stem(path: Path) -> str:
    """LOOM's ADG stem: the file stem minus a trailing `.fabric`."""
    return path.name.removesuffix(".mlir").removesuffix(".fabric")


def read_adg(path: Path, name: str) -> Adg:
    """Parse and verify the ADG file `path` once; errors name the file."""
    return _adg(name, path, load_module(path))


def _adg(name: str, path: Path, module: ModuleOp) -> Adg:
    try:
        return Adg(name, path, adg_view(module))
    except LoomError as err:
        raise LoomError(err.message, err.loc or Location(str(path))) from err


def load_adg(target: str, out_dir: Path) -> Adg:
    """The ADG of a file path or a preset name (written to
    `out_dir/<preset>.fabric.mlir`; the module written is the one read)."""
    path = Path(target)
    if path.suffix == ".mlir" or path.exists():
        if not path.exists():
            raise LoomError(f"no such ADG file '{target}'", Location(target))
        return read_adg(path, adg_stem(path))
    # one-line error for an unknown preset; a preset's files and builds go
    # by its canonical name (`-f4` is `-f`: one build for one fabric)
    name = parse_preset(target).name
    module, mlir, _ = preset(name).write_module(out_dir, name)
    return _adg(name, mlir, module)


__all__ = ["Adg", "adg_stem", "load_adg", "read_adg"]
