"""Function-unit helpers of the ADG builder (LOOM's define*FU, ADGBuilderCore.cpp).

Each helper returns a `FunctionUnit`: a name, native port types, a body in
LOOM's textual syntax (arguments `%arg0..`) and its timing. Latency and
interval default to 1/1; the four dataflow units (stream, gate, carry,
invariant) are -1/-1, as seed 001 and LOOM's timing rule require. The body
is what the PE definition prints, so a unit is exactly what a designer
would hand-write; the dialect verifies it when the ADG is parsed back.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from loom.diagnostics import LoomError
from loom.floats import CMPF_NAMES
from loom.golden.ops.arith import PREDICATE_NAMES

MAX_JOIN_FANIN = 64
"""LOOM's largest hardware join (the join_mask field's limit)."""

CMPI_PREDICATES = PREDICATE_NAMES


@dataclass(frozen=True)
class FunctionUnit:
    """A `fabric.function_unit` definition."""

    name: str
    inputs: tuple[str, ...]
    outputs: tuple[str, ...]
    body: tuple[str, ...]
    """Body lines, the last one the `fabric.yield`."""
    latency: int = 1
    interval: int = 1

    def render(self, indent: str) -> list[str]:
        args = ", ".join(f"%arg{i}: {t}" for i, t in enumerate(self.inputs))
        outs = f" -> ({', '.join(self.outputs)})" if self.outputs else ""
        head = (f"{indent}fabric.function_unit @{self.name}({args}){outs} "
                f"[latency = {self.latency}, interval = {self.interval}] {{")
        return [head, *(f"{indent}  {line}" for line in self.body), f"{indent}}}"]


def _yield(values: Sequence[str], types: Sequence[str]) -> str:
    return f"fabric.yield {', '.join(values)} : {', '.join(types)}"


_MUX_FLAGS = "{sel = 0 : i64, discard = false, disconnect = false}"


def _unit(name: str, ins: Sequence[str], outs: Sequence[str], op_line: str,
          latency: int, interval: int) -> FunctionUnit:
    results = ["%0"] if len(outs) == 1 else [f"%{i}" for i in range(len(outs))]
    return FunctionUnit(name, tuple(ins), tuple(outs),
                        (f"{', '.join(results)} = {op_line}", _yield(results, outs)),
                        latency, interval)


def binary(name: str, op: str, type_: str, result: str | None = None,
           latency: int = 1, interval: int = 1, constant_rhs: bool = False) -> FunctionUnit:
    """`op` on two operands of `type_` (arith.addi, arith.divsi, ...); with
    `constant_rhs`, the right one may be a constant of the unit (_rhs)."""
    out = result or type_
    inputs, lines, rhs = _rhs(type_, constant_rhs)
    return FunctionUnit(name, inputs, (out,),
                        (*lines, f"%0 = {op} %arg0, {rhs} : {out}", _yield(["%0"], [out])),
                        latency, interval)


def _rhs(type_: str, constant: bool) -> tuple[tuple[str, ...], list[str], str]:
    """(unit inputs, leading body lines, the right operand's name) of a binary
    unit: `%arg1`, or with `constant`, `%rhs`: by a fabric.mux (body op 1)
    either the second input or a handshake.constant (body op 0) fired by a
    third, `none` input. A constant operand then costs a config field, not
    a PE of its own (LOOM's compound unit; mapper/contraction.py folds it)."""
    if not constant:
        return (type_, type_), [], "%arg1"
    return (type_, type_, "none"), [
        f"%c = handshake.constant %arg2 {{value = 0 : {type_}}} : {type_}",
        f"%rhs = fabric.mux %arg1, %c {_MUX_FLAGS} : {type_}, {type_} -> {type_}"], "%rhs"


def configurable(name: str, ops: Sequence[str], type_: str, constant_rhs: bool = False,
                 latency: int = 1, interval: int = 1) -> FunctionUnit:
    """Binary `ops` on the same two operands of `type_`, a `fabric.mux` picking
    the one the config wants (LOOM's configurable function unit): the
    mapper's tech-map sets the mux's sel, the fabric RTL builds the ops that
    share a datapath (the four divisions) as one unit. With `constant_rhs`
    the right operand may be a constant of the unit (_rhs)."""
    inputs, lines, rhs = _rhs(type_, constant_rhs)
    lines += [f"%{k} = {op} %arg0, {rhs} : {type_}" for k, op in enumerate(ops)]
    picked = f"%{len(ops)}"
    results = ", ".join(f"%{k}" for k in range(len(ops)))
    lines.append(f"{picked} = fabric.mux {results} {_MUX_FLAGS} : "
                 f"{', '.join([type_] * len(ops))} -> {type_}")
    lines.append(_yield([picked], [type_]))
    return FunctionUnit(name, inputs, (type_,), tuple(lines), latency, interval)


def unary(name: str, op: str, type_: str, latency: int = 1, interval: int = 1) -> FunctionUnit:
    """A one-operand op whose result has the operand's type."""
    return _unit(name, [type_], [type_], f"{op} %arg0 : {type_}", latency, interval)


def cast(name: str, op: str, from_type: str, to_type: str,
         latency: int = 1, interval: int = 1) -> FunctionUnit:
    """arith.extsi / extui / trunci / index_cast / index_castui from one type to another."""
    return _unit(name, [from_type], [to_type], f"{op} %arg0 : {from_type} to {to_type}",
                 latency, interval)


def index_cast(name: str, from_type: str, to_type: str = "index",
               latency: int = 1, interval: int = 1) -> FunctionUnit:
    return cast(name, "arith.index_cast", from_type, to_type, latency, interval)


def cmpf(name: str, type_: str, predicate: str = "oeq",
         latency: int = 1, interval: int = 1) -> FunctionUnit:
    """arith.cmpf; the predicate is a config field, the body's value only a hint."""
    return _compare(name, "cmpf", CMPF_NAMES, type_, predicate, latency, interval)


def cmpi(name: str, type_: str, predicate: str = "eq",
         latency: int = 1, interval: int = 1, constant_rhs: bool = False) -> FunctionUnit:
    """arith.cmpi; the predicate is a config field, the body's value only a
    hint; with `constant_rhs`, the right operand may be a constant (_rhs)."""
    return _compare(name, "cmpi", CMPI_PREDICATES, type_, predicate, latency, interval,
                    constant_rhs)


def _compare(name: str, op: str, predicates: Sequence[str], type_: str, predicate: str,
             latency: int, interval: int, constant_rhs: bool = False) -> FunctionUnit:
    if predicate not in predicates:
        raise LoomError(f"{op} unit {name}: unknown predicate '{predicate}'")
    inputs, lines, rhs = _rhs(type_, constant_rhs)
    return FunctionUnit(name, inputs, ("i1",), (
        *lines, f"%0 = arith.{op} {predicate}, %arg0, {rhs} : {type_}", _yield(["%0"], ["i1"])),
        latency, interval)


def select(name: str, type_: str, latency: int = 1, interval: int = 1) -> FunctionUnit:
    return _unit(name, ["i1", type_, type_], [type_], f"arith.select %arg0, %arg1, %arg2 : {type_}",
                 latency, interval)


def constant(name: str, type_: str, value: int = 0,
             latency: int = 1, interval: int = 1) -> FunctionUnit:
    """handshake.constant fired by a `none` token; the value is a config field."""
    return _unit(name, ["none"], [type_],
                 f"handshake.constant %arg0 {{value = {value} : {type_}}} : {type_}",
                 latency, interval)


def join(name: str, fanin: int, type_: str = "none",
         latency: int = 1, interval: int = 1) -> FunctionUnit:
    """handshake.join of `fanin` inputs (1..64); a smaller software join uses join_mask."""
    if not 1 <= fanin <= MAX_JOIN_FANIN:
        raise LoomError(f"join unit {name}: fan-in {fanin} is outside 1..{MAX_JOIN_FANIN}")
    args = ", ".join(f"%arg{i}" for i in range(fanin))
    return _unit(name, [type_] * fanin, ["none"],
                 f"handshake.join {args} : {', '.join([type_] * fanin)}", latency, interval)


def load(name: str, addr_type: str, data_type: str,
         latency: int = 1, interval: int = 1) -> FunctionUnit:
    """handshake.load: (addr, data from memory, ctrl) -> (data, addr to memory)."""
    return _unit(name, [addr_type, data_type, "none"], [data_type, addr_type],
                 f"handshake.load [%arg0] %arg1, %arg2 : {addr_type}, {data_type}",
                 latency, interval)


def store(name: str, addr_type: str, data_type: str,
          latency: int = 1, interval: int = 1) -> FunctionUnit:
    """handshake.store: (addr, data, ctrl) -> (data to memory, addr to memory)."""
    return _unit(name, [addr_type, data_type, "none"], [data_type, addr_type],
                 f"handshake.store [%arg0] %arg1, %arg2 : {addr_type}, {data_type}",
                 latency, interval)


def mux(name: str, type_: str, select_type: str = "index",
        latency: int = 1, interval: int = 1) -> FunctionUnit:
    """Two-way handshake.mux (runtime select, consumes the chosen input only)."""
    return _unit(name, [select_type, type_, type_], [type_],
                 f"handshake.mux %arg0 [%arg1, %arg2] : {select_type}, {type_}",
                 latency, interval)


def cond_br(name: str, type_: str, latency: int = 1, interval: int = 1) -> FunctionUnit:
    return _unit(name, ["i1", type_], [type_, type_], f"handshake.cond_br %arg0, %arg1 : {type_}",
                 latency, interval)


def cond_br_pair(name: str, type_: str, latency: int = 1, interval: int = 1) -> FunctionUnit:
    """Two handshake.cond_br on one condition (its first input) steering two
    values (LOOM's compound unit of two ops): the outputs are the first's
    true and false, then the second's. The two fire independently; the
    condition goes to both (a fork inside the unit). A loop's condition
    steers every value the loop carries, so a kernel's branches come in
    groups on one condition, and a pair takes one PE where two took two
    (mapper/contraction.py pairs them)."""
    return FunctionUnit(name, ("i1", type_, type_), (type_,) * 4, (
        f"%0, %1 = handshake.cond_br %arg0, %arg1 : {type_}",
        f"%2, %3 = handshake.cond_br %arg0, %arg2 : {type_}",
        _yield(["%0", "%1", "%2", "%3"], [type_] * 4)), latency, interval)


def stream(name: str, type_: str = "index", step_op: str = "+=",
           cont_cond: str = "<") -> FunctionUnit:
    """dataflow.stream (start, step, bound) -> (index, continue); -1/-1 (seed 001)."""
    return _unit(name, [type_] * 3, [type_, "i1"],
                 f'dataflow.stream %arg0, %arg1, %arg2 {{step_op = "{step_op}", '
                 f'cont_cond = "{cont_cond}"}} : ({type_}, {type_}, {type_}) -> ({type_}, i1)',
                 -1, -1)


def gate(name: str, type_: str) -> FunctionUnit:
    return _unit(name, [type_, "i1"], [type_, "i1"],
                 f"dataflow.gate %arg0, %arg1 : {type_}, i1 -> {type_}, i1", -1, -1)


def carry(name: str, type_: str) -> FunctionUnit:
    return _unit(name, ["i1", type_, type_], [type_],
                 f"dataflow.carry %arg0, %arg1, %arg2 : i1, {type_}, {type_} -> {type_}", -1, -1)


def invariant(name: str, type_: str) -> FunctionUnit:
    return _unit(name, ["i1", type_], [type_],
                 f"dataflow.invariant %arg0, %arg1 : i1, {type_} -> {type_}", -1, -1)


def raw(name: str, inputs: Sequence[str], outputs: Sequence[str], body: str,
        latency: int = 1, interval: int = 1) -> FunctionUnit:
    """A unit whose body is MLIR text (LOOM's defineFUWithBody), ending in fabric.yield."""
    lines = tuple(line.strip() for line in body.strip().splitlines() if line.strip())
    if not lines or not lines[-1].startswith("fabric.yield"):
        raise LoomError(f"function unit {name}: the body must end with fabric.yield")
    return FunctionUnit(name, tuple(inputs), tuple(outputs), lines, latency, interval)


__all__ = [
    "CMPI_PREDICATES", "FunctionUnit", "MAX_JOIN_FANIN", "binary", "carry", "cast", "cmpf",
    "cmpi", "configurable", "cond_br", "cond_br_pair", "constant", "gate", "index_cast",
    "invariant", "join", "load", "mux", "raw", "select", "stream", "store", "unary",
]
