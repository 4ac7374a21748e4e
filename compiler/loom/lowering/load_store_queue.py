"""A root memref behind a load-store queue (`--ordering lsq`).

For an array argument whose chain of done tokens keeps an innermost loop in
order (dependence analysis cannot rule out that a store and another access
reach one element in two of its iterations: a loaded subscript, a symbolic
offset), the chain would run that loop one access at a time. The queue
orders them by allocation instead (design.md, "the load-store queue"):

  group           a run of the root's accesses in one block with no region
                  between them: alloc = token; token = ack (one op each)
  scf.if / for /  seed 000's serial-recursive rules on the allocation token
  scf.while       (memory_control.py), every loop carried
  end             fence = token; the root's done token = fence_done

A load keeps its handshake.load, its ctrl the group's allocation token. A
store has no handshake.store: its address and data go to the queue on their
own, so a younger load can pass a store whose address is known while its
data is still being computed. Allocation runs ahead of the accesses by up
to the queues' depth.
"""

from __future__ import annotations

from xdsl.dialects.builtin import MemRefType, NoneType
from xdsl.ir import Block, BlockArgument, SSAValue

from loom.dialects import handshake as hs
from loom.lowering.builder import DfgBuilder
from loom.lowering.dependence import enclosing_loops
from loom.lowering.memory_control import SerialRecursive
from loom.lowering.ordering import Chain
from loom.lowering.records import Access, LoweringRecord

QUEUE_DEPTH = 8
"""Entries of each queue when the largest group needs fewer: enough for a
loop's accesses of a few iterations in flight at once."""


def needs_queue(root: SSAValue, chains: list[Chain]) -> bool:
    """An array argument with a chain of done tokens that keeps in order the
    innermost loop around one of its accesses: a store and another access
    analysis cannot tell apart across that loop's iterations (an address it
    cannot express, or a dependence it cannot rule out), loads among them
    (stores alone keep their order on their port). The queue lets such
    iterations overlap where the addresses differ at run time. A chain that
    keeps only outer loops in order already overlaps its inner iterations
    (gaussian: 5,890 cycles so, 8,748 behind a queue); it and the other
    arrays keep their chains."""
    return isinstance(root, BlockArgument) and any(
        {a.kind for a in chain.accesses} == {"load", "store"}
        and any(loops[-1] in chain.kept for loops in map(enclosing_loops, chain.accesses) if loops)
        for chain in chains)


class QueueAllocation(SerialRecursive):
    """The allocation chain of one queue: seed 000's recursion, one token
    per group instead of per access; each group's ack continues it."""

    def __init__(self, b: DfgBuilder, record: LoweringRecord, group: list[Access]):
        super().__init__(b, record, Chain(list(group)))
        #: (accesses, allocation token, ack placeholder) per group, in program order
        self.groups: list[tuple[list[Access], SSAValue, SSAValue]] = []

    def region(self, block: Block, entry: SSAValue) -> SSAValue:
        token = entry
        run: list[Access] = []
        for op in block.ops:
            if op in self.by_op:
                run.append(self.by_op[op])
                continue
            if op not in self.enclosing:
                continue
            token = self._group(run, token)
            run = []
            token = self._nested(op, token)
        return self._group(run, token)

    def _group(self, run: list[Access], token: SSAValue) -> SSAValue:
        if not run:
            return token
        for acc in run:
            if acc.kind == "load":
                self.b.patch(acc.ctrl, token)
                acc.ctrl = token
        ack = self.b.placeholder(NoneType())
        self.groups.append((run, token, ack))
        return ack


def build_queue(b: DfgBuilder, record: LoweringRecord, root: SSAValue, group: list[Access],
                memref_arg: SSAValue, mem_id: int, body: Block, entry: SSAValue) -> SSAValue:
    """The queue of one root and its allocation chain; returns the root's done token."""
    chain = QueueAllocation(b, record, group)
    fence = chain.region(body, entry)
    record.queues[root] = [run for run, _, _ in chain.groups]
    loads = [a for a in group if a.kind == "load"]
    stores = [a for a in group if a.kind == "store"]
    ports: list[SSAValue] = []
    for st in stores:      # (data, addresses) per store, from the store's own operands
        rank = len(st.dfg_op.operands) - 2
        ports += [st.dfg_op.operands[rank], *st.dfg_op.operands[:rank]]
    for ld in loads:
        ports += list(ld.dfg_op.results[1:])
    port_of = {a: ("ld", j) for j, a in enumerate(loads)} | \
        {a: ("st", s) for s, a in enumerate(stores)}
    groups = [[port_of[a] for a in run] for run, _, _ in chain.groups]
    widest = max(sum(kind == k for kind, _ in g) for g in groups for k in ("ld", "st"))
    depth = max(QUEUE_DEPTH, 1 << (2 * widest - 1).bit_length())
    b.loc = group[0].scf_op.location
    assert isinstance(memref_arg.type, MemRefType)
    op = b.insert(hs.LoadStoreQueueOp(memref_arg, ports, [tok for _, tok, _ in chain.groups],
                                      fence, groups, depth, depth, mem_id))
    for j, ld in enumerate(loads):
        assert ld.data_from_mem is not None
        b.patch(ld.data_from_mem, op.results[j])
        ld.data_from_mem = op.results[j]
    for n, (_, _, ack) in enumerate(chain.groups):
        b.patch(ack, op.results[len(loads) + n])
    for st in stores:      # the queue takes address and data; the store op goes
        ctrl = st.dfg_op.operands[-1]
        st.dfg_op.detach()
        st.dfg_op.erase()
        ctrl.owner.detach()
        ctrl.owner.erase()
    for acc in group:
        acc.queue = op
    return op.results[-1]
