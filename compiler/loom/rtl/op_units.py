"""Which RTL unit implements each DFG op, with which parameters and port lanes.

One rule per op kind: the unit family and its parameters (from the op's
attributes and edge types), and where each operand and result lands on the
unit's ports, as (port, lane); lane None for a scalar port.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from xdsl.dialects.builtin import AnyFloat, IntegerAttr, MemRefType
from xdsl.ir import Operation

from loom.dfg_names import op_kind
from loom.diagnostics import LoomError, Location
from loom.dialects.channel_types import data_width
from loom.dialects.handshake_memory import LoadStoreQueueOp, memory_init
from loom.floats import CMPF_NAMES
from loom.golden.ops.arith import PREDICATE_NAMES
from loom.ir import op_location
from loom.rtl.units import (FLOAT_ARITH_TEMPLATES, FLOAT_CONVERT_OPS, FLOAT_MINMAX_OPS,
                            FLOAT_SIGN_OPS)

Lane = tuple[str, int | None]
INDEX_BITS = 64


@dataclass
class OpUnit:
    family: str
    params: dict[str, Any]
    ins: list[Lane]          # per token operand (memref operands excluded)
    outs: list[Lane]         # per result


def _w(v) -> int:
    return data_width(v.type)


def _lanes(port: str, n: int) -> list[Lane]:
    return [(port, i) for i in range(n)]


def _prop(op: Operation, name: str) -> Any:
    attr = op.properties.get(name)
    if attr is None:
        attr = op.attributes.get(name)
    return attr.value.data if isinstance(attr, IntegerAttr) else getattr(attr, "data", attr)


_BINARY = {"addi", "subi", "andi", "ori", "xori", "shli", "shrsi", "shrui",
           "minsi", "maxsi", "minui", "maxui", "muli", "divsi", "divui", "remsi", "remui"}
_CASTS = {"extsi", "extui", "trunci", "index_cast", "index_castui"}


def _port_lanes(ld: int, st: int, rank: int) -> list[Lane]:
    """A memory interface's port operands (seed 000: per store its data and
    addresses, then per load its addresses) as unit lanes."""
    ins: list[Lane] = []
    for s in range(st):
        ins += [("st_data", s)] + [("st_addr", s * rank + k) for k in range(rank)]
    for j in range(ld):
        ins += [("ld_addr", j * rank + k) for k in range(rank)]
    return ins


def _memory(op: Operation, filename: str) -> OpUnit:
    ld, st = _prop(op, "ld_count"), _prop(op, "st_count")
    mem_type = op.operands[0].type if op.name == "handshake.extmemory" else _prop(op, "mem_type")
    assert isinstance(mem_type, MemRefType)
    shape = tuple(mem_type.get_shape())
    if any(d < 1 for d in shape):   # `?`: the RTL memory's depth is its extents' product
        raise LoomError(f"{op.name} of {mem_type}: the RTL memory needs every extent known; "
                        "give the memref its size (memref<256xi32>)",
                        op_location(op) or Location(filename))
    ins = _port_lanes(ld, st, len(shape))
    outs = _lanes("ld_data", ld) + _lanes("st_done", st) + _lanes("ld_done", ld)
    family = "extmemory" if op.name == "handshake.extmemory" else "memory"
    params = dict(ld=ld, st=st, shape=shape, w=data_width(mem_type.element_type), aw=INDEX_BITS)
    table = memory_init(op)
    if table is not None:   # a constant table: a ROM
        params["init"] = tuple(table)
    return OpUnit(family, params, ins, outs)


def _queue(op: LoadStoreQueueOp) -> OpUnit:
    """A load-store queue: the memory's port lanes, then allocations and fence."""
    ld, st = op.num_loads, op.num_stores
    mem_type = op.memref_type()
    shape = tuple(mem_type.get_shape())
    groups = op.groups
    ins = _port_lanes(ld, st, len(shape)) + _lanes("alloc", len(groups)) + [("fence", None)]
    outs = _lanes("ld_data", ld) + _lanes("ack", len(groups)) + [("fence_done", None)]
    params = dict(ld=ld, st=st, shape=shape, w=data_width(mem_type.element_type), aw=INDEX_BITS,
                  groups=groups, lq=op.depth("lq"), sq=op.depth("sq"))
    return OpUnit("lsq", params, ins, outs)


def op_unit(op: Operation, filename: str) -> OpUnit:
    kind, name = op_kind(op), op.name
    ops, res = list(op.operands), list(op.results)
    if name in ("handshake.fork", "handshake.lazy_fork"):
        return OpUnit(kind, dict(n=len(res), w=_w(ops[0])), [("ins", None)], _lanes("outs", len(res)))
    if name == "handshake.join":
        return OpUnit("join", dict(n=len(ops)), _lanes("ins", len(ops)), [("outs", None)])
    if name == "handshake.merge":
        return OpUnit("merge", dict(n=len(ops), w=_w(res[0])), _lanes("ins", len(ops)),
                      [("outs", None)])
    if name == "handshake.control_merge":
        return OpUnit("control_merge", dict(n=len(ops), w=_w(res[0])), _lanes("ins", len(ops)),
                      [("outs", None), ("index", None)])
    if name == "handshake.mux":
        n = len(ops) - 1
        return OpUnit("mux", dict(n=n, w=_w(res[0])), [("sel", None)] + _lanes("ins", n),
                      [("outs", None)])
    if name == "handshake.cond_br":
        return OpUnit("cond_br", dict(w=_w(ops[1])), [("cond", None), ("ins", None)],
                      [("true_out", None), ("false_out", None)])
    if name == "handshake.buffer":
        slots, kind_ = _prop(op, "slots"), _prop(op, "buffer_type")
        if slots == 1 and kind_ == "seq":
            return OpUnit("oehb", dict(w=_w(ops[0])), [("ins", None)], [("outs", None)])
        return OpUnit("fifo", dict(slots=max(2, slots), w=_w(ops[0]),
                                   transparent=kind_ == "fifo"), [("ins", None)], [("outs", None)])
    if name == "handshake.constant":   # a float's value is its bit pattern
        return OpUnit("constant", dict(w=_w(res[0]), value=op.bits),
                      [("ctrl", None)], [("outs", None)])
    if name == "handshake.source":
        return OpUnit("source", {}, [], [("outs", None)])
    if name == "handshake.sink":
        return OpUnit("sink", {}, [("ins", None)], [])
    if name in ("handshake.load", "handshake.store"):
        rank = len(res) - 1
        data = ops[rank]
        ins = _lanes("addr", rank) + [("data_from_mem" if kind == "load" else "data", None),
                                      ("ctrl", None)]
        outs = [("data_to_comp" if kind == "load" else "data_to_mem", None)] + \
            _lanes("addr_to_mem", rank)
        return OpUnit(kind, dict(rank=rank, aw=INDEX_BITS, w=_w(data)), ins, outs)
    if name in ("handshake.extmemory", "handshake.memory"):
        return _memory(op, filename)
    if isinstance(op, LoadStoreQueueOp):
        return _queue(op)
    if name == "dataflow.stream":
        return OpUnit("stream", dict(step_op=_prop(op, "step_op"), cont_cond=_prop(op, "cont_cond"),
                                     w=_w(ops[0])),
                      [("start", None), ("step", None), ("bound", None)],
                      [("idx", None), ("cont", None)])
    if name == "dataflow.gate":
        return OpUnit("gate", dict(w=_w(ops[0])), [("before_value", None), ("before_cond", None)],
                      [("after_value", None), ("after_cond", None)])
    if name == "dataflow.carry":
        return OpUnit("carry", dict(w=_w(res[0])), [("d", None), ("a", None), ("b", None)],
                      [("o", None)])
    if name == "dataflow.invariant":
        return OpUnit("invariant", dict(w=_w(res[0])), [("d", None), ("a", None)], [("o", None)])
    if (unit := float_unit(op)) is not None:
        return unit
    if _computes_on_floats(op):
        raise LoomError(f"{name} on floating point has no RTL unit yet (`loom run` checks a "
                        "float kernel on the golden model)",
                        op_location(op) or Location(filename))
    if name.startswith("arith."):
        return _arith(op, kind, ops, res)
    raise LoomError(f"{name} has no RTL unit", op_location(op) or Location(filename))


def float_unit(op: Operation) -> OpUnit | None:
    """The unit of a float op the RTL has, else None (remf); the direct RTL's
    and a fabric function unit's (loom.fabric.rtl.fu)."""
    kind, ops = op_kind(op), list(op.operands)
    if kind in FLOAT_CONVERT_OPS or kind == "bitcast":
        return OpUnit(kind, dict(w_in=_w(ops[0]), w_out=_w(op.results[0])), [("ins", None)],
                      [("outs", None)])
    if kind == "sqrt":
        return OpUnit(kind, dict(w=_w(ops[0])), [("ins", None)], [("outs", None)])
    if kind == "cmpf":
        return OpUnit("cmpf", dict(w=_w(ops[0]), predicate=CMPF_NAMES[_prop(op, "predicate")]),
                      [("lhs", None), ("rhs", None)], [("result", None)])
    if kind in FLOAT_SIGN_OPS:
        return OpUnit(kind, dict(w=_w(ops[0])), [("ins", None)], [("outs", None)])
    if kind in FLOAT_MINMAX_OPS or kind in FLOAT_ARITH_TEMPLATES:
        return OpUnit(kind, dict(w=_w(ops[0])), [("lhs", None), ("rhs", None)],
                      [("result", None)])
    return None


def _computes_on_floats(op: Operation) -> bool:
    """An arith or math op with a float operand or result (a select only moves bits)."""
    if not op.name.startswith(("arith.", "math.")) or op.name == "arith.select":
        return False
    return any(isinstance(v.type, AnyFloat) for v in (*op.operands, *op.results))


def _arith(op: Operation, kind: str, ops: list, res: list) -> OpUnit:
    if kind in _BINARY:
        return OpUnit(kind, dict(w=_w(res[0])), [("lhs", None), ("rhs", None)],
                      [("result", None)])
    if kind == "cmpi":
        return OpUnit("cmpi", dict(w=_w(ops[0]), predicate=PREDICATE_NAMES[_prop(op, "predicate")]),
                      [("lhs", None), ("rhs", None)], [("result", None)])
    if kind == "select":
        return OpUnit("select", dict(w=_w(res[0])),
                      [("cond", None), ("true_value", None), ("false_value", None)],
                      [("result", None)])
    if kind in _CASTS:
        wi, wo = _w(ops[0]), _w(res[0])
        family = kind
        if kind == "index_castui":
            family = "extui" if wo > wi else "trunci" if wo < wi else "index_cast"
        return OpUnit(family, dict(w_in=wi, w_out=wo), [("ins", None)], [("outs", None)])
    raise LoomError(f"{op.name} has no RTL unit", op_location(op))
