"""Op semantics for the SCF/CF reference run on xDSL's interpreter.

Values: an `iN` is its unsigned bit pattern (0 <= v < 2**N); an `index` is a
signed Python int (64-bit wrap); `ub.poison` is the POISON marker, which
propagates through arithmetic and is an error where it decides anything
(branch, address, store, result). Integer semantics are MLIR arith's:
wrap-around in the op's width, signed ops read the pattern as two's complement.
Division by zero and shifts by the width or more are errors / poison, as in
MLIR. An `f32` / `f64` is its IEEE bit pattern too, and its ops are
loom.floats' (issue 33): canonical NaN results, saturating float-to-integer
conversions. Loop iterations and branches count against a step budget.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from xdsl.dialects import arith, cf, math, memref, scf, ub
from xdsl.dialects.builtin import (AnyFloat, DenseIntOrFPElementsAttr, FloatAttr, IndexType,
                                   IntegerAttr, IntegerType, MemRefType)
from xdsl.interpreter import (Interpreter, InterpreterFunctions, PythonValues,
                              ReturnedValues, Successor, impl, impl_terminator,
                              register_impls)
from xdsl.ir import Attribute, Operation, SSAValue
from xdsl.traits import SymbolTable
from xdsl.utils.exceptions import InterpretationError

from loom import floats
from loom.addressing import Address, row_major
from loom.dialects.arith_extras import RemFOp
from loom.dialects.memref_extras import GlobalOp
from loom.frontend.mlir_ir import IndexCastUIOp

INDEX_BITS = 64


class _Poison:
    def __repr__(self) -> str:
        return "poison"


POISON = _Poison()


class RunError(Exception):
    """The reference run cannot continue (out of bounds, poison, step budget)."""

    def __init__(self, message: str, op: Operation | None = None):
        super().__init__(message)
        self.op = op


@dataclass
class Memory:
    """A memref's contents: row-major bit patterns, addressed as C does
    (loom/addressing.py: an index past an inner extent is fine inside the array)."""
    shape: tuple[int, ...]
    width: int
    data: list[Any]

    def address(self, indices: tuple[Any, ...], op: Operation) -> Address:
        if any(i is POISON for i in indices):
            raise RunError("an address computed from an undefined (poison) value", op)
        at = row_major(indices, self.shape)
        if not at.inside:
            raise RunError(at.out_of_bounds(), op)
        return at


@dataclass
class Budget:
    steps: int
    used: int = field(default=0)

    def tick(self, op: Operation) -> None:
        self.used += 1
        if self.used > self.steps:
            raise RunError(f"no result after {self.steps} loop iterations and branches "
                           "(livelock?)", op)


def width_of(t: Attribute) -> int:
    if isinstance(t, IntegerType):
        return t.width.data
    if isinstance(t, IndexType):
        return INDEX_BITS
    if isinstance(t, AnyFloat) and t.bitwidth in floats.FORMATS:
        return t.bitwidth
    raise RunError(f"values of type {t} are not supported")


def element_bits(value: int | float, t: Attribute) -> int:
    """The pattern of a constant (an attribute's value) of type t: a float's
    IEEE pattern (NaN canonical), an integer's two's complement."""
    w = width_of(t)
    if isinstance(t, AnyFloat):
        return floats.fmt(w).bits(value)
    return int(value) & ((1 << w) - 1)


def to_signed(v: int, w: int) -> int:
    v &= (1 << w) - 1
    return v - (1 << w) if v >> (w - 1) else v


def _is_index(t: Attribute) -> bool:
    return isinstance(t, IndexType)


def _norm(v: int, t: Attribute) -> int:
    """Canonical representation of an integer of type t."""
    w = width_of(t)
    return to_signed(v, w) if _is_index(t) else v & ((1 << w) - 1)


def strays(interp: Interpreter) -> dict[Operation, Address]:
    """Per load/store op, its first index past an inner extent (for a warning)."""
    return interp.get_data(MemrefSemantics, "strays", dict)


def _budget(interp: Interpreter) -> Budget:
    return interp.get_data(ArithSemantics, "budget", lambda: Budget(50_000_000))


def _binary(fn):  # type: ignore[no-untyped-def]
    """An integer binary op: operands as unsigned patterns, result normalised."""
    def run(self: Any, interp: Interpreter, op: Operation, args: PythonValues) -> PythonValues:
        a, b = args
        if a is POISON or b is POISON:
            return (POISON,)
        t = op.results[0].type
        w = width_of(t)
        mask = (1 << w) - 1
        r = fn(a & mask, b & mask, w, op)
        return (POISON,) if r is POISON else (_norm(r, t),)
    return run


def _div_check(b: int, op: Operation) -> None:
    if b == 0:
        raise RunError("division by zero", op)


def _sdiv(a: int, b: int, w: int, op: Operation) -> int:
    _div_check(b, op)
    x, y = to_signed(a, w), to_signed(b, w)
    q = abs(x) // abs(y)
    return q if (x < 0) == (y < 0) else -q


def _srem(a: int, b: int, w: int, op: Operation) -> int:
    _div_check(b, op)
    x, y = to_signed(a, w), to_signed(b, w)
    r = abs(x) % abs(y)
    return -r if x < 0 else r


def _udiv(a: int, b: int, w: int, op: Operation) -> int:
    _div_check(b, op)
    return a // b


def _urem(a: int, b: int, w: int, op: Operation) -> int:
    _div_check(b, op)
    return a % b


def _shl(a: int, b: int, w: int, op: Operation) -> Any:
    return POISON if b >= w else a << b


def _shrui(a: int, b: int, w: int, op: Operation) -> Any:
    return POISON if b >= w else a >> b


def _shrsi(a: int, b: int, w: int, op: Operation) -> Any:
    return POISON if b >= w else to_signed(a, w) >> b


_PREDICATES = {
    0: lambda x, y: x == y, 1: lambda x, y: x != y,
    2: lambda x, y: x < y, 3: lambda x, y: x <= y, 4: lambda x, y: x > y, 5: lambda x, y: x >= y,
    6: lambda x, y: x < y, 7: lambda x, y: x <= y, 8: lambda x, y: x > y, 9: lambda x, y: x >= y,
}


@register_impls
class ArithSemantics(InterpreterFunctions):
    run_addi = impl(arith.AddiOp)(_binary(lambda a, b, w, op: a + b))
    run_subi = impl(arith.SubiOp)(_binary(lambda a, b, w, op: a - b))
    run_muli = impl(arith.MuliOp)(_binary(lambda a, b, w, op: a * b))
    run_andi = impl(arith.AndIOp)(_binary(lambda a, b, w, op: a & b))
    run_ori = impl(arith.OrIOp)(_binary(lambda a, b, w, op: a | b))
    run_xori = impl(arith.XOrIOp)(_binary(lambda a, b, w, op: a ^ b))
    run_divsi = impl(arith.DivSIOp)(_binary(_sdiv))
    run_remsi = impl(arith.RemSIOp)(_binary(_srem))
    run_divui = impl(arith.DivUIOp)(_binary(_udiv))
    run_remui = impl(arith.RemUIOp)(_binary(_urem))
    run_shli = impl(arith.ShLIOp)(_binary(_shl))
    run_shrui = impl(arith.ShRUIOp)(_binary(_shrui))
    run_shrsi = impl(arith.ShRSIOp)(_binary(_shrsi))
    run_minsi = impl(arith.MinSIOp)(_binary(
        lambda a, b, w, op: a if to_signed(a, w) <= to_signed(b, w) else b))
    run_maxsi = impl(arith.MaxSIOp)(_binary(
        lambda a, b, w, op: a if to_signed(a, w) >= to_signed(b, w) else b))
    run_minui = impl(arith.MinUIOp)(_binary(lambda a, b, w, op: min(a, b)))
    run_maxui = impl(arith.MaxUIOp)(_binary(lambda a, b, w, op: max(a, b)))

    @impl(arith.ConstantOp)
    def run_constant(self, interp: Interpreter, op: arith.ConstantOp,
                     args: PythonValues) -> PythonValues:
        value = op.value
        if isinstance(value, FloatAttr):
            return (element_bits(value.value.data, op.result.type),)
        if not isinstance(value, IntegerAttr):
            raise RunError(f"constant {value} is not supported", op)
        return (_norm(int(value.value.data), op.result.type),)

    @impl(arith.CmpiOp)
    def run_cmpi(self, interp: Interpreter, op: arith.CmpiOp,
                 args: PythonValues) -> PythonValues:
        a, b = args
        if a is POISON or b is POISON:
            return (POISON,)
        pred = op.predicate.value.data
        w = width_of(op.lhs.type)
        if pred in (2, 3, 4, 5):
            a, b = to_signed(a, w), to_signed(b, w)
        else:
            a, b = a & ((1 << w) - 1), b & ((1 << w) - 1)
        return (int(_PREDICATES[pred](a, b)),)

    @impl(arith.SelectOp)
    def run_select(self, interp: Interpreter, op: arith.SelectOp,
                   args: PythonValues) -> PythonValues:
        c, t, f = args
        if c is POISON:
            return (POISON,)
        return (t if c else f,)

    @impl(arith.ExtSIOp)
    def run_extsi(self, interp: Interpreter, op: arith.ExtSIOp,
                  args: PythonValues) -> PythonValues:
        (a,) = args
        if a is POISON:
            return (POISON,)
        return (_norm(to_signed(a, width_of(op.input.type)), op.result.type),)

    @impl(arith.ExtUIOp)
    def run_extui(self, interp: Interpreter, op: arith.ExtUIOp,
                  args: PythonValues) -> PythonValues:
        (a,) = args
        return (a,)

    @impl(arith.TruncIOp)
    def run_trunci(self, interp: Interpreter, op: arith.TruncIOp,
                   args: PythonValues) -> PythonValues:
        (a,) = args
        return (POISON,) if a is POISON else (_norm(a, op.result.type),)

    @impl(arith.IndexCastOp)
    def run_index_cast(self, interp: Interpreter, op: arith.IndexCastOp,
                       args: PythonValues) -> PythonValues:
        (a,) = args
        if a is POISON:
            return (POISON,)
        return (_norm(to_signed(a, width_of(op.input.type)), op.result.type),)

    @impl(IndexCastUIOp)
    def run_index_castui(self, interp: Interpreter, op: IndexCastUIOp,
                         args: PythonValues) -> PythonValues:
        (a,) = args
        if a is POISON:
            return (POISON,)
        w = width_of(op.input.type)
        return (_norm(a & ((1 << w) - 1), op.result.type),)

    @impl(ub.PoisonOp)
    def run_poison(self, interp: Interpreter, op: ub.PoisonOp,
                   args: PythonValues) -> PythonValues:
        return (POISON,)


# --- floating point (loom.floats on bit patterns) --------------------------------------


def _fwidth(v: SSAValue) -> int:
    return width_of(v.type)


#: an op's implementation as xDSL's interpreter calls it (self, interp, op, args)
OpImpl = Callable[[Any, Interpreter, Operation, PythonValues], PythonValues]


def _float_op(fn: Callable[[Operation, list[int]], int]) -> OpImpl:
    """A float op: poison in, poison out; else fn(op, operand patterns)."""
    def run(self: Any, interp: Interpreter, op: Operation, args: PythonValues) -> PythonValues:
        if any(a is POISON for a in args):
            return (POISON,)
        return (fn(op, list(args)),)
    return run


def _binary_f(fn: Callable[[int, int, int], int]) -> OpImpl:
    return _float_op(lambda op, ab: fn(_fwidth(op.results[0]), *ab))


def _unary_f(fn: Callable[[int, int], int]) -> OpImpl:
    return _float_op(lambda op, a: fn(_fwidth(op.results[0]), *a))


def _cmpf(op: Operation, ab: list[int]) -> int:
    assert isinstance(op, arith.CmpfOp)
    return floats.cmpf(floats.CMPF_NAMES[op.predicate.value.data], _fwidth(op.lhs), *ab)


def _from_int(is_signed: bool) -> OpImpl:
    return _float_op(lambda op, a: floats.from_int(
        _fwidth(op.results[0]), a[0], _fwidth(op.operands[0]), is_signed))


def _to_int(is_signed: bool) -> OpImpl:
    return _float_op(lambda op, a: floats.to_int(
        _fwidth(op.operands[0]), a[0], _fwidth(op.results[0]), is_signed))


def _convert(op: Operation, a: list[int]) -> int:
    return floats.convert(a[0], _fwidth(op.operands[0]), _fwidth(op.results[0]))


def _bitcast(op: Operation, a: list[int]) -> int:
    """iN <-> fN of one width: the pattern is the value on both sides (an index
    is a signed int here, not a pattern, and MLIR's bitcast takes none)."""
    if any(isinstance(v.type, IndexType) for v in (*op.operands, *op.results)):
        raise RunError("arith.bitcast of an index is not supported", op)
    return a[0]


@register_impls
class FloatSemantics(InterpreterFunctions):
    """arith's float ops, math.absf and math.sqrt: loom.floats on bit patterns."""
    run_addf = impl(arith.AddfOp)(_binary_f(floats.add))
    run_subf = impl(arith.SubfOp)(_binary_f(floats.sub))
    run_mulf = impl(arith.MulfOp)(_binary_f(floats.mul))
    run_divf = impl(arith.DivfOp)(_binary_f(floats.div))
    run_remf = impl(RemFOp)(_binary_f(floats.rem))
    run_minnumf = impl(arith.MinnumfOp)(_binary_f(floats.minnum))
    run_maxnumf = impl(arith.MaxnumfOp)(_binary_f(floats.maxnum))
    run_negf = impl(arith.NegfOp)(_unary_f(floats.neg))
    run_absf = impl(math.AbsFOp)(_unary_f(floats.absf))
    run_sqrt = impl(math.SqrtOp)(_unary_f(floats.sqrt))
    run_cmpf = impl(arith.CmpfOp)(_float_op(_cmpf))
    run_sitofp = impl(arith.SIToFPOp)(_from_int(True))
    run_uitofp = impl(arith.UIToFPOp)(_from_int(False))
    run_fptosi = impl(arith.FPToSIOp)(_to_int(True))
    run_fptoui = impl(arith.FPToUIOp)(_to_int(False))
    run_extf = impl(arith.ExtFOp)(_float_op(_convert))
    run_truncf = impl(arith.TruncFOp)(_float_op(_convert))
    run_bitcast = impl(arith.BitcastOp)(_float_op(_bitcast))


@register_impls
class MemrefSemantics(InterpreterFunctions):
    def _new(self, op: Operation) -> tuple[Memory]:
        t = op.results[0].type
        assert isinstance(t, MemRefType)
        shape = tuple(t.get_shape())
        n = 1
        for d in shape:
            n *= d
        # Fresh local memory is undefined in C; POISON makes reading it an error.
        return (Memory(shape, width_of(t.element_type), [POISON] * n),)

    @impl(memref.AllocaOp)
    def run_alloca(self, interp: Interpreter, op: memref.AllocaOp,
                   args: PythonValues) -> PythonValues:
        return self._new(op)

    @impl(memref.AllocOp)
    def run_alloc(self, interp: Interpreter, op: memref.AllocOp,
                  args: PythonValues) -> PythonValues:
        return self._new(op)

    @impl(memref.GetGlobalOp)
    def run_get_global(self, interp: Interpreter, op: memref.GetGlobalOp,
                       args: PythonValues) -> PythonValues:
        # a constant table (the front end's memref.global for a C const array)
        table = SymbolTable.lookup_symbol(op, op.name_)
        t = op.results[0].type
        if not isinstance(table, GlobalOp) or not isinstance(t, MemRefType) or \
                not isinstance(table.initial_value, DenseIntOrFPElementsAttr):
            raise RunError(f"no constant table @{op.name_.root_reference.data}", op)
        return (Memory(tuple(t.get_shape()), width_of(t.element_type),
                       [element_bits(v, t.element_type)
                        for v in table.initial_value.get_values()]),)

    @impl(memref.DeallocOp)
    def run_dealloc(self, interp: Interpreter, op: memref.DeallocOp,
                    args: PythonValues) -> PythonValues:
        return ()

    @staticmethod
    def _flat(interp: Interpreter, mem: Memory, idx: tuple[Any, ...], op: Operation) -> int:
        at = mem.address(idx, op)
        if at.stray:
            strays(interp).setdefault(op, at)
        return at.flat

    @impl(memref.LoadOp)
    def run_load(self, interp: Interpreter, op: memref.LoadOp,
                 args: PythonValues) -> PythonValues:
        mem, *idx = args
        return (mem.data[self._flat(interp, mem, tuple(idx), op)],)

    @impl(memref.StoreOp)
    def run_store(self, interp: Interpreter, op: memref.StoreOp,
                  args: PythonValues) -> PythonValues:
        value, mem, *idx = args
        if value is POISON:
            raise RunError("storing an undefined (poison) value", op)
        mem.data[self._flat(interp, mem, tuple(idx), op)] = value
        return ()


def _decide(c: Any, op: Operation) -> bool:
    if c is POISON:
        raise RunError("a branch on an undefined (poison) value", op)
    return bool(c)


@register_impls
class ControlSemantics(InterpreterFunctions):
    """scf and cf with typed induction variables, poison checks and a step budget."""

    @impl(scf.ForOp)
    def run_for(self, interp: Interpreter, op: scf.ForOp, args: PythonValues) -> PythonValues:
        lb, ub_, step, *carried = args
        if POISON in (lb, ub_, step):
            raise RunError("loop bounds from an undefined (poison) value", op)
        t = op.lb.type
        w = width_of(t)
        unsigned = "unsignedCmp" in op.properties or "unsignedCmp" in op.attributes
        conv = (lambda v: v & ((1 << w) - 1)) if unsigned else (lambda v: to_signed(v, w))
        i, end, st = conv(lb), conv(ub_), conv(step)
        budget = _budget(interp)
        values = tuple(carried)
        while i < end:
            budget.tick(op)
            values = interp.run_ssacfg_region(op.body, (_norm(i, t), *values), "for")
            i = conv(_norm(i + st, t)) if not _is_index(t) else i + st
        return values

    @impl(scf.WhileOp)
    def run_while(self, interp: Interpreter, op: scf.WhileOp,
                  args: PythonValues) -> PythonValues:
        budget = _budget(interp)
        values = args
        while True:
            budget.tick(op)
            cond, *fwd = interp.run_ssacfg_region(op.before_region, values, "before")
            if not _decide(cond, op):
                return tuple(fwd)
            values = interp.run_ssacfg_region(op.after_region, tuple(fwd), "after")

    @impl(scf.IfOp)
    def run_if(self, interp: Interpreter, op: scf.IfOp, args: PythonValues) -> PythonValues:
        region = op.true_region if _decide(args[0], op) else op.false_region
        if not region.blocks:
            return ()
        return interp.run_ssacfg_region(region, (), "if")

    @impl(scf.IndexSwitchOp)
    def run_switch(self, interp: Interpreter, op: scf.IndexSwitchOp,
                   args: PythonValues) -> PythonValues:
        if args[0] is POISON:
            raise RunError("a switch on an undefined (poison) value", op)
        cases = list(op.cases.get_values())
        region = (op.case_regions[cases.index(args[0])] if args[0] in cases
                  else op.default_region)
        return interp.run_ssacfg_region(region, (), "switch")

    @impl_terminator(scf.YieldOp)
    def run_yield(self, interp: Interpreter, op: scf.YieldOp, args: PythonValues):
        return ReturnedValues(args), ()

    @impl_terminator(scf.ConditionOp)
    def run_condition(self, interp: Interpreter, op: scf.ConditionOp, args: PythonValues):
        return ReturnedValues(args), ()

    @impl_terminator(cf.BranchOp)
    def run_br(self, interp: Interpreter, op: cf.BranchOp, args: PythonValues):
        _budget(interp).tick(op)
        return Successor(op.successor, args), ()

    @impl_terminator(cf.ConditionalBranchOp)
    def run_cond_br(self, interp: Interpreter, op: cf.ConditionalBranchOp, args: PythonValues):
        _budget(interp).tick(op)
        if _decide(args[0], op):
            return Successor(op.then_block, interp.get_values(op.then_arguments)), ()
        return Successor(op.else_block, interp.get_values(op.else_arguments)), ()


__all__ = ["ArithSemantics", "FloatSemantics", "MemrefSemantics", "ControlSemantics", "Memory",
           "POISON", "RunError", "Budget", "InterpretationError"]
