"""What the mapper reads of a DFG op: which ops it places, which become
routing or discard, their attributes, and how a diagnosis names them.

Forks and buffers are routing nets, not ops (LOOM's C11: only switches fan
out); sinks are discard; memories bind to memories (memory_binding.py).
"""

from __future__ import annotations

from xdsl.dialects.builtin import IntegerAttr, StringAttr
from xdsl.ir import Attribute, Block, Operation

from loom.fabric import config_layout as cl
from loom.mapper.port_types import value_type

ROUTING_OPS = frozenset({"handshake.fork", "handshake.lazy_fork", "handshake.buffer"})
"""DFG ops that become parts of routing nets."""
DISCARD_OPS = frozenset({"handshake.sink"})
"""DFG ops that are discard semantics: an unconsumed output."""
MEMORY_OPS = frozenset({"handshake.extmemory", "handshake.memory"})
NOT_MAPPED = ROUTING_OPS | DISCARD_OPS | MEMORY_OPS | {"handshake.return"}

COMMUTATIVE = frozenset({"arith.addi", "arith.addf", "arith.muli", "arith.mulf",
                         "arith.andi", "arith.ori", "arith.xori"})



def attr_int(op: Operation, name: str) -> int | None:
    """An integer property or attribute of a DFG op (None: absent)."""
    attr = op.properties.get(name, op.attributes.get(name))
    return attr.value.data if isinstance(attr, IntegerAttr) else None


def attr_str(op: Operation, name: str) -> str | None:
    attr = op.properties.get(name, op.attributes.get(name))
    return attr.data if isinstance(attr, StringAttr) else None


def predicate(op: Operation) -> str | None:
    """A cmpi or cmpf op's predicate by name (None: no predicate)."""
    attr = op.properties.get("predicate", op.attributes.get("predicate"))
    if isinstance(attr, IntegerAttr):
        table = cl.CMPI_PREDICATES if op.name == "arith.cmpi" else cl.CMPF_PREDICATES
        return table[attr.value.data]
    return None


def memref_type(op: Operation) -> Attribute | None:
    """A DFG memory's memref type (an extmemory's operand, a memory's mem_type)."""
    if op.name == "handshake.extmemory":
        return op.operands[0].type
    return op.properties.get("mem_type", op.attributes.get("mem_type"))


def describe(op: Operation) -> str:
    """`arith.cmpi slt (i32, i32) -> i1`: what a diagnosis names; a memory by
    its lane counts and memref type (which decide the memories that fit; its
    port list grows with its lanes)."""
    pred = predicate(op)
    head = f"{op.name} {pred}" if pred is not None else op.name
    if op.name in MEMORY_OPS:
        lanes = f"[ld = {attr_int(op, 'ld_count') or 0}, st = {attr_int(op, 'st_count') or 0}]"
        return f"{head}{lanes} of {memref_type(op)}"
    ins = ", ".join(str(value_type(v.type)) for v in op.operands)
    outs = ", ".join(str(value_type(r.type)) for r in op.results)
    return f"{head} ({ins}) -> ({outs})"


def mapped_ops(body: Block) -> list[Operation]:
    """The DFG ops that need a function unit (forks, buffers, sinks, memories,
    return excluded), in body order."""
    return [op for op in body.ops if op.name not in NOT_MAPPED]


__all__ = ["COMMUTATIVE", "DISCARD_OPS", "MEMORY_OPS", "NOT_MAPPED", "ROUTING_OPS",
           "attr_int", "attr_str", "describe", "mapped_ops", "memref_type", "predicate"]
