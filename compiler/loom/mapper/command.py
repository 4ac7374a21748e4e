"""`loom map K --adg A [--seed N] [-o DIR]`: place and route a kernel onto an
ADG and write LOOM's map and config artifacts, `DIR/<dfg>.<adg>.*`.

A is a .fabric.mlir file, a preset name (written to DIR first) or `auto`:
the presets in `loom adg --list` order, the first the kernel maps onto
(named in the output); a preset that lacks a resource every mapping needs
(precheck.py) is skipped without building or placing, and when no preset
fits, the line names the largest preset's blocking constraint. The kernel
is compiled for A: its joins are legalized to A's largest join fan-in (seed
003), and its memory accesses get one index each (a fabric memory has one
address port per lane: lowering/flat_memrefs.py; a .dfg.mlir is taken as it
is). A kernel that does not fit gets one line naming the constraint (LOOM's
Cn label), the op or edge and its C line, and a fix; exit status 2; the
partial map is still written.
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
from loom.inputs import Inputs, prepare
from loom.ir import load_module
from loom.lowering.dfg_input import load_dfg
from loom.lowering.legalize import legalize_joins
from loom.mapper.artifacts import Written, write_artifacts
from loom.mapper.checks import check
from loom.mapper.diagnosis import diagnose, node_location
from loom.mapper.mapping import ROUNDS, Mapping, map_dfg
from loom.mapper.precheck import PeDefinitions, builder_capacity, shortfall
from loom.mapper.stats import MapStats, map_stats
from loom.mapper.sw_graph import SwGraph, sw_graph
from loom.progress import Progress, Tick

NO_JOIN_LIMIT = 64
"""The join limit when the ADG has no join unit (any join is then a C1)."""


@dataclass
class Target:
    name: str
    """The ADG stem in artifact names."""
    module: ModuleOp
    path: Path
    """The ADG file."""


def _unsupported(module: ModuleOp, name: str) -> None:
    for op in module.walk():
        if op.name == "fabric.temporal_pe":
            raise LoomError(f"{name}: temporal_pe is not supported by the mapper")
        bits = op.attributes.get("decomposable_bits")
        if op.name == "fabric.spatial_sw" and bits is not None and \
                getattr(getattr(bits, "value", None), "data", -1) > 0:
            raise LoomError(f"{name}: decomposable spatial_sw is not supported by the mapper")


@dataclass
class MappedKernel:
    """A kernel compiled for an ADG, placed and routed, its artifacts written."""
    target: Target
    mapping: Mapping
    func: Operation
    """The handshake.func that was mapped (joins legalized for the ADG)."""
    inputs: Inputs
    written: Written

    @property
    def stem(self) -> str:
        return f"{self.inputs.name}.{self.target.name}"


def _kernel_body(args: argparse.Namespace, fanin: int,
                 need_bundle: bool) -> tuple[Operation, Inputs]:
    """(handshake.func, its inputs) compiled for join fan-in `fanin`."""
    args.max_join_fanin = fanin if fanin >= 1 else NO_JOIN_LIMIT
    args.flat_memrefs = True
    inputs = prepare(args, need_bundle=need_bundle)
    func = find_func(load_dfg(inputs.dfg), args.top, str(inputs.dfg))
    legalize_joins(func.regions[0].block, args.max_join_fanin, str(inputs.dfg))
    return func, inputs


def _ticker(progress: Progress, adg: str) -> Tick:
    return lambda text: progress.update(f"map on {adg}: {text}")


def _auto(args: argparse.Namespace, out_dir: Path, progress: Progress,
          need_bundle: bool) -> tuple[Target, Mapping, Operation, Inputs]:
    compiled: dict[int, tuple[Operation, Inputs, SwGraph]] = {}
    parsed = PeDefinitions()
    last: LoomError | tuple[Mapping, ModuleOp, str, str] | None = None
    for p in presets():
        builder = preset(p.name)
        capacity = builder_capacity(builder, parsed)
        fanin = capacity.max_join_fanin
        if fanin not in compiled:
            func, inputs = _kernel_body(args, fanin, need_bundle)
            compiled[fanin] = (func, inputs, sw_graph(func.regions[0].block))
        func, inputs, sw = compiled[fanin]
        dfg = str(inputs.dfg)
        # a preset without the resources every mapping needs is skipped unbuilt
        short = shortfall(sw, capacity, p.name)
        if short is not None:
            last = LoomError(short.message, node_location(short.node, dfg))
            continue
        module = builder.build()
        m = map_dfg(func.regions[0].block, module, args.seed, args.rounds,
                    _ticker(progress, p.name))
        if m.ok:
            adg_path, _ = resolve_adg(p.name, out_dir)  # the chosen ADG's file beside the artifacts
            return Target(p.name, module, adg_path), m, func, inputs
        last = (m, module, p.name, dfg)
    # presets come smallest first: the last one tried is the largest
    blocking = last if isinstance(last, LoomError) else _diagnosis(*last) if last else \
        LoomError("no preset")
    raise LoomError(f"auto: the kernel maps onto no preset (see loom adg --list); on the "
                    f"largest: {blocking.message}", blocking.loc or Location(str(args.kernel)))


def _diagnosis(m: Mapping, module: ModuleOp, adg: str, dfg: str) -> LoomError:
    """Why a mapping failed (diagnosed only for the preset reported: a C1 fix
    hint builds presets)."""
    violations = check(m, module)
    return diagnose(m, violations, adg, dfg) if violations else LoomError(
        f"{adg}: mapping failed", Location(dfg))


def map_kernel(args: argparse.Namespace, need_bundle: bool = False) -> MappedKernel:
    """Compile args.kernel for args.adg, map it (placement seed args.seed) and
    write the artifacts; a kernel that does not fit raises the one-line
    diagnosis (LoomError). `need_bundle`: a sim bundle must be found (loom sim)."""
    rounds = ROUNDS if args.rounds is None else args.rounds
    if rounds < 1:
        raise LoomError(f"routing rounds (--rounds, --map-rounds) must be at least 1, not {rounds}")
    args = argparse.Namespace(**{**vars(args), "rounds": rounds})
    out_arg = Path(args.out_dir) if args.out_dir else None
    # placement and routing of a large kernel take minutes: a status line
    progress = Progress(enabled=getattr(args, "progress", None))
    try:
        if args.adg == "auto":
            out_dir = out_arg or Path("gen") / Path(args.kernel).stem
            target, m, func, inputs = _auto(args, out_dir, progress, need_bundle)
        else:
            adg_path, adg_name = resolve_adg(args.adg,
                                             out_arg or Path("gen") / Path(args.adg).name)
            module = load_module(adg_path)
            _unsupported(module, str(adg_path))
            func, inputs = _kernel_body(args, max_join_fanin(module), need_bundle)
            target = Target(adg_name, module, adg_path)
            m = map_dfg(func.regions[0].block, module, args.seed, args.rounds,
                        _ticker(progress, adg_name))
    finally:
        progress.clear()
    if args.adg == "auto":
        print(f"adg: auto chose {target.name}")
    written = write_artifacts(m, target.module, inputs.out_dir, f"{inputs.name}.{target.name}",
                              target.path)
    if written.violations:
        raise diagnose(m, written.violations, target.name, str(inputs.dfg))
    return MappedKernel(target, m, func, inputs, written)


def from_sim(args: argparse.Namespace) -> argparse.Namespace:
    """`loom sim --adg` arguments as map_kernel reads them (--map-seed and
    --map-rounds are the mapper's --seed and --rounds)."""
    return argparse.Namespace(**{**vars(args), "seed": args.map_seed, "rounds": args.map_rounds})


def map_main(args: argparse.Namespace) -> int:
    args.bundle = None
    mk = map_kernel(args)
    stats: MapStats = map_stats(mk.mapping)
    print(f"map: {mk.inputs.name} on {mk.target.name}: {stats.line()}")
    print(f"     {mk.written.paths['map.json'].parent}/{mk.stem}.{{map.json,map.txt,"
          "config.json,config.bin,config.h,viz.html}")
    return 0


__all__ = ["MappedKernel", "from_sim", "map_kernel", "map_main"]
