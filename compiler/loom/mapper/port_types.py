"""Which software value may use which hardware port: the mapper's width rule.

Widths (the correction). LOOM lets a software value of width w use a
hardware port of width W >= w: the fabric aligns values at bit 0 and
zero-extends or truncates. That is exact only where the op reads just the
low w bits of the operand. It is wrong wherever the op reads the value as
a number: a signed op on a zero-extended value loses the sign (cmpi slt,
divsi, remsi, shrsi, extsi), and on a 64-bit unit the result of a
narrower addi or subi keeps its carry out (0 - 1 in i32 is 2^64 - 1 on
the wire, not 2^32 - 1), so even cmpi eq, divui or shrui read bits that
the software value does not have. Rule: an operand the op reads as a
number (NUMERIC below: every operand of compares, divisions,
remainders, right shifts, extensions, casts and streams; every shift
amount; every select, mux and branch condition) needs the exact width, so
the unit's port truncates it to w bits; an operand whose low w result
bits depend only on its low w bits (add, sub, mul, logic, shift value,
trunci, data through select, mux, branches, carry, gate, invariant, store
data) and every result may be narrower than the port. `index` matches
only `index`, floats only the same float; a `none` token may use any
port where the width may differ (LOOM: width 0), else only `none`.

Kinds. An op that only moves a value (MOVES: a branch's, mux's or
select's data, a carry, gate or invariant value, a load's or store's data,
a constant) never reads it as a number, so a float value may use an
integer port there, under the width rule (LOOM compares widths only): the
bits pass unchanged, and the float unit that reads them has a float port.
"""

from __future__ import annotations

from xdsl.dialects.builtin import (
    Float16Type,
    Float32Type,
    Float64Type,
    IndexType,
    IntegerType,
    MemRefType,
    NoneType,
)
from xdsl.ir import Attribute

from loom.dialects.channel_types import ChannelType, ControlType
from loom.dialects.fabric_types import BitsType, TaggedType, scalar_width

LOW_BITS = {
    # op -> operands whose low w result bits depend only on their low w bits
    "arith.addi": (0, 1), "arith.subi": (0, 1), "arith.muli": (0, 1),
    "arith.andi": (0, 1), "arith.ori": (0, 1), "arith.xori": (0, 1),
    "arith.shli": (0,), "arith.trunci": (0,), "arith.select": (1, 2),
    "handshake.cond_br": (1,), "handshake.mux": None, "handshake.join": None,
    "handshake.constant": (0,), "handshake.store": (1,), "handshake.load": (1,),
    "dataflow.carry": (1, 2), "dataflow.gate": (0,), "dataflow.invariant": (1,),
}
"""Operands that may use a wider hardware port (None: every operand but the first
for mux, whose operand 0 is the select; every operand for join)."""


MOVES: dict[str, tuple[tuple[int, ...] | None, tuple[int, ...] | None]] = {
    "handshake.cond_br": ((1,), None), "handshake.mux": (None, None),
    "arith.select": ((1, 2), None), "dataflow.carry": ((1, 2), None),
    "dataflow.gate": ((0,), (0,)), "dataflow.invariant": ((1,), None),
    "handshake.load": ((1,), (0,)), "handshake.store": ((1,), (0,)),
    "handshake.constant": ((), None),
}
"""Ops that move a value without reading it: (its operands, its results);
None: every result, or for mux every operand but the select."""


def moved(op_name: str, operand: int | None = None, result: int | None = None) -> bool:
    """Whether `op_name` only moves its operand (or result) of that index."""
    if op_name not in MOVES:
        return False
    operands, results = MOVES[op_name]
    if result is not None:
        return results is None or result in results
    if operands is None:   # mux: every data operand
        return operand is not None and operand > 0
    return operand in operands


def low_bit_operands(op_name: str, count: int) -> frozenset[int]:
    if op_name not in LOW_BITS:
        return frozenset()  # NUMERIC: every operand exact
    chosen = LOW_BITS[op_name]
    if chosen is None:
        return frozenset(range(1 if op_name == "handshake.mux" else 0, count))
    return frozenset(chosen)


def value_type(t: Attribute) -> Attribute:
    """The value type of a DFG edge (channel<T> -> T, control -> none)."""
    if isinstance(t, ChannelType):
        return t.data_type  # type: ignore[attr-defined]
    if isinstance(t, ControlType):
        return NoneType()
    return t


def kind_width(t: Attribute) -> tuple[str, int] | None:
    match t:
        case NoneType():
            return "none", 0
        case IndexType():
            return "index", 0
        case IntegerType() | BitsType():
            return "int", t.width.data
        case Float16Type():
            return "f16", 16
        case Float32Type():
            return "f32", 32
        case Float64Type():
            return "f64", 64
        case _:
            return None


def fits(sw: Attribute, hw: Attribute, exact: bool, moves: bool = False) -> bool:
    """Whether a software value of type `sw` may use a hardware port of type
    `hw`; `moves`: the op only moves the value (MOVES)."""
    if isinstance(hw, TaggedType):
        return False  # function unit ports are native (the verifier's rule)
    s, h = kind_width(value_type(sw)), kind_width(hw)
    if s is None or h is None:
        return False
    if s[0] == "none" and not exact:
        return True  # a bare token (width 0) rides any port; its data is ignored
    if moves and s[0].startswith("f") and h[0] == "int":
        s = ("int", s[1])   # a float's bits through a unit that does not read them
    if s[0] != h[0]:
        return False
    return s[1] == h[1] if exact else s[1] <= h[1]


def boundary_fits(sw: Attribute, hw: Attribute) -> bool:
    """Whether a scalar argument or result may use a module port (LOOM's
    rule: the software width fits the port's; tagged ports carry no scalars)."""
    if isinstance(hw, TaggedType) or isinstance(sw, MemRefType):
        return False
    s, h = scalar_width(value_type(sw)), scalar_width(hw)
    return s is not None and h is not None and s <= h


__all__ = ["LOW_BITS", "MOVES", "boundary_fits", "fits", "kind_width", "low_bit_operands", "moved",
           "value_type"]
