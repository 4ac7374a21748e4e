"""Root memref grouping (seed 000): strip view-like ops down to the memory object.

A root is a function argument (one extmemory), a local allocation (one
memory) or a constant table (`memref.get_global` of a constant global: one
memory holding the table, memory_interface.py). memref.cast is stripped;
views that remap addresses (subview, reinterpret_cast, expand/collapse_shape)
are rejected until their address arithmetic is lowered.
"""

from __future__ import annotations

from xdsl.ir import BlockArgument, SSAValue

from loom.diagnostics import LoomError
from loom.lowering.source import where

_ROOTS = {"memref.alloca", "memref.alloc", "memref.get_global"}


def root_memref(value: SSAValue) -> SSAValue:
    while True:
        if isinstance(value, BlockArgument):
            return value
        op = value.owner
        if op.name in _ROOTS:
            return value
        if op.name == "memref.cast":
            value = op.operands[0]
            continue
        raise LoomError(f"accesses through {op.name} are not supported "
                        "(no root memory object)", where(op))
