"""What the control lowering leaves behind for the memory lowering.

Seed 000: each access keeps its op, root memref, kind, a global order index
and its SCF nesting path; each SCF op keeps the DFG condition streams that
the ctrl-done network needs (after_cond of a for, the raw condition of a
while, the branch condition of an if).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import TYPE_CHECKING

from xdsl.ir import Operation, SSAValue

if TYPE_CHECKING:       # ordering.py builds on Access
    from loom.lowering.ordering import Chain


@dataclass(eq=False)
class Access:
    scf_op: Operation                 # memref.load / memref.store
    dfg_op: Operation                 # handshake.load / handshake.store (erased for a
                                      # store behind a queue: the queue takes its operands)
    root: SSAValue                    # the root memref (func arg or alloca)
    kind: str                         # "load" | "store"
    order: int                        # global program order
    path: tuple[Operation, ...]       # enclosing scf ops, outermost first
    ctrl: SSAValue                    # placeholder for the ctrl-done input
    data_from_mem: SSAValue | None    # placeholder (loads)
    done: SSAValue | None = None      # the memory's done token for this access
    queue: Operation | None = None    # the load-store queue that orders it, if any


@dataclass
class LoweringRecord:
    accesses: list[Access] = field(default_factory=list)
    #: scf.for -> after_cond; scf.while -> raw_will_continue; scf.if -> cond
    conditions: dict[Operation, SSAValue] = field(default_factory=dict)
    #: scf.for -> raw_will_continue (for the checker and the stream-length report)
    raw_conditions: dict[Operation, SSAValue] = field(default_factory=dict)
    #: scf.for / scf.while -> after_cond
    after_conds: dict[Operation, SSAValue] = field(default_factory=dict)
    #: scf.for -> its iter_arg carries and their raw splits (the loop boundary)
    boundary_ops: dict[Operation, list[Operation]] = field(default_factory=dict)
    #: scf.for -> the body-local invariants created for it
    body_invariants: dict[Operation, list[Operation]] = field(default_factory=dict)
    #: root memref -> its chains (ordering.py): the orderings its network keeps
    chains: dict[SSAValue, list[Chain]] = field(default_factory=dict)
    #: root memref -> its load-store queue's groups (load_store_queue.py)
    queues: dict[SSAValue, list[list[Access]]] = field(default_factory=dict)
    #: loop number for names: scf.for / scf.while -> "for0", "while1", ...
    loop_names: dict[Operation, str] = field(default_factory=dict)

    def forget(self, erased: set[Operation]) -> None:
        """Drop the loop ops the DFG no longer has (dead_ops.py) from the lists
        the invariant checker walks."""
        for ops in (*self.boundary_ops.values(), *self.body_invariants.values()):
            ops[:] = [op for op in ops if op not in erased]

    def named_values(self) -> set[SSAValue]:
        """The condition values the record names (common_ops keeps their ops)."""
        return {*self.conditions.values(), *self.raw_conditions.values(),
                *self.after_conds.values()}
