"""Remove ops whose every result is unused and that have no effect but their
results (before legalization: seed 003 discards unused results, so such an
op consumes tokens and produces nothing anyone reads).

The lowering makes them on purpose: lower_while builds a gate for
after_cond whether or not a body-local consumer reads it (while_loop.py),
and a loop's unused results come out of their exit splits. Removing one
cannot change a token on any other channel: dataflow is determinate (each
channel's sequence is a function of its inputs' sequences, not of timing),
and the removed op's inputs lose a consumer, which only drops
backpressure. It saves a unit in the direct RTL and a PE on the fabric.

Memory ops, the return and anything not listed in PURE keep their place,
whatever their results' uses: a load's request or a queue's allocation is
an effect of its own.
"""

from __future__ import annotations

from xdsl.ir import Block, Operation

PURE_DIALECTS = ("arith.", "math.")
"""Dialects whose every op is a function of its operands."""

PURE = frozenset({
    "dataflow.stream", "dataflow.gate", "dataflow.carry", "dataflow.invariant",
    "handshake.cond_br", "handshake.mux", "handshake.constant", "handshake.join",
})
"""The dataflow and handshake ops whose only effect is their results."""


def is_pure(op: Operation) -> bool:
    return op.name in PURE or op.name.startswith(PURE_DIALECTS)


def is_dead(op: Operation) -> bool:
    return bool(op.results) and is_pure(op) and not any(r.uses for r in op.results)


def remove_dead_ops(body: Block) -> set[Operation]:
    """Erase dead ops, producers after their last consumer (one backward
    sweep reaches every chain the body lists in order; a dead cycle through
    a carry's feedback stays); returns those erased."""
    erased: set[Operation] = set()
    for op in reversed(list(body.ops)):
        if is_dead(op):
            op.detach()
            op.erase()
            erased.add(op)
    return erased


__all__ = ["PURE", "is_dead", "is_pure", "remove_dead_ops"]
