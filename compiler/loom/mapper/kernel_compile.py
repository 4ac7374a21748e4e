"""A kernel compiled for an ADG: its joins legalized to the ADG's largest
join fan-in (seed 003), its memory accesses given one index each (a
fabric memory has one address port per lane: lowering/flat_memrefs.py; a
.dfg.mlir is taken as it is), its initialized arrays written by their
initializers' stores (the fabric's memories start empty: no constant tables),
and, unless told otherwise (`--ordering`), its memory accesses in seed 000's
full order: the fabric regression's maps and runs are of that lowering; the
overlapping iterations that dependence analysis allows wait for that
regression to run on them (design.md, "Memory ordering: dependence
analysis"). A wire cast of several uses is built once per use
(wire_casts.py), unless the DFG was given."""

from __future__ import annotations

from dataclasses import replace
from pathlib import Path

from xdsl.ir import Operation

from loom.diagnostics import Location, LoomError
from loom.dialects.handshake_memory import memory_init
from loom.golden.run import find_func
from loom.ir import op_location
from loom.inputs import Inputs, KernelSource, prepare
from loom.lowering.dfg_input import is_dfg_file, load_dfg
from loom.lowering.legalize import legalize_joins
from loom.mapper.wire_casts import split_wire_casts
from loom.ordering_modes import FABRIC_ORDERING

NO_JOIN_LIMIT = 64
"""The join limit when the ADG has no join unit (any join is then a C1)."""


def compile_for(source: KernelSource, fanin: int,
                need_bundle: bool) -> tuple[Operation, Inputs]:
    """(handshake.func, its inputs) of `source` compiled for an ADG whose
    largest join has `fanin` inputs (0: none), memrefs flat."""
    limit = fanin if fanin >= 1 else NO_JOIN_LIMIT
    inputs = prepare(replace(source, max_join_fanin=limit, flat_memrefs=True,
                             constant_tables=False,
                             ordering=source.ordering or FABRIC_ORDERING),
                     need_bundle=need_bundle)
    func = find_func(load_dfg(inputs.dfg), source.top, str(inputs.dfg))
    for op in func.regions[0].block.ops:   # a .scf.mlir or .dfg.mlir given with a table
        if op.name == "handshake.memory" and memory_init(op) is not None:
            raise LoomError("a constant table (handshake.memory with init) on the fabric is "
                            "not supported: the fabric's memories start empty",
                            op_location(op) or Location(str(inputs.dfg)))
        if op.name == "handshake.lsq":
            raise LoomError("a load-store queue (handshake.lsq) on the fabric is not supported: "
                            "the fabric has no queue component; use --ordering analysis or seed",
                            op_location(op) or Location(str(inputs.dfg)))
    legalize_joins(func.regions[0].block, limit, str(inputs.dfg))
    if not is_dfg_file(Path(source.kernel)):   # a given DFG keeps its ops (LOOM's cases' ids)
        split_wire_casts(func.regions[0].block)
    return func, inputs


__all__ = ["NO_JOIN_LIMIT", "compile_for"]
