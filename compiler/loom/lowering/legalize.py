"""DFG legalization (seed 003).

- Every value is used exactly once: a value with n > 1 uses gets an explicit
  handshake.fork [n] right after its producer, one output per use in program
  order. Memrefs are not tokens and are left alone.
- Unused results are discarded (discard semantics): they stay unused and
  the hardware ties their ready high; no handshake.sink is introduced.
- A handshake.join wider than loom.adg_max_join_fanin becomes a tree of joins
  within the limit; with a limit below 2 any join wider than 1 is rejected.
"""

from __future__ import annotations

from xdsl.dialects.builtin import MemRefType
from xdsl.ir import Block, BlockArgument, Operation, SSAValue
from xdsl.rewriter import InsertPoint, Rewriter

from loom.diagnostics import Location, LoomError
from loom.dialects import handshake as hs
from loom.ir import op_location

MAX_HARDWARE_JOIN_FANIN = 64  # the mapper/config encoding's ceiling (seed 003)


def _position(body: Block) -> dict[Operation, int]:
    return {op: i for i, op in enumerate(body.ops)}


def insert_forks(body: Block) -> int:
    """Materialize forks for every multi-use value; returns the number created."""
    pos = _position(body)
    values: list[SSAValue] = [*body.args, *(r for op in list(body.ops) for r in op.results)]
    created = 0
    for v in values:
        if isinstance(v.type, MemRefType) or not v.has_more_than_one_use():
            continue
        uses = sorted(((u.operation, u.index) for u in v.uses), key=lambda u: (pos[u[0]], u[1]))
        fork = hs.ForkOp(v, len(uses))
        if isinstance(v, BlockArgument):
            fork.location = v.location
            Rewriter.insert_op(fork, InsertPoint.at_start(body))
        else:
            fork.location = v.owner.location
            Rewriter.insert_op(fork, InsertPoint.after(v.owner))
        for (user, index), out in zip(uses, fork.results):
            user.operands[index] = out
        created += 1
    return created


def legalize_joins(body: Block, max_fanin: int, filename: str) -> int:
    """Rewrite joins wider than `max_fanin` into trees; returns joins rewritten."""
    rewritten = 0
    for op in list(body.ops):
        if not isinstance(op, hs.JoinOp) or len(op.operands) <= max(max_fanin, 1):
            continue
        if max_fanin < 2:
            raise LoomError(f"handshake.join of fan-in {len(op.operands)} cannot be legalized: "
                            f"loom.adg_max_join_fanin is {max_fanin} (< 2)",
                            op_location(op) or Location(filename))
        level = list(op.operands)
        while len(level) > max_fanin:
            nxt = []
            for i in range(0, len(level), max_fanin):
                chunk = level[i:i + max_fanin]
                if len(chunk) == 1:
                    nxt.append(chunk[0])
                    continue
                sub = hs.JoinOp(chunk)
                sub.location = op.location
                Rewriter.insert_op(sub, InsertPoint.before(op))
                nxt.append(sub.results[0])
            level = nxt
        op.operands = level
        rewritten += 1
    return rewritten


def check_join_limit(max_fanin: int, filename: str) -> None:
    if max_fanin > MAX_HARDWARE_JOIN_FANIN:
        raise LoomError(f"--max-join-fanin {max_fanin} exceeds the supported hardware "
                        f"join fan-in of {MAX_HARDWARE_JOIN_FANIN}", Location(filename))
