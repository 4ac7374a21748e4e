"""A cast that is a wire inside a fabric, of several uses, built once per use.

A wire cast (contraction.is_wire: an `index_cast` between i32 and `index`,
a truncation) folds into the op that reads it only when it has one use: a
fork of its result would need the cast's value routed, so the cast keeps a
PE of its own. Built once per use, behind a fork of its operand, each copy
has one use and folds into it: the fabric routes the operand to every user,
and every user's unit reads the low bits it needs (binary search's
`lo <= hi` condition, truncated to i1 and read by ten branches, carries and
invariants; an index read by a load and a store).

Only where every use is an op that can host a wire (not another cast, a
memory, a sink or the return), so that no copy needs a PE. The kernel's
DFG is rewritten before mapping, as the join legalization is; the golden
run and the per-edge check read the same DFG (kernel_compile.compile_for).
"""

from __future__ import annotations

from xdsl.ir import Block, Operation
from xdsl.rewriter import InsertPoint, Rewriter

from loom.dialects import handshake as hs
from loom.mapper.contraction import WIRE_CASTS, ZERO_EXTENSIONS, is_wire

NO_HOST = ("handshake.sink", "handshake.return", "handshake.fork", "handshake.lazy_fork",
           "handshake.extmemory", "handshake.memory", *WIRE_CASTS, *ZERO_EXTENSIONS)
"""Users that cannot host a wire of their own."""


def split_wire_casts(body: Block) -> int:
    """Give each wire cast of several uses in `body` one copy per use, behind
    a fork of its operand; returns the casts split."""
    split = 0
    for cast in list(body.ops):
        fork = _fork_of(cast)
        if fork is None:
            continue
        operand = hs.ForkOp(cast.operands[0], len(fork.results))
        operand.location = fork.location
        Rewriter.insert_op(operand, InsertPoint.before(cast))
        for out, branch in zip(fork.results, operand.results):
            copy = cast.clone()
            copy.operands[0] = branch
            Rewriter.insert_op(copy, InsertPoint.before(cast))
            out.replace_all_uses_with(copy.results[0])
        Rewriter.erase_op(fork)
        Rewriter.erase_op(cast)
        split += 1
    return split


def _fork_of(cast: Operation) -> hs.ForkOp | None:
    """The fork that spreads a wire cast's result to users that can each host a copy."""
    if not is_wire(cast) or len(cast.results) != 1 or not cast.results[0].has_one_use():
        return None
    fork = next(iter(cast.results[0].uses)).operation
    if not isinstance(fork, hs.ForkOp):
        return None
    users = [u.operation for r in fork.results for u in r.uses]
    if len(users) != len(fork.results) or any(u.name in NO_HOST for u in users):
        return None
    return fork


__all__ = ["split_wire_casts"]
