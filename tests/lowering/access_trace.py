"""The dependences a run shows: every access the SCF reference interpreter
performs, with the iteration of each enclosing loop and the element it reaches.

The independent reference for lowering/dependence.py: what a run of the
kernel does, not what its subscripts say. A dependence the analysis misses
would show here as two accesses (one a store) that reached one element.
"""

from __future__ import annotations

from collections import defaultdict
from dataclasses import dataclass, field
from itertools import combinations_with_replacement

from xdsl.dialects import memref, scf
from xdsl.interpreter import Interpreter
from xdsl.ir import Operation

LOOPS = (scf.ForOp, scf.WhileOp)


def _first_ops(loop: Operation) -> Operation | None:
    """The op that starts an iteration: the first of a for's body, of a while's before."""
    block = loop.body.block if isinstance(loop, scf.ForOp) else loop.before_region.block
    return block.first_op


@dataclass
class AccessTrace(Interpreter.Listener):
    """(access op, loop iterations outermost first, flat element) of each access;
    iteration t of a loop is its t-th in the current activation, from 0."""
    accesses: list[tuple[Operation, tuple[int, ...], int, int]] = field(default_factory=list)
    _count: dict[Operation, int] = field(default_factory=dict)
    _starts: dict[Operation, Operation] = field(default_factory=dict)

    def watch(self, func: Operation) -> None:
        for op in func.walk():
            if isinstance(op, LOOPS) and (first := _first_ops(op)) is not None:
                self._starts[first] = op

    def will_interpret_op(self, op: Operation, args) -> None:
        if isinstance(op, LOOPS):
            self._count[op] = -1
        if op in self._starts:
            self._count[self._starts[op]] += 1
        if isinstance(op, memref.LoadOp | memref.StoreOp):
            mem, *idx = args if isinstance(op, memref.LoadOp) else args[1:]
            iters = tuple(self._count[p] for p in _loops(op))
            self.accesses.append((op, iters, id(mem), mem.address(tuple(idx), op).flat))

    def dependences(self) -> set[tuple[Operation, Operation, int | None]]:
        """(a, b, level) seen: a and b (a before b in program text order of
        their first appearance, one a store) reached one element; level the
        first common loop whose iterations differ, None if all agree."""
        by_element: dict[tuple[int, int], dict[tuple, bool]] = defaultdict(dict)
        for op, iters, mem, flat in self.accesses:
            by_element[(mem, flat)][(op, iters)] = True
        seen = set()
        for visits in by_element.values():
            for (a, ia), (b, ib) in combinations_with_replacement(list(visits), 2):
                if isinstance(a, memref.LoadOp) and isinstance(b, memref.LoadOp):
                    continue
                if a is b and ia == ib:
                    continue
                seen.add((a, b, _level(a, ia, b, ib)))
        return seen


def _loops(op: Operation) -> list[Operation]:
    out = []
    parent = op.parent_op()
    while parent is not None:
        if isinstance(parent, LOOPS):
            out.append(parent)
        parent = parent.parent_op()
    return out[::-1]


def _level(a: Operation, ia: tuple[int, ...], b: Operation, ib: tuple[int, ...]) -> int | None:
    for k, (la, lb) in enumerate(zip(_loops(a), _loops(b))):
        if la is not lb:
            return None
        if ia[k] != ib[k]:
            return k
    return None
