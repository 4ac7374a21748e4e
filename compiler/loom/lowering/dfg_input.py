"""A `.dfg.mlir` given as input, normalized to the form the rest of the tool reads.

LOOM writes its DFGs in a looser form than ours (issue 13, item 2): a
trailing `...` in the argument list and single result types without
parentheses (both handled by the parsers), `argNames`/`resNames` attributes,
and values with several uses instead of explicit forks. The golden model,
the RTL and the mapper need one use per value, so the input is normalized
once, right after parsing: names move to our `arg_names`/`res_names` and
every multi-use value gets an explicit `handshake.fork` (legalize.py's
rule). A DFG the tool wrote itself is already normal and comes out unchanged.
"""

from __future__ import annotations

from pathlib import Path

from xdsl.dialects.builtin import ModuleOp
from xdsl.ir import Operation

from loom.ir import load_module, print_module, verify_module
from loom.lowering.legalize import insert_forks

_NAME_ATTRS = {"argNames": "arg_names", "resNames": "res_names"}
"""LOOM's handshake.func name attributes and ours."""


def normalize_func(func: Operation) -> bool:
    """Normalize one handshake.func in place; True when anything changed."""
    changed = False
    for theirs, ours in _NAME_ATTRS.items():
        if theirs in func.attributes:
            names = func.attributes.pop(theirs)
            func.attributes.setdefault(ours, names)
            changed = True
    return insert_forks(func.regions[0].block) > 0 or changed


def normalize_module(module: ModuleOp, filename: str) -> bool:
    """Normalize every handshake.func; the result is verified again."""
    changed = False
    for op in module.ops:
        if op.name == "handshake.func":
            changed = normalize_func(op) or changed
    if changed:
        verify_module(module, filename)
    return changed


def load_dfg(path: str | Path) -> ModuleOp:
    """Read, verify and normalize a DFG file."""
    module = load_module(path)
    normalize_module(module, str(path))
    return module


def prepare_dfg(path: Path, out_dir: Path, name: str) -> Path:
    """The DFG file commands should read: `path` itself when it is already
    normal, else its normalized form written as `out_dir/<name>.dfg.mlir`."""
    module = load_module(path)
    if not normalize_module(module, str(path)):
        return path
    out = out_dir / f"{name}.dfg.mlir"
    out_dir.mkdir(parents=True, exist_ok=True)
    out.write_text(print_module(module))
    return out


def is_dfg_file(path: Path) -> bool:
    """`X.dfg.mlir`, or LOOM's test-case name `dfg.mlir`."""
    return path.name.endswith(".dfg.mlir") or path.name == "dfg.mlir"


__all__ = ["is_dfg_file", "load_dfg", "normalize_func", "normalize_module", "prepare_dfg"]
