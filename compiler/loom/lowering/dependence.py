"""Memory dependence between the accesses of one root memref (islpy).

Two accesses depend on each other when at least one is a store and some
iteration of the one and some iteration of the other reach the same element.
The question is asked of isl, the integer set library, as a set of integer
points: a point is one iteration of each access, constrained by their loops
and by equal addresses; the set is empty when no dependence can exist.

The iteration space. Every loop around an access (scf.for or scf.while)
contributes a counter t >= 0, the iteration number within the loop's current
activation. Induction variables are affine in the counters: an scf.for's iv
is lb + step*t, below ub; a while's iter_arg that its body advances by a
constant (`arg + c`) is init + c*t, and in the after region the while's
condition holds (each compare of its `and` that is affine). Values defined
outside every loop that are not affine (a scalar loaded once, a product of
two arguments) are symbols, as the function's integer arguments are. Any
other value (a loaded index, a loop-carried sum) makes the access's address
unknown, and an unknown address depends on every access of its memref at
every level.

The address is the linear row-major element index (the layout the memory
units use, loom.addressing), so subscripts past an inner extent still alias
correctly. A constraint that cannot be expressed is left out: the space only
grows, and a larger space only finds more dependences.

Assumed, as C lets us: subscript and induction arithmetic does not wrap
(signed overflow is undefined; an unsigned induction variable of the loops
above stays between its start and its bound), and compares are compares of
those mathematical values; an unsigned compare or extension reads a
negative constant as its bit pattern's value (-1 as 2^32 - 1).

A dependence is carried at a loop both accesses are in when the two
iterations agree on every enclosing loop outside it and differ on it; it is
loop-independent when they agree on all common loops.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from functools import cached_property

import islpy as isl
from xdsl.dialects import arith, func, scf
from xdsl.dialects.builtin import DYNAMIC_INDEX, IndexType, IntegerAttr, IntegerType, MemRefType
from xdsl.ir import Block, BlockArgument, Operation, OpResult, SSAValue

from loom.lowering.records import Access

#: An affine expression: coefficient per key (a loop op for its counter, a
#: str for a symbol) and the constant under the key None.
Affine = dict[object, int]

LOOPS = (scf.ForOp, scf.WhileOp)
_CASTS = {"arith.index_cast", "arith.extsi"}
_UNSIGNED_CASTS = {"arith.index_castui", "arith.extui"}
_COMPARES = {"slt": "<", "sle": "<=", "sgt": ">", "sge": ">=", "eq": "=",
             "ult": "<", "ule": "<=", "ugt": ">", "uge": ">="}


def _add(a: Affine, b: Affine, scale: int = 1) -> Affine:
    out = dict(a)
    for key, coeff in b.items():
        out[key] = out.get(key, 0) + scale * coeff
    return {k: c for k, c in out.items() if c != 0 or k is None}


def _constant(value: int) -> Affine:
    return {None: value}


def _unsigned(expr: Affine | None, value: SSAValue) -> Affine | None:
    """expr read as unsigned: a negative constant is its two's complement
    pattern's value; anything else is taken as in range (module docstring)."""
    const = _as_int(expr)
    if const is None or const >= 0:
        return expr
    width = value.type.width.data if isinstance(value.type, IntegerType) else 64
    return _constant(const + (1 << width))


def _as_int(expr: Affine | None) -> int | None:
    if expr is None or any(k is not None and c for k, c in expr.items()):
        return None
    return expr.get(None, 0)


@dataclass
class _Space:
    """One access's loops (outermost first), their constraints and its address."""
    loops: tuple[Operation, ...]
    constraints: list[tuple[Affine, str]]     # (expr, ">= 0" or "= 0")
    address: Affine | None


@dataclass
class AccessSpaces:
    """The iteration space and address of every access of one function."""
    symbols: dict[object, str] = field(default_factory=dict)
    _values: dict[SSAValue, Affine | None] = field(default_factory=dict)

    # ---- affine values -------------------------------------------------------

    def affine(self, value: SSAValue) -> Affine | None:
        if value not in self._values:
            self._values[value] = None        # a cycle through iter_args: unknown
            self._values[value] = self._affine(value)
        return self._values[value]

    def _affine(self, value: SSAValue) -> Affine | None:
        if not isinstance(value.type, IntegerType | IndexType):
            return None
        if isinstance(value, BlockArgument):
            return self._argument(value)
        assert isinstance(value, OpResult)
        op = value.op
        expr = self._arith(op)
        if expr is None and _outside_loops(op):
            return {self._symbol(value): 1}   # fixed for the whole invocation
        return expr

    def _arith(self, op: Operation) -> Affine | None:
        if isinstance(op, arith.ConstantOp) and isinstance(op.value, IntegerAttr):
            return _constant(op.value.value.data)
        if op.name in _CASTS:
            return self.affine(op.operands[0])
        if op.name in _UNSIGNED_CASTS:
            return _unsigned(self.affine(op.operands[0]), op.operands[0])
        if isinstance(op, arith.AddiOp | arith.SubiOp):
            lhs, rhs = self.affine(op.lhs), self.affine(op.rhs)
            if lhs is None or rhs is None:
                return None
            return _add(lhs, rhs, 1 if isinstance(op, arith.AddiOp) else -1)
        if isinstance(op, arith.MuliOp | arith.ShLIOp):
            lhs, rhs = self.affine(op.lhs), self.affine(op.rhs)
            factor = _as_int(rhs)
            if isinstance(op, arith.ShLIOp):
                factor = 1 << factor if factor is not None and 0 <= factor < 63 else None
            elif factor is None:
                lhs, factor = rhs, _as_int(lhs)
            if lhs is None or factor is None:
                return None
            return _add({}, lhs, factor)
        return None

    def _argument(self, arg: BlockArgument) -> Affine | None:
        owner = arg.block.parent_op()
        if isinstance(owner, func.FuncOp):
            return {self._symbol(arg): 1}
        if isinstance(owner, scf.ForOp) and arg.index == 0:
            lb, step = self._bound(owner, owner.lb), _as_int(self.affine(owner.step))
            if lb is None or step is None or step <= 0:
                return None
            return _add(lb, {owner: step})
        if isinstance(owner, scf.WhileOp):
            if arg.block is owner.before_region.block:
                return self._while_induction(owner, arg.index)
            forwarded = _condition(owner).args[arg.index]
            return self.affine(forwarded)
        return None

    def _while_induction(self, loop: scf.WhileOp, index: int) -> Affine | None:
        """init + c*t when the after region yields (this argument, forwarded) + c."""
        forwarded = list(_condition(loop).args)
        after = loop.after_region.block
        yielded = after.last_op.operands[index] if after.last_op is not None else None
        if not isinstance(yielded, OpResult) or not isinstance(yielded.op, arith.AddiOp):
            return None
        for var, step_value in ((yielded.op.lhs, yielded.op.rhs), (yielded.op.rhs, yielded.op.lhs)):
            step = _as_int(self.affine(step_value)) if _outside(step_value, loop) else None
            if (step and isinstance(var, BlockArgument) and var.block is after
                    and forwarded[var.index] is loop.before_region.block.args[index]):
                init = self.affine(loop.operands[index])
                return None if init is None else _add(init, {loop: step})
        return None

    def _symbol(self, key: object) -> str:
        return self.symbols.setdefault(key, f"p{len(self.symbols)}")

    # ---- one access ------------------------------------------------------------

    def space(self, acc: Access) -> _Space:
        loops = enclosing_loops(acc)
        constraints: list[tuple[Affine, str]] = []
        inner: Operation = acc.scf_op
        for loop in reversed(loops):
            constraints += self._loop_constraints(loop, _region_block(loop, inner))
            inner = loop
        return _Space(loops, constraints, self._address(acc))

    def _loop_constraints(self, loop: Operation, block: Block) -> list[tuple[Affine, str]]:
        out: list[tuple[Affine, str]] = [({loop: 1}, ">= 0")]
        if isinstance(loop, scf.ForOp):
            iv, ub = self.affine(loop.body.block.args[0]), self._bound(loop, loop.ub)
            if iv is not None and ub is not None:
                out.append((_add(_add(ub, iv, -1), _constant(-1)), ">= 0"))   # iv < ub
        elif isinstance(loop, scf.WhileOp) and block is loop.after_region.block:
            out += self._holds(_condition(loop).condition)
        return out

    def _bound(self, loop: scf.ForOp, value: SSAValue) -> Affine | None:
        """A bound of an scf.for, read as its compare reads it."""
        unsigned = "unsignedCmp" in loop.properties or "unsignedCmp" in loop.attributes
        return _unsigned(self.affine(value), value) if unsigned else self.affine(value)

    def _holds(self, cond: SSAValue) -> list[tuple[Affine, str]]:
        """Affine constraints implied by `cond` being true (the rest left out)."""
        if isinstance(cond, OpResult) and isinstance(cond.op, arith.AndIOp):
            return self._holds(cond.op.lhs) + self._holds(cond.op.rhs)
        if not (isinstance(cond, OpResult) and isinstance(cond.op, arith.CmpiOp)):
            return []
        pred = arith.CMPI_COMPARISON_OPERATIONS[cond.op.predicate.value.data]
        lhs, rhs = self.affine(cond.op.lhs), self.affine(cond.op.rhs)
        if pred.startswith("u"):
            lhs, rhs = _unsigned(lhs, cond.op.lhs), _unsigned(rhs, cond.op.rhs)
        if pred not in _COMPARES or lhs is None or rhs is None:
            return []
        diff = _add(lhs, rhs, -1)                                   # lhs - rhs
        return [{"<": (_add(_add({}, diff, -1), _constant(-1)), ">= 0"),
                 "<=": (_add({}, diff, -1), ">= 0"),
                 ">": (_add(diff, _constant(-1)), ">= 0"),
                 ">=": (diff, ">= 0"),
                 "=": (diff, "= 0")}[_COMPARES[pred]]]

    def _address(self, acc: Access) -> Affine | None:
        mtype = acc.scf_op.memref.type
        assert isinstance(mtype, MemRefType)
        shape = mtype.get_shape()
        if any(d == DYNAMIC_INDEX for d in shape[1:]):
            return None
        address: Affine = _constant(0)
        stride = 1
        for index, extent in reversed(list(zip(acc.scf_op.indices, shape))):
            expr = self.affine(index)
            if expr is None:
                return None
            address = _add(address, expr, stride)
            stride *= max(extent, 1)
        return address


def enclosing_loops(acc: Access) -> tuple[Operation, ...]:
    """The scf.for and scf.while ops around `acc`, outermost first: its levels."""
    return tuple(op for op in acc.path if isinstance(op, LOOPS))


def _condition(loop: scf.WhileOp) -> scf.ConditionOp:
    last = loop.before_region.block.last_op
    assert isinstance(last, scf.ConditionOp)
    return last


def _region_block(loop: Operation, inner: Operation) -> Block:
    """The block of `loop` that holds `inner` (a while has two)."""
    op = inner
    while op.parent_op() is not loop:
        op = op.parent_op()
    return op.parent_block()


def _outside_loops(op: Operation) -> bool:
    parent = op.parent_op()
    while parent is not None:
        if isinstance(parent, LOOPS):
            return False
        parent = parent.parent_op()
    return True


def _outside(value: SSAValue, loop: Operation) -> bool:
    return not loop.is_ancestor(value.owner)


class Dependences:
    """Which accesses of one group can touch the same element, and where."""

    def __init__(self, spaces: AccessSpaces, group: list[Access]):
        self.spaces = spaces
        self.group = group
        self._answers: dict[tuple[Access, Access, int | None], bool] = {}

    @cached_property
    def _space(self) -> dict[Access, _Space]:
        return {acc: self.spaces.space(acc) for acc in self.group}

    def depend(self, a: Access, b: Access, level: int | None = None) -> bool:
        """Whether a and b (one a store) can reach one element: at any pair of
        iterations (level None), or carried at common loop `level` (0 outermost)."""
        if a.kind == "load" and b.kind == "load":
            return False
        key = (a, b, level)
        if key not in self._answers:
            self._answers[key] = self._depend(a, b, level)
        return self._answers[key]

    def _depend(self, a: Access, b: Access, level: int | None) -> bool:
        sa, sb = self._space[a], self._space[b]
        if sa.address is None or sb.address is None:
            return True
        return not isl.Set(self._text(sa, sb, level)).is_empty()

    def _text(self, sa: _Space, sb: _Space, level: int | None) -> str:
        names = {**{(0, loop): f"a{k}" for k, loop in enumerate(sa.loops)},
                 **{(1, loop): f"b{k}" for k, loop in enumerate(sb.loops)}}
        dims = list(names.values())
        terms = [self._render(expr, side, names) + f" {rel}"
                 for side, space in ((0, sa), (1, sb)) for expr, rel in space.constraints]
        terms.append(f"{self._render(sa.address, 0, names)} = {self._render(sb.address, 1, names)}")
        if level is not None:
            terms += [f"a{k} = b{k}" for k in range(level)] + [f"a{level} != b{level}"]
        params = ", ".join(sorted(set(self.spaces.symbols.values()), key=lambda p: int(p[1:])))
        return f"[{params}] -> {{ [{', '.join(dims)}] : {' and '.join(terms)} }}"

    @staticmethod
    def _render(expr: Affine, side: int, names: dict) -> str:
        """isl text of expr, its counters those of access a (side 0) or b (1)."""
        parts = []
        for key, coeff in expr.items():
            if key is None:
                parts.append(str(coeff))
            elif isinstance(key, str):
                parts.append(f"{coeff}*{key}")
            else:
                parts.append(f"{coeff}*{names[(side, key)]}")
        return " + ".join(parts) or "0"
