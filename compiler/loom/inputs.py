"""What `loom run`, `loom rtl` and `loom sim` work on: the kernel's DFG and bundle.

K is a .c file (compiled and lowered into the output directory), a .scf.mlir
file (lowered) or a .dfg.mlir file (used as it is, or normalized into the
output directory when written in LOOM's form); the bundle is the native
run's or, for MLIR inputs, `--bundle` or `<name>.bundle.json` beside the file.
"""

from __future__ import annotations

import argparse
from dataclasses import dataclass
from pathlib import Path

from loom.diagnostics import Location, LoomError
from loom.frontend.driver import compile_kernel, kernel_name, resolve_kernel
from loom.frontend.signature import Signature
from loom.lowering import lower
from loom.lowering.dfg_input import is_dfg_file, prepare_dfg
from loom.ordering_modes import DIRECT_ORDERING


@dataclass(frozen=True)
class KernelSource:
    """A kernel and how to compile it: the library's form of the CLI's kernel flags."""

    kernel: str
    """A .c, .scf.mlir or .dfg.mlir file, or a name in kernels/."""
    top: str | None = None
    include_dirs: tuple[str, ...] = ()
    defines: tuple[str, ...] = ()
    out_dir: Path | None = None
    """Default gen/<name>."""
    bundle: Path | None = None
    """A user's bundle (default: the native run's, or <name>.bundle.json beside MLIR)."""
    max_join_fanin: int = 64
    flat_memrefs: bool = False
    """One index per access (a fabric memory has one address port per lane)."""
    ordering: str | None = None
    """Memory ordering (loom.ordering_modes); None: the target's default,
    "analysis" here, "seed" for a fabric (mapper/kernel_compile.py)."""
    constant_tables: bool = True
    """A C array only read after its initializer is a constant table (a
    memref.global, a read-only memory); False: every initialized local array
    is written by its initializer's stores (the fabric's memories start empty)."""

    @classmethod
    def from_args(cls, args: argparse.Namespace) -> KernelSource:
        """The kernel flags a command parsed (absent flags keep their defaults)."""
        out = getattr(args, "out_dir", None)
        bundle = getattr(args, "bundle", None)
        return cls(args.kernel, getattr(args, "top", None),
                   tuple(getattr(args, "include_dirs", None) or ()),
                   tuple(getattr(args, "defines", None) or ()),
                   Path(out) if out else None, Path(bundle) if bundle else None,
                   64 if getattr(args, "max_join_fanin", None) is None else args.max_join_fanin,
                   bool(getattr(args, "flat_memrefs", False)),
                   ordering=getattr(args, "ordering", None))


@dataclass
class Inputs:
    """What a command works on: the DFG (compiled or lowered as needed) and its bundle."""
    name: str
    out_dir: Path
    dfg: Path
    bundle: Path | None
    bundle_is_native: bool = False
    """The bundle is this compile's own native run (not a user's --bundle)."""
    signature: Signature | None = None
    """The C signature (parameter names and types) when K is a .c file."""

    @property
    def expectations(self) -> str:
        """Where the expected results and memories come from, for reports."""
        return "the native run" if self.bundle_is_native else f"the bundle {self.bundle}"


def prepare(source: KernelSource, need_bundle: bool = True) -> Inputs:
    """Resolve K; compile a .c file, lower a .scf.mlir file; find the bundle."""
    kernel = resolve_kernel(source.kernel)
    name = kernel_name(kernel)
    out_dir = source.out_dir or Path("gen") / name
    ordering = source.ordering or DIRECT_ORDERING
    given = source.bundle
    if kernel.name.endswith(".c"):
        arts = compile_kernel(kernel, source.top, list(source.include_dirs),
                              list(source.defines), out_dir,
                              constant_tables=source.constant_tables)
        lower(arts.scf_mlir, arts.dfg_mlir, arts.top, source.max_join_fanin,
              source.flat_memrefs, ordering)
        return Inputs(name, out_dir, arts.dfg_mlir, given or arts.bundle_path,
                      bundle_is_native=given is None, signature=arts.signature)
    bundle: Path | None = given or kernel.with_name(f"{name}.bundle.json")
    if not bundle.exists():
        if need_bundle:
            raise LoomError("no bundle: give --bundle B.json (or put "
                            f"{bundle.name} beside the input)", Location(str(kernel)))
        bundle = None
    if kernel.name.endswith(".scf.mlir"):
        dfg = out_dir / f"{name}.dfg.mlir"
        lower(kernel, dfg, source.top, source.max_join_fanin, source.flat_memrefs, ordering)
        return Inputs(name, out_dir, dfg, bundle)
    if is_dfg_file(kernel):
        # LOOM's looser DFG form is normalized into out_dir (dfg_input.py).
        return Inputs(name, out_dir, prepare_dfg(kernel, out_dir, name), bundle)
    raise LoomError("expected a .c, .scf.mlir or .dfg.mlir file", Location(str(kernel)))
