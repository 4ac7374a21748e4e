"""Memory lowering layer 3 (seed 000): the serial-recursive ctrl-done network.

Built once per root-memref group, independently. Every SCF region is an
entry -> done block; a level is processed left to right, recursing into
child regions that hold accesses of the group:

  access          ctrl = token; token = access done
  loads in a row  fork token to each (RAR parallelism); token = join(dones)
  scf.if          t, f = cond_br(cond, token); then/else recursively;
                  token = mux(cond, [else_done, then_done])
  scf.for         loop_ctrl = carry(after_cond, token, body_done feedback)
                  body_done = recurse(body, loop_ctrl)
                  feedback, token = cond_br(after_cond, body_done)
  scf.while       loop_ctrl = carry(raw, token, after_done feedback)
                  before_done = recurse(before, loop_ctrl)
                  after_entry, token = cond_br(raw, before_done)
                  after_done = recurse(after, after_entry)

The for rule is seed 000's literally (after_cond, never raw_will_continue).
For while, the before-region runs N + 1 times, so its regime is the raw
condition; the after-region's N entries are the true side of the raw split
(a loop that exits at once enters it zero times and stays quiescent; an
after_cond carry would start one body there).

A group is wired as one network per chain (ordering.py). A loop that carries
no dependence of its chain (a free loop) overlaps its iterations:

  scf.for         loop_ctrl = invariant(after_cond, token)   every iteration
                  body_done = recurse(body, loop_ctrl)
                  seen = carry(after_cond, token, feedback)   dones so far
                  feedback, token = cond_br(after_cond, join(seen, body_done))
                  (where body_done is one access's done, in order across the
                  iterations: _, token = cond_br(after_cond, body_done))
  scf.while       loop_ctrl = invariant(raw, token)
                  before_done = recurse(before, loop_ctrl)
                  after_entry, last = cond_br(raw, before_done)
                  after_done = recurse(after, after_entry)
                  seen = carry(raw, token, feedback)
                  more, final = cond_br(raw, seen)
                  feedback = join(more, after_done); token = join(final, last)
"""

from __future__ import annotations

from xdsl.dialects import scf
from xdsl.dialects.builtin import NoneType
from xdsl.ir import Block, Operation, SSAValue

from loom.lowering.builder import DfgBuilder
from loom.lowering.ordering import Chain
from loom.lowering.records import Access, LoweringRecord


class SerialRecursive:
    def __init__(self, b: DfgBuilder, record: LoweringRecord, chain: Chain):
        self.b = b
        self.record = record
        self.by_op = {a.scf_op: a for a in chain.accesses}
        # scf ops that contain an access of this chain: the recursion visits only these
        self.enclosing = {op for a in chain.accesses for op in a.path}
        self.free_loops = chain.free_loops
        self.dones = {a.done for a in chain.accesses}

    def region(self, block: Block, entry: SSAValue) -> SSAValue:
        """Wire the group's accesses in `block`; returns the block's done token."""
        token = entry
        items = [op for op in block.ops if op in self.by_op or op in self.enclosing]
        i = 0
        while i < len(items):
            op = items[i]
            if op in self.by_op and self.by_op[op].kind == "load":
                run = [self.by_op[op]]
                while i + len(run) < len(items) and _is_load(self.by_op.get(items[i + len(run)])):
                    run.append(self.by_op[items[i + len(run)]])
                token = self._loads(run, token)
                i += len(run)
                continue
            if op in self.by_op:
                token = self._access(self.by_op[op], token)
            else:
                token = self._nested(op, token)
            i += 1
        return token

    def _nested(self, op: Operation, token: SSAValue) -> SSAValue:
        """An scf op that holds accesses of the chain: its rule."""
        if isinstance(op, scf.IfOp):
            return self._if(op, token)
        if isinstance(op, scf.ForOp):
            return self._for(op, token)
        if isinstance(op, scf.WhileOp):
            return self._while(op, token)
        return token

    def _access(self, acc: Access, token: SSAValue) -> SSAValue:
        self.b.patch(acc.ctrl, token)
        acc.ctrl = token
        assert acc.done is not None
        return acc.done

    def _loads(self, run: list[Access], token: SSAValue) -> SSAValue:
        dones = [self._access(acc, token) for acc in run]  # token forks to each load
        if len(dones) == 1:
            return dones[0]
        self.b.loc = run[0].scf_op.location
        return self.b.join(dones)

    def _if(self, op: scf.IfOp, token: SSAValue) -> SSAValue:
        cond = self.record.conditions[op]
        self.b.loc = op.location
        then_entry, else_entry = self.b.cond_br(cond, token)
        then_done = self.region(op.true_region.block, then_entry)
        else_done = self.region(op.false_region.block, else_entry) \
            if op.false_region.blocks else else_entry
        self.b.loc = op.location
        return self.b.mux(cond, [else_done, then_done])

    def _for(self, op: scf.ForOp, token: SSAValue) -> SSAValue:
        after_cond = self.record.after_conds[op]
        b = self.b
        b.loc = op.location
        if op in self.free_loops:
            body_done = self.region(op.body.block, b.invariant(after_cond, token))
            b.loc = op.location
            if body_done in self.dones:
                # One access's done: its port completes in order, and each of its
                # requests waited for its own iteration's other accesses, so the
                # last iteration's done implies every iteration's.
                return b.cond_br(after_cond, body_done)[1]
            feedback = b.placeholder(NoneType())
            body_done = b.join([b.carry(after_cond, token, feedback), body_done])
        else:
            feedback = b.placeholder(NoneType())
            body_done = self.region(op.body.block, b.carry(after_cond, token, feedback))
            b.loc = op.location
        body_feedback, loop_exit = b.cond_br(after_cond, body_done)
        b.patch(feedback, body_feedback)
        return loop_exit

    def _while(self, op: scf.WhileOp, token: SSAValue) -> SSAValue:
        raw = self.record.raw_conditions[op]
        b = self.b
        b.loc = op.location
        feedback = b.placeholder(NoneType())
        free = op in self.free_loops
        loop_ctrl = b.invariant(raw, token) if free else b.carry(raw, token, feedback)
        before_done = self.region(op.before_region.block, loop_ctrl)
        b.loc = op.location
        after_entry, loop_exit = b.cond_br(raw, before_done)
        after_done = self.region(op.after_region.block, after_entry)
        b.loc = op.location
        if free:
            more, final = b.cond_br(raw, b.carry(raw, token, feedback))
            after_done = b.join([more, after_done])
            loop_exit = b.join([final, loop_exit])
        b.patch(feedback, after_done)
        return loop_exit


def _is_load(acc: Access | None) -> bool:
    return acc is not None and acc.kind == "load"


def build_ctrl_done(b: DfgBuilder, record: LoweringRecord, chains: list[Chain],
                    body: Block, entry: SSAValue) -> SSAValue:
    """The group's done token for one invocation of the function body: its
    chains' done tokens, joined."""
    dones = [SerialRecursive(b, record, chain).region(body, entry) for chain in chains]
    return dones[0] if len(dones) == 1 else b.join(dones)

