"""Memory lowering layer 2 (seed 000): one memory interface per root memref.

Accesses are grouped by root memref; each group gets one handshake.extmemory
(a function argument) or handshake.memory (a local allocation, or a constant
table: its `init` attribute holds the table, which nothing may store to).
Store operands are packed first, then loads; load data goes back to its
load and every access receives its done token.
"""

from __future__ import annotations

from xdsl.dialects.builtin import MemRefType, NoneType
from xdsl.ir import BlockArgument, Operation, SSAValue
from xdsl.traits import SymbolTable

from loom.diagnostics import LoomError
from loom.dialects import handshake as hs
from loom.dialects.handshake_memory import INIT_ATTR
from loom.dialects.memref_extras import GlobalOp
from loom.lowering.builder import DfgBuilder
from loom.lowering.records import Access
from loom.lowering.source import where


def constant_table(root: SSAValue) -> GlobalOp | None:
    """The constant memref.global a root reads (`memref.get_global`), else None."""
    owner = root.owner
    if not isinstance(owner, Operation) or owner.name != "memref.get_global":
        return None
    found = SymbolTable.lookup_symbol(owner, owner.properties["name"])  # type: ignore[arg-type]
    return found if isinstance(found, GlobalOp) and found.constant is not None else None


def group_by_root(accesses: list[Access]) -> dict[SSAValue, list[Access]]:
    groups: dict[SSAValue, list[Access]] = {}
    for acc in sorted(accesses, key=lambda a: a.order):
        groups.setdefault(acc.root, []).append(acc)
    return groups


def connect_group(b: DfgBuilder, root: SSAValue, group: list[Access],
                  memref_arg: SSAValue | None, mem_id: int) -> None:
    """Create the interface op for one group and wire data and done tokens."""
    stores = [a for a in group if a.kind == "store"]
    loads = [a for a in group if a.kind == "load"]
    inputs: list[SSAValue] = []
    for st in stores:  # (data, addr...) per store: the store's results in that order
        inputs.extend(st.dfg_op.results)
    for ld in loads:   # (addr...) per load
        inputs.extend(ld.dfg_op.results[1:])
    mem_type = root.type
    assert isinstance(mem_type, MemRefType)
    result_types = [mem_type.element_type] * len(loads) + [NoneType()] * (len(stores) + len(loads))
    b.loc = group[0].scf_op.location
    if memref_arg is not None:
        assert isinstance(memref_arg, BlockArgument)
        op = b.insert(hs.ExternalMemoryOp(memref_arg, inputs, result_types,
                                          len(loads), len(stores), mem_id))
    else:
        op = b.insert(hs.MemoryOp(inputs, result_types, mem_type, len(loads), len(stores), mem_id))
        table = constant_table(root)
        if table is not None:
            if stores:
                raise LoomError(f"a store to the constant table '{table.sym_name.data}'",
                                where(stores[0].scf_op))
            op.attributes[INIT_ATTR] = table.initial_value
    results = list(op.results)
    for j, ld in enumerate(loads):
        assert ld.data_from_mem is not None
        b.patch(ld.data_from_mem, results[j])
        ld.data_from_mem = results[j]
        ld.done = results[len(loads) + len(stores) + j]
    for s, st in enumerate(stores):
        st.done = results[len(loads) + s]
