"""`loom map K --adg A [--seed N] [-o DIR]`: place and route a kernel onto an
ADG and write LOOM's map and config artifacts, `DIR/<dfg>.<adg>.*`.

A is a .fabric.mlir file, a preset name (written to DIR first) or `auto`:
the presets in `loom adg --list` order, the first the kernel maps onto
(named in the output). The kernel is compiled for A: its joins are
legalized to A's largest join fan-in (seed 003), and its memory accesses
get one index each (a fabric memory has one address port per lane:
lowering/flat_memrefs.py; a .dfg.mlir is taken as it is). A kernel that does not
fit gets one line naming the constraint (LOOM's Cn label), the op or edge
and its C line, and a fix; exit status 2; the partial map is still written.
"""

from __future__ import annotations

import argparse
from dataclasses import dataclass
from pathlib import Path

from xdsl.dialects.builtin import ModuleOp
from xdsl.ir import Operation

from loom.diagnostics import Location, LoomError
from loom.fabric.presets import preset, presets
from loom.fabric.rtl.command import resolve_adg
from loom.fabric.summary import max_join_fanin
from loom.golden.run import find_func
from loom.inputs import prepare
from loom.ir import load_module
from loom.lowering.dfg_input import load_dfg
from loom.lowering.legalize import legalize_joins
from loom.mapper.artifacts import write_artifacts
from loom.mapper.diagnosis import diagnose
from loom.mapper.mapping import Mapping, map_dfg
from loom.mapper.stats import MapStats, map_stats

NO_JOIN_LIMIT = 64
"""The join limit when the ADG has no join unit (any join is then a C1)."""


@dataclass
class Target:
    name: str
    """The ADG stem in artifact names."""
    module: ModuleOp


def _unsupported(module: ModuleOp, name: str) -> None:
    for op in module.walk():
        if op.name == "fabric.temporal_pe":
            raise LoomError(f"{name}: temporal_pe is not supported by the mapper")
        bits = op.attributes.get("decomposable_bits")
        if op.name == "fabric.spatial_sw" and bits is not None and \
                getattr(getattr(bits, "value", None), "data", -1) > 0:
            raise LoomError(f"{name}: decomposable spatial_sw is not supported by the mapper")


def _kernel_body(args: argparse.Namespace, fanin: int) -> tuple[Operation, str, str]:
    """(handshake.func, DFG file, kernel name) compiled for join fan-in `fanin`."""
    args.max_join_fanin = fanin if fanin >= 1 else NO_JOIN_LIMIT
    args.flat_memrefs = True
    args.bundle = None
    inputs = prepare(args, need_bundle=False)
    func = find_func(load_dfg(inputs.dfg), args.top, str(inputs.dfg))
    legalize_joins(func.regions[0].block, args.max_join_fanin, str(inputs.dfg))
    return func, str(inputs.dfg), inputs.name


def _fits(func: Operation, module: ModuleOp, seed: int) -> Mapping | None:
    m = map_dfg(func.regions[0].block, module, seed)
    return m if m.ok else None


def _auto(args: argparse.Namespace, out_dir: Path) -> tuple[Target, Mapping, Operation, str, str]:
    compiled: dict[int, tuple[Operation, str, str]] = {}
    for p in presets():
        module = preset(p.name).build()
        fanin = max_join_fanin(module)
        if fanin not in compiled:
            compiled[fanin] = _kernel_body(args, fanin)
        func, dfg, name = compiled[fanin]
        m = _fits(func, module, args.seed)
        if m is not None:
            resolve_adg(p.name, out_dir)  # the chosen ADG's file beside the artifacts
            return Target(p.name, module), m, func, dfg, name
    raise LoomError("auto: the kernel maps onto no preset (see loom adg --list); "
                    "map it onto the largest one for the diagnosis",
                    Location(str(args.kernel)))


def map_main(args: argparse.Namespace) -> int:
    out_arg = Path(args.out_dir) if args.out_dir else None
    if args.adg == "auto":
        out_dir = out_arg or Path("gen") / Path(args.kernel).stem
        target, m, func, dfg, name = _auto(args, out_dir)
        print(f"adg: auto chose {target.name}")
    else:
        adg_path, adg_name = resolve_adg(args.adg, out_arg or Path("gen") / Path(args.adg).name)
        module = load_module(adg_path)
        _unsupported(module, str(adg_path))
        func, dfg, name = _kernel_body(args, max_join_fanin(module))
        out_dir = out_arg or Path("gen") / name
        target = Target(adg_name, module)
        m = map_dfg(func.regions[0].block, module, args.seed)
    written = write_artifacts(m, target.module, out_dir, f"{name}.{target.name}")
    if written.violations:
        raise diagnose(m, written.violations, target.name, dfg)
    stats: MapStats = map_stats(m)
    print(f"map: {name} on {target.name}: {stats.line()}")
    print(f"     {written.paths['map.json'].parent}/{name}.{target.name}.{{map.json,map.txt,"
          "config.json,config.bin,config.h}")
    return 0


__all__ = ["map_main"]
