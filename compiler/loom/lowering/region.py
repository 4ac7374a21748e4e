"""lower_region (seed 002): flatten one SCF region into the DFG, in source order.

Non-SCF ops are cloned with mapped operands; scf.if / scf.for / scf.while
recurse through their own lowering; memref.load / memref.store become
handshake.load / handshake.store whose control and memory data are filled
in later by the memory lowering (seed 000, layer 1).
"""

from __future__ import annotations

from xdsl.dialects import memref, scf
from xdsl.dialects.builtin import NoneType
from xdsl.ir import Block, Operation, SSAValue

from loom.diagnostics import LoomError
from loom.dialects import handshake as hs
from loom.lowering.records import Access, LoweringRecord
from loom.lowering.root_memref import root_memref
from loom.lowering.source import where
from loom.lowering.state import RegionState, check_float_types

#: arith ops cloned as they are (the golden model and the RTL implement them)
ARITH_OPS = {
    "arith.addi", "arith.subi", "arith.muli", "arith.divsi", "arith.divui",
    "arith.remsi", "arith.remui", "arith.andi", "arith.ori", "arith.xori",
    "arith.shli", "arith.shrsi", "arith.shrui", "arith.minsi", "arith.maxsi",
    "arith.minui", "arith.maxui", "arith.cmpi", "arith.select", "arith.extsi",
    "arith.extui", "arith.trunci", "arith.index_cast", "arith.index_castui",
}
#: float ops cloned as they are: f32 and f64 on IEEE bit patterns (loom.floats, issue 33);
#: apart from ARITH_OPS because the fabric presets and the RTL have no units for them yet
FLOAT_OPS = {
    "arith.addf", "arith.subf", "arith.mulf", "arith.divf", "arith.remf", "arith.negf",
    "arith.cmpf", "arith.minnumf", "arith.maxnumf", "arith.sitofp", "arith.uitofp",
    "arith.fptosi", "arith.fptoui", "arith.extf", "arith.truncf", "arith.bitcast",
    "math.absf", "math.sqrt",
}
#: view ops: no token of their own; accesses through them resolve to the root
VIEW_OPS = {"memref.cast", "memref.alloca", "memref.alloc", "memref.get_global"}


class Lowering:
    """The control lowering of one function: state shared by the recursion."""

    def __init__(self, record: LoweringRecord):
        self.record = record
        self.path: list[Operation] = []

    def lower_region(self, block: Block, state: RegionState) -> list[SSAValue]:
        """Lower `block`'s ops; returns the mapped operands of its terminator."""
        # imported here: each construct's lowering recurses back into this one
        from loom.lowering.for_loop import lower_for
        from loom.lowering.if_else import lower_if
        from loom.lowering.while_loop import lower_while

        for op in block.ops:
            state.b.loc = op.location
            if isinstance(op, scf.IfOp):
                self._nested(op, lambda: lower_if(self, op, state))
            elif isinstance(op, scf.ForOp):
                self._nested(op, lambda: lower_for(self, op, state))
            elif isinstance(op, scf.WhileOp):
                self._nested(op, lambda: lower_while(self, op, state))
            elif isinstance(op, scf.YieldOp | scf.ConditionOp) or op.name == "func.return":
                return [state.lookup(v) for v in op.operands]
            else:
                self.lower_op(op, state)
        return []

    def name_loop(self, op: Operation, kind: str) -> str:
        name = f"{kind}{len(self.record.loop_names)}"
        self.record.loop_names[op] = name
        return name

    def _nested(self, op: Operation, lower) -> None:
        self.path.append(op)
        try:
            lower()
        finally:
            self.path.pop()

    def lower_op(self, op: Operation, state: RegionState) -> None:
        if op.name in ARITH_OPS or op.name in FLOAT_OPS:
            check_float_types(op)
            new = state.b.clone(op, [state.lookup(v) for v in op.operands])
            for old, res in zip(op.results, new.results):
                state.map(old, res)
        elif op.name in ("arith.constant", "ub.poison"):
            pass  # rebuilt on the using region's control (state.lookup)
        elif isinstance(op, memref.LoadOp):
            self._load(op, state)
        elif isinstance(op, memref.StoreOp):
            self._store(op, state)
        elif op.name in VIEW_OPS:
            root_memref(op.results[0])  # rejects what we cannot resolve, early
        else:
            raise LoomError(f"{op.name} is not supported by the SCF-to-DFG lowering", where(op))

    def _access(self, op: Operation, state: RegionState, dfg_op: Operation, kind: str,
                ctrl: SSAValue, data_ph: SSAValue | None) -> None:
        self.record.accesses.append(Access(
            scf_op=op, dfg_op=dfg_op, root=root_memref(op.memref),
            kind=kind, order=len(self.record.accesses), path=tuple(self.path),
            ctrl=ctrl, data_from_mem=data_ph))

    def _load(self, op: memref.LoadOp, state: RegionState) -> None:
        b = state.b
        addrs = [state.lookup(i) for i in op.indices]
        data_ph = b.placeholder(op.res.type)
        ctrl_ph = b.placeholder(NoneType())
        load = b.insert(hs.LoadOp(addrs, data_ph, ctrl_ph))
        state.map(op.res, load.results[0])
        self._access(op, state, load, "load", ctrl_ph, data_ph)

    def _store(self, op: memref.StoreOp, state: RegionState) -> None:
        b = state.b
        addrs = [state.lookup(i) for i in op.indices]
        ctrl_ph = b.placeholder(NoneType())
        store = b.insert(hs.StoreOp(addrs, state.lookup(op.value), ctrl_ph))
        self._access(op, state, store, "store", ctrl_ph, None)
