"""Merge ops that compute the same tokens (common subexpression elimination),
before legalization.

Two ops of the same name, properties, attributes and result types whose
operands are the same values compute the same token sequence on every
result (dataflow is determinate), if they have no effect but their
results. The lowering makes such pairs where the SCF repeats an op on one
value in two places: an `arith.extsi` of an index in each of two inner
loops, the constants two loops build on one trigger. One of them is kept
(the first in the body), the other's uses read it, and forks then give
each use its copy. No path is added: both ops already depended on the
same operands.

Merged are arithmetic (dead_ops.PURE_DIALECTS) and constants: the loop and branch ops
(streams, gates, carries, invariants, cond_br) carry a loop's identity,
its name in the traces and the lowering record's roles, and a value the
record names (a loop's or an if's condition) is never the one that goes.
One pass in body order merges chains too, as the lowering lists a
producer before its consumers.
"""

from __future__ import annotations

from collections.abc import Set

from xdsl.ir import Attribute, Block, Operation, SSAValue

from loom.lowering.dead_ops import PURE_DIALECTS

MERGED = frozenset({"handshake.constant"})
"""Merged besides the ops of dead_ops.PURE_DIALECTS."""


def is_merged(op: Operation) -> bool:
    return op.name in MERGED or op.name.startswith(PURE_DIALECTS)


def _key(op: Operation) -> tuple:
    """What two ops must share to compute the same tokens."""
    return (op.name, tuple(op.operands), tuple(r.type for r in op.results),
            _sorted(op.properties), _sorted(op.attributes))


def _sorted(attrs: dict[str, Attribute]) -> tuple[tuple[str, Attribute], ...]:
    return tuple(sorted(attrs.items()))


def merge_common_ops(body: Block, named: Set[SSAValue] = frozenset()) -> None:
    """Replace every op by the first earlier op with its key, but those with a
    result in `named` (the record's); the kept value keeps its name, or takes
    the first name a repeat had."""
    first: dict[tuple, Operation] = {}
    for op in list(body.ops):
        if not op.results or not is_merged(op):
            continue
        key = _key(op)
        kept = first.setdefault(key, op)
        if kept is op or any(r in named for r in op.results):
            continue
        for old, new in zip(op.results, kept.results):
            if not new.name_hint:
                new.name_hint = old.name_hint
            old.replace_all_uses_with(new)
        op.detach()
        op.erase()


__all__ = ["MERGED", "is_merged", "merge_common_ops"]
