"""SCF to DFG for one function: control, memory, legalization, checks.

    flat memrefs, for an ADG      (flat_memrefs.py)
    guard zero-trip loops         (zero_trip_guard.py)
    lower_region(body)            (region.py, for_loop.py, while_loop.py, if_else.py)
    per root memref: interface    (memory_interface.py)
                     chains       (ordering.py, dependence.py: --ordering)
                     ctrl-done    (memory_control.py, serial-recursive per chain)
                  or a load-store queue and its allocation chain, for an array
                     analysis cannot order (load_store_queue.py: --ordering lsq)
    return control = join(group done tokens), or the entry token without memory
    common ops, dead ops          (common_ops.py, dead_ops.py)
    forks, join trees             (legalize.py)
    invariant checker             (invariant_check.py)

The handshake.func takes the function's arguments plus a trailing `none`
start token and returns its results plus a trailing `none` done token.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

from xdsl.dialects import func as func_d
from xdsl.dialects.builtin import (
    IntegerAttr,
    ModuleOp,
    NoneType,
    UnrealizedConversionCastOp,
    i64,
)
from xdsl.ir import BlockArgument

from loom.diagnostics import Location, LoomError
from loom.dialects import handshake as hs
from loom.lowering.builder import DfgBuilder
from loom.lowering.common_ops import merge_common_ops
from loom.lowering.dead_ops import remove_dead_ops
from loom.lowering.dependence import AccessSpaces
from loom.lowering.flat_memrefs import flatten_memrefs
from loom.lowering.invariant_check import check_invariants
from loom.lowering.legalize import check_join_limit, insert_forks, legalize_joins
from loom.lowering.load_store_queue import build_queue, needs_queue
from loom.lowering.memory_control import build_ctrl_done
from loom.lowering.memory_interface import connect_group, group_by_root
from loom.lowering.ordering import plan_chains
from loom.lowering.records import LoweringRecord
from loom.lowering.region import Lowering
from loom.lowering.state import RegionState
from loom.lowering.zero_trip_guard import guard_zero_trip_loops
from loom.ordering_modes import DIRECT_ORDERING, ORDERINGS

JOIN_FANIN_ATTR = "loom.adg_max_join_fanin"


@dataclass
class LoweredFunction:
    func: hs.FuncOp
    record: LoweringRecord


def find_top(module: ModuleOp, top: str | None, filename: str) -> func_d.FuncOp:
    funcs = [op for op in module.ops if isinstance(op, func_d.FuncOp) and op.body.blocks]
    if top is not None:
        funcs = [f for f in funcs if f.sym_name.data == top]
        if not funcs:
            raise LoomError(f"no function named '{top}' in the SCF module", Location(filename))
    if len(funcs) != 1:
        raise LoomError(f"the SCF module has {len(funcs)} functions; name the top with --top",
                        Location(filename))
    return funcs[0]


def lower_function(scf_func: func_d.FuncOp, max_join_fanin: int, filename: str,
                   flat_memrefs: bool = False, ordering: str = DIRECT_ORDERING) -> LoweredFunction:
    if ordering not in ORDERINGS:
        raise LoomError(f"unknown ordering '{ordering}' (one of {', '.join(ORDERINGS)})",
                        Location(filename))
    if flat_memrefs:
        flatten_memrefs(scf_func)
    guard_zero_trip_loops(scf_func)
    ftype = scf_func.function_type
    inputs = [*ftype.inputs.data, NoneType()]
    outputs = [*ftype.outputs.data, NoneType()]
    dfg = hs.FuncOp(scf_func.sym_name.data, inputs, outputs)
    dfg.location = scf_func.location
    body = dfg.body.block
    scf_body = scf_func.body.block
    start = body.args[-1]
    start.name_hint = "start"
    b = DfgBuilder(body)

    state = RegionState(b, "func", None)
    state.set_control(start)
    for scf_arg, arg in zip(scf_body.args, body.args):
        arg.name_hint = scf_arg.name_hint
        state.map(scf_arg, arg)

    record = LoweringRecord()
    results = Lowering(record).lower_region(scf_body, state)

    dones = []
    spaces = AccessSpaces()
    for mem_id, (root, group) in enumerate(group_by_root(record.accesses).items()):
        memref_arg = body.args[root.index] if isinstance(root, BlockArgument) else None
        chains = plan_chains(spaces, group, "seed" if ordering == "seed" else "analysis")
        if ordering == "lsq" and needs_queue(root, chains):
            assert memref_arg is not None
            dones.append(build_queue(b, record, root, group, memref_arg, mem_id, scf_body,
                                     state.control))
            continue
        connect_group(b, root, group, memref_arg, mem_id)
        record.chains[root] = chains
        dones.append(build_ctrl_done(b, record, record.chains[root], scf_body, state.control))
    b.loc = scf_func.location
    done = dones[0] if len(dones) == 1 else b.join(dones) if dones else state.control
    ret = hs.ReturnOp([*results, done])
    ret.location = _return_location(scf_func)
    body.add_op(ret)

    leftover = [op for op in body.ops if isinstance(op, UnrealizedConversionCastOp)]
    if leftover:
        raise LoomError("internal: the lowering left an unconnected value", Location(filename))
    merge_common_ops(body, record.named_values())
    record.forget(remove_dead_ops(body))
    insert_forks(body)
    legalize_joins(body, max_join_fanin, filename)
    check_invariants(dfg, record, filename)
    return LoweredFunction(dfg, record)


def _return_location(scf_func: func_d.FuncOp):
    last = scf_func.body.block.last_op
    return last.location if last is not None else scf_func.location


def lower_module(scf_module: ModuleOp, top: str | None, max_join_fanin: int,
                 filename: str, flat_memrefs: bool = False,
                 ordering: str = DIRECT_ORDERING) -> tuple[ModuleOp, LoweredFunction]:
    check_join_limit(max_join_fanin, filename)
    lowered = lower_function(find_top(scf_module, top, filename), max_join_fanin, filename,
                             flat_memrefs, ordering)
    module = ModuleOp([lowered.func])
    module.attributes[JOIN_FANIN_ATTR] = IntegerAttr(max_join_fanin, i64)
    return module, lowered


def lower_file(scf_path: Path, dfg_path: Path, top: str | None = None,
               max_join_fanin: int = 64, flat_memrefs: bool = False,
               ordering: str = DIRECT_ORDERING) -> LoweredFunction:
    """`<name>.scf.mlir` -> `<name>.dfg.mlir` (the compile stage); `flat_memrefs`
    when compiling for an ADG (one address per access); `ordering` "seed" keeps
    every ordering of seed 000 (ordering.py)."""
    from loom.ir import load_module, print_module

    scf_module = load_module(scf_path)
    module, lowered = lower_module(scf_module, top, max_join_fanin, str(scf_path),
                                   flat_memrefs, ordering)
    dfg_path.parent.mkdir(parents=True, exist_ok=True)
    dfg_path.write_text(print_module(module))
    return lowered
