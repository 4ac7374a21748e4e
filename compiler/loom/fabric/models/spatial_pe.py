"""spatial_pe: the active function unit (opcode) sees, on FU input k, the PE
input its mux field selects; its outputs leave on the PE outputs their demux
fields select, or drain (discard). A PE input that a discarding mux selects
is consumed and dropped; a PE input nothing selects is never consumed. A
disabled PE consumes and produces nothing.

The function unit's semantics are the golden op classes (loom.golden.ops),
configured by its payload fields (constant value, cmpi predicate); values
are LSB-aligned in the PE's lanes (truncated to the FU port, zero-extended
back).

Spec: docs/fabric/spatial_pe.md
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass

from loom.fabric.config_layout import CMPI_PREDICATES, CONT_COND_BITS
from loom.fabric.models import Streams
from loom.golden.actor import Actor, drive_actor
from loom.golden.channel import Channel
from loom.golden.ops import arith
from loom.golden.ops.carry import Carry
from loom.golden.ops.cond_br import CondBr
from loom.golden.ops.constant import Constant
from loom.golden.ops.gate import Gate
from loom.golden.ops.invariant import Invariant
from loom.golden.ops.load import Load, Store
from loom.golden.ops.stream import Stream

_BINARY = {"arith.addi": arith.AddI, "arith.subi": arith.SubI, "arith.andi": arith.AndI,
           "arith.ori": arith.OrI, "arith.xori": arith.XOrI, "arith.muli": arith.MulI}
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


@dataclass(frozen=True)
class FuModel:
    """One single-op function unit: its op, port widths (0: none) and actor."""

    op: str
    in_widths: tuple[int, ...]
    out_widths: tuple[int, ...]
    step_op: str = "+="
    """dataflow.stream's step (a body attribute, not configured)."""

    def actor(self, payload: Mapping[str, int]) -> Actor:
        w = self.out_widths[0]
        if self.op in _BINARY:
            return _BINARY[self.op](w)
        if self.op in _CAST:
            return _CAST[self.op](self.in_widths[0], w)
        if self.op in _DATAFLOW:
            return _DATAFLOW[self.op]()
        if self.op == "dataflow.stream":
            cond = {bit: c for c, bit in CONT_COND_BITS.items()}[payload.get("fu.0.value", 1)]
            return Stream(self.step_op, cond, self.in_widths[0])
        if self.op == "handshake.join":
            return MaskedJoin(len(self.in_widths), payload.get("fu.0.value", 0))
        if self.op == "arith.cmpi":
            return arith.CmpI(CMPI_PREDICATES[payload.get("fu.0.value", 0)], self.in_widths[0])
        if self.op == "arith.select":
            return arith.Select(w)
        if self.op == "handshake.constant":
            return Constant(payload.get("fu.0.value", 0))
        if self.op == "handshake.cond_br":
            return CondBr()
        if self.op == "handshake.load":
            return Load()
        if self.op == "handshake.store":
            return Store()
        raise ValueError(f"no reference model for {self.op}")


def _to_fu(x: int, width: int) -> int | None:
    return None if width == 0 else x & ((1 << width) - 1)


def spatial_pe(fields: Mapping[str, int], inputs: Sequence[Sequence[int]], n_out: int,
               fus: Sequence[FuModel]) -> Streams:
    n_in = len(inputs)
    none = Streams([[] for _ in range(n_out)], [0] * n_in)
    if not fields.get("enable", 0):
        return none
    fu = fus[fields.get("opcode", 0)]
    consumed = [0] * n_in
    fu_inputs: list[list[int | None]] = []
    for k, width in enumerate(fu.in_widths):
        if fields.get(f"in{k}.disconnect", 0) or fields.get(f"in{k}.discard", 0):
            fu_inputs.append([])
            continue
        src = fields.get(f"in{k}.sel", 0)
        fu_inputs.append([_to_fu(x, width) for x in inputs[src]])
    payload = {k: v for k, v in fields.items() if k.startswith("fu.")}
    outs, taken = drive_actor(fu.actor(payload), fu_inputs)
    for k in range(len(fu.in_widths)):
        if fu_inputs[k]:
            consumed[fields.get(f"in{k}.sel", 0)] = taken[k]
    # a discarding mux field drains the PE input it selects
    k = 0
    while f"in{k}.discard" in fields or f"in{k}.sel" in fields or k < len(fu.in_widths):
        if fields.get(f"in{k}.discard", 0) and not fields.get(f"in{k}.disconnect", 0):
            src = fields.get(f"in{k}.sel", 0)
            consumed[src] = len(inputs[src])
        k += 1
    outputs: list[list[int]] = [[] for _ in range(n_out)]
    for r, stream in enumerate(outs):
        if fields.get(f"out{r}.discard", 0) or fields.get(f"out{r}.disconnect", 0):
            continue
        outputs[fields.get(f"out{r}.sel", 0)] = [0 if x is None else int(x) for x in stream]
    return Streams(outputs, consumed)


FuModels = Sequence[FuModel]
MakeActor = Callable[[Mapping[str, int]], Actor]
