"""function_unit: one single-op unit as a spatial PE runs it: the golden op
class of its op (loom.golden.ops), configured by its payload field
(`fu_field(0, "value")`: constant value, cmpi and cmpf predicate, stream cont_cond,
join mask); or a configurable unit (fabric.function_units.configurable: the
presets' ALU and divider), the golden op class of the op its fabric.mux
selects; or a pair of branches (fabric.function_units.cond_br_pair), two
golden cond_br on one condition.

Spec: docs/fabric/function_unit.md
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, replace

from loom.fabric.config_layout import CMPF_PREDICATES, CMPI_PREDICATES, CONT_COND_BITS, fu_field
from loom.golden.actor import Actor
from loom.golden.build import BINARY_CLASSES, float_actor
from loom.golden.channel import Channel
from loom.golden.ops import arith, arith_float
from loom.golden.ops.carry import Carry
from loom.golden.ops.cond_br import CondBr
from loom.golden.ops.constant import Constant
from loom.golden.ops.gate import Gate
from loom.golden.ops.invariant import Invariant
from loom.golden.ops.load import Load, Store
from loom.golden.ops.stream import Stream
from loom.golden.rules import Rule, ready, rule

PAYLOAD = fu_field(0, "value")
"""The payload field of a single-op unit (its op is body op 0)."""

_CAST = {"arith.extsi": arith.ExtSI, "arith.extui": arith.ExtUI, "arith.trunci": arith.TruncI}
_DATAFLOW = {"dataflow.gate": Gate, "dataflow.carry": Carry, "dataflow.invariant": Invariant}


class MaskedJoin(Actor):
    """A hardware join whose mask leaves some inputs out: they take no part."""

    n_out = 1

    def __init__(self, n: int, mask: int):
        self.n_in, self.mask = n, mask

    def fire(self, ins: Sequence[Channel], outs: Sequence[Channel]) -> bool:
        taking = [ch for k, ch in enumerate(ins) if self.mask >> k & 1]
        if not taking or any(not ch.q for ch in taking):
            return False
        for ch in taking:
            ch.pop()
        outs[0].push(None)
        return True


class _ConstantRhsUnit(Actor):
    """A binary op in a constant_rhs unit, which has a third input (the
    constant's trigger); the op's rules read its fields as self.<name>."""

    n_in, n_out = 3, 1

    def __init__(self, inner: Actor):
        self.inner = inner

    def __getattr__(self, name: str):
        return getattr(self.__dict__["inner"], name)


class TriggerUnused(_ConstantRhsUnit):
    """The rhs mux at sel 0: the op on inputs 0 and 1; input 2 takes no part."""

    def rules(self) -> list[Rule]:
        return self.inner.rules()


class ConstantRhs(_ConstantRhsUnit):
    """The rhs mux at sel 1: the op on input 0 and the configured constant,
    fired with the constant's trigger (input 2); input 1 takes no part."""

    def __init__(self, inner: Actor, value: int):
        super().__init__(inner)
        self.value = value & getattr(inner, "mask", -1)

    def rules(self) -> list[Rule]:
        return [rule(ready([0, 2]), "a = pop0()", "pop2()", "b = self.value",
                     f"push0({self.inner.expr})")]  # type: ignore[attr-defined]


class CondBrPair(Actor):
    """Two cond_br on one condition (input 0) steering inputs 1 and 2 to
    outputs 0/1 and 2/3. Each half fires on its own; the condition token
    leaves when both have taken it (an eager fork inside the unit), so one
    half runs at most one token ahead of the other."""

    n_in, n_out = 3, 4

    def __init__(self) -> None:
        self.taken = [False, False]

    def fire(self, ins: Sequence[Channel], outs: Sequence[Channel]) -> bool:
        cond = ins[0]
        if not cond.q:
            return False
        if all(self.taken):
            cond.pop()
            self.taken = [False, False]
            return True
        for half in (0, 1):
            if not self.taken[half] and ins[1 + half].q:
                value = ins[1 + half].pop()
                outs[2 * half + (0 if cond.q[0] else 1)].push(value)
                self.taken[half] = True
                return True
        return False


def _from_op(payload: Mapping[str, int], first: int) -> dict[str, int]:
    """The fields of body ops `first` and on, numbered as if they began the body."""
    fields = {}
    for key, value in payload.items():
        _, index, part = key.split(".", 2)   # fu_field's fu.<op_index>.<part>
        if int(index) >= first:
            fields[fu_field(int(index) - first, part)] = value
    return fields


@dataclass(frozen=True)
class FuModel:
    """One single-op function unit: its op, port widths (0: none) and actor."""

    op: str
    in_widths: tuple[int, ...]
    out_widths: tuple[int, ...]
    step_op: str = "+="
    """dataflow.stream's step (a body attribute, not configured)."""
    choices: tuple[str, ...] = ()
    """A configurable unit's ops, in body order (`op` is then its name): the
    fabric.mux after them (body op len(choices)) picks one by its sel."""
    constant_rhs: bool = False
    """The unit's right operand is, by the fabric.mux of body op 1, its
    second input (sel 0) or the constant of body op 0 fired by its third
    input (sel 1); its op (or ops and their mux) follow (function_units._rhs)."""
    paired: bool = False
    """Two cond_br on one condition (function_units.cond_br_pair)."""

    def actor(self, payload: Mapping[str, int]) -> Actor:
        if self.paired:
            return CondBrPair()
        if self.constant_rhs:
            # the op's own fields are two body ops on: renumbered, it is the plain unit
            plain = replace(self, in_widths=self.in_widths[:2],
                            constant_rhs=False).actor(_from_op(payload, 2))
            if payload.get(fu_field(1, "sel"), 0) == 1:
                return ConstantRhs(plain, payload.get(fu_field(0, "value"), 0))
            return TriggerUnused(plain)
        if self.choices:
            sel = payload.get(fu_field(len(self.choices), "sel"), 0)
            return replace(self, op=self.choices[sel], choices=()).actor({})
        w = self.out_widths[0]
        if self.op.removeprefix("arith.") in BINARY_CLASSES:
            return BINARY_CLASSES[self.op.removeprefix("arith.")](w)
        if self.op in _CAST:
            return _CAST[self.op](self.in_widths[0], w)
        if self.op in _DATAFLOW:
            return _DATAFLOW[self.op]()
        if self.op == "dataflow.stream":
            cond = {bit: c for c, bit in CONT_COND_BITS.items()}[payload.get(PAYLOAD, 1)]
            return Stream(self.step_op, cond, self.in_widths[0])
        if self.op == "handshake.join":
            return MaskedJoin(len(self.in_widths), payload.get(PAYLOAD, 0))
        if self.op == "arith.cmpf":
            return arith_float.CmpF(CMPF_PREDICATES[payload.get(PAYLOAD, 0)], self.in_widths[0])
        if self.op == "arith.cmpi":
            return arith.CmpI(CMPI_PREDICATES[payload.get(PAYLOAD, 0)], self.in_widths[0])
        if self.op == "arith.select":
            return arith.Select(w)
        if self.op == "handshake.constant":
            return Constant(payload.get(PAYLOAD, 0))
        if self.op == "handshake.cond_br":
            return CondBr()
        if self.op == "handshake.load":
            return Load()
        if self.op == "handshake.store":
            return Store()
        if (actor := float_actor(self.op.split(".", 1)[1], self.in_widths[0], w)) is not None:
            return actor
        raise ValueError(f"no reference model for {self.op}")
