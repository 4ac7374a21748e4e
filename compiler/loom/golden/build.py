"""From a `handshake.func` to a golden-model Graph.

Each op becomes its actor (golden/ops/), each SSA value one channel named by
loom.dfg_names. Memref arguments are not channels: the `extmemory` that uses
one gets its storage from the bundle. A value used by several ops is an
error (the DFG must fork it explicitly); an unused result is discarded.
"""

from __future__ import annotations

from collections.abc import Callable
from math import prod
from typing import Any

from xdsl.dialects.builtin import IntegerAttr, MemRefType, StringAttr
from xdsl.ir import Attribute, Operation

from loom import floats
from loom.bundle import Bundle, bits
from loom.dfg_names import name_dfg, op_kind
from loom.diagnostics import Location, LoomError
from loom.dialects.channel_types import data_width, extras, is_control
from loom.dialects.handshake import ConstantOp
from loom.dialects.handshake_memory import LoadStoreQueueOp, memory_init
from loom.golden.actor import Actor
from loom.golden.graph import Graph, Node
from loom.golden.ops import arith, arith_float
from loom.golden.ops.buffer import Buffer
from loom.golden.ops.carry import Carry
from loom.golden.ops.compose import Bundle as BundleOp
from loom.golden.ops.compose import Compose, Decompose, Unbundle
from loom.golden.ops.cond_br import CondBr
from loom.golden.ops.constant import Constant, Sink, Source
from loom.golden.ops.fork import Fork, LazyFork
from loom.golden.ops.func_return import Return
from loom.golden.ops.gate import Gate
from loom.golden.ops.invariant import Invariant
from loom.golden.ops.join import Join
from loom.golden.ops.load import Load, Store
from loom.golden.ops.lsq import LoadStoreQueue
from loom.golden.ops.memory import Memory
from loom.golden.ops.merge import ControlMerge, Merge
from loom.golden.ops.mux import Mux
from loom.golden.ops.stream import Stream
from loom.golden.ops.sync import Sync
from loom.ir import op_location


def op_loc(op: Operation, fallback: str) -> Location:
    return op_location(op) or Location(fallback)


def _attr(op: Operation, name: str) -> Any:
    attr = op.properties.get(name)
    if attr is None:
        attr = op.attributes.get(name)
    if attr is None:
        raise LoomError(f"{op.name} has no '{name}' attribute")
    if isinstance(attr, IntegerAttr):
        return attr.value.data
    if isinstance(attr, StringAttr):
        return attr.data
    return attr


def _w(t: Attribute) -> int:
    return data_width(t)


BINARY_CLASSES: dict[str, type[arith._Binary]] = {
    "addi": arith.AddI, "subi": arith.SubI, "muli": arith.MulI,
    "divsi": arith.DivSI, "divui": arith.DivUI, "remsi": arith.RemSI, "remui": arith.RemUI,
    "andi": arith.AndI, "ori": arith.OrI, "xori": arith.XOrI,
    "shli": arith.ShLI, "shrsi": arith.ShRSI, "shrui": arith.ShRUI,
    "minsi": arith.MinSI, "maxsi": arith.MaxSI, "minui": arith.MinUI, "maxui": arith.MaxUI,
}
"""The golden class of each integer binary op (arith.<name>), by width: the
DFG's and the fabric reference model's (fabric.models.function_unit)."""
_CASTS: dict[str, type[arith._Cast]] = {
    "extsi": arith.ExtSI, "extui": arith.ExtUI, "trunci": arith.TruncI,
    "index_cast": arith.IndexCast, "index_castui": arith.IndexCastUI,
}


_FLOAT_BINARY: dict[str, type[arith_float._Binary]] = {
    "addf": arith_float.AddF, "subf": arith_float.SubF, "mulf": arith_float.MulF,
    "divf": arith_float.DivF, "remf": arith_float.RemF,
    "minnumf": arith_float.MinNumF, "maxnumf": arith_float.MaxNumF,
}
_FLOAT_UNARY: dict[str, type[arith_float._Unary]] = {
    "negf": arith_float.NegF, "absf": arith_float.AbsF, "sqrt": arith_float.SqrtF,
}
_FLOAT_CASTS: dict[str, type[arith_float._Cast]] = {
    "sitofp": arith_float.SIToFP, "uitofp": arith_float.UIToFP,
    "fptosi": arith_float.FPToSI, "fptoui": arith_float.FPToUI,
    "extf": arith_float.ConvertF, "truncf": arith_float.ConvertF,
    "bitcast": arith_float.Bitcast,
}


def _float(op: Operation) -> Actor | None:
    """The actor of a float op (arith.*f, the int/float casts, math.absf/sqrt); None
    for any other op."""
    kind = op_kind(op)
    try:
        if kind == "cmpf":
            return arith_float.CmpF(_predicate(op, floats.CMPF_NAMES), _w(op.operands[0].type))
        if op.operands:
            return float_actor(kind, _w(op.operands[0].type), _w(op.results[0].type))
    except ValueError as exc:     # a float format other than f32 / f64
        raise LoomError(f"{op.name}: {exc}") from None
    return None


def float_actor(kind: str, w_in: int, w_out: int) -> Actor | None:
    """The actor of float op `kind` (op_kind's name: addf, sqrt, sitofp, ...;
    not cmpf, whose predicate it needs) on operands of w_in and results of
    w_out bits; None for any other op. Raises ValueError for a float format
    other than f32 / f64. Also the fabric's reference model of a float
    function unit (loom.fabric.models.function_unit)."""
    if kind in _FLOAT_BINARY:
        return _FLOAT_BINARY[kind](w_out)
    if kind in _FLOAT_UNARY:
        return _FLOAT_UNARY[kind](w_out)
    if kind in _FLOAT_CASTS:
        return _FLOAT_CASTS[kind](w_in, w_out)
    return None


def _predicate(op: Operation, names: tuple[str, ...]) -> str:
    """A compare's predicate by name (MLIR numbers them in the order of `names`)."""
    pred = _attr(op, "predicate")
    return names[pred] if isinstance(pred, int) else str(pred)


def _arith(op: Operation) -> Actor:
    kind = op_kind(op)
    if (actor := _float(op)) is not None:
        return actor
    if op.name.startswith("math."):
        raise LoomError(f"{op.name} is not supported by the golden model")
    if kind in BINARY_CLASSES:
        return BINARY_CLASSES[kind](_w(op.results[0].type))
    if kind in _CASTS:
        return _CASTS[kind](_w(op.operands[0].type), _w(op.results[0].type))
    if kind == "cmpi":
        return arith.CmpI(_predicate(op, arith.PREDICATE_NAMES), _w(op.operands[0].type))
    if kind == "select":
        return arith.Select(_w(op.results[0].type))
    if kind == "constant":
        raise LoomError("arith.constant has no control input in a dataflow graph; "
                        "use handshake.constant %ctrl")
    raise LoomError(f"{op.name} is not supported by the golden model")


def _constant(op: Operation) -> Actor:
    assert isinstance(op, ConstantOp)
    return Constant(op.bits)


def _extra_widths(t: Attribute, op: Operation) -> list[int]:
    ex = extras(t)
    if any(e.upstream for e in ex):
        raise LoomError(f"{op.name}: upstream extra signals have no token semantics "
                        "in the golden model")
    return [e.width for e in ex]


FACTORIES: dict[str, Callable[[Operation], Actor]] = {
    "dataflow.stream": lambda op: Stream(_attr(op, "step_op"), _attr(op, "cont_cond"),
                                         _w(op.operands[0].type)),
    "dataflow.gate": lambda op: Gate(),
    "dataflow.carry": lambda op: Carry(),
    "dataflow.invariant": lambda op: Invariant(),
    "handshake.fork": lambda op: Fork(len(op.results)),
    "handshake.lazy_fork": lambda op: LazyFork(len(op.results)),
    "handshake.join": lambda op: Join(len(op.operands)),
    "handshake.sync": lambda op: Sync(len(op.operands)),
    "handshake.merge": lambda op: Merge(len(op.operands)),
    "handshake.control_merge": lambda op: ControlMerge(len(op.operands)),
    "handshake.mux": lambda op: Mux(len(op.operands) - 1),
    "handshake.cond_br": lambda op: CondBr(),
    "handshake.buffer": lambda op: Buffer(_attr(op, "slots"), _attr(op, "buffer_type")),
    "handshake.constant": _constant,
    "handshake.source": lambda op: Source(),
    "handshake.sink": lambda op: Sink(),
    "handshake.load": lambda op: Load(len(op.results) - 1),
    "handshake.store": lambda op: Store(len(op.results) - 1),
    "handshake.compose": lambda op: Compose(
        [_w(op.operands[0].type), *_extra_widths(op.operands[0].type, op)]),
    "handshake.decompose": lambda op: Decompose(
        [_w(op.results[0].type), *_extra_widths(op.results[0].type, op)]),
    "handshake.unbundle": lambda op: Unbundle(len(op.results) - 2),
    "handshake.bundle": lambda op: BundleOp(len(op.operands) - 2),
}


def _memref_shape(t: Attribute, where: Location | None,
                  given_extent: int | None = None) -> tuple[tuple[int, ...], int]:
    if not isinstance(t, MemRefType):
        raise LoomError(f"expected a memref, got {t}", where)
    shape = tuple(t.get_shape())
    if given_extent is not None and len(shape) == 1 and shape[0] < 0:
        # LOOM's DFGs take `memref<?xT>`: the host's buffer (the bundle's
        # region) gives the extent.
        shape = (given_extent,)
    if any(d < 0 for d in shape):
        raise LoomError(f"memref {t} has a dynamic extent", where)
    return shape, data_width(t.element_type)


def _memory(op: Operation, graph: Graph, bundle: Bundle, arg_index: dict[Any, int],
            where: Location | None) -> Memory:
    ld, st = _attr(op, "ld_count"), _attr(op, "st_count")
    if op.name == "handshake.memory":
        shape, width = _memref_shape(_attr(op, "mem_type"), where)
        table = memory_init(op)   # a constant table's contents
        if table is not None:
            return Memory(ld, st, shape, width, [bits(v, width) for v in table])
        return Memory(ld, st, shape, width)
    memref = op.operands[0]
    if memref not in arg_index:
        raise LoomError(f"{op.name} must take a memref argument of the function", where)
    idx = arg_index[memref]
    if idx in graph.memories:
        raise LoomError(f"memref argument {idx} is served by two memory interfaces", where)
    region = bundle.region(idx)
    if region is None:
        raise LoomError(f"the bundle has no memory region for argument {idx}", where)
    shape, width = _memref_shape(memref.type, where, len(region.values))
    if len(region.values) != prod(shape):
        raise LoomError(f"the bundle's region for argument {idx} has {len(region.values)} "
                        f"values; {memref.type} needs {prod(shape)}", where)
    storage = [bits(v, width) for v in region.values]
    if isinstance(op, LoadStoreQueueOp):
        return LoadStoreQueue(ld, st, shape, width, op.groups, storage)
    return Memory(ld, st, shape, width, storage)


def build_graph(func: Operation, bundle: Bundle, filename: str) -> tuple[Graph, Node]:
    """The golden graph of `func` with the bundle's inputs loaded; returns (graph, return node)."""
    body = func.body.blocks[0]
    names = name_dfg(body)
    graph = Graph(_attr(func, "sym_name"))
    channels: dict[Any, Any] = {}
    arg_index: dict[Any, int] = {}

    # arguments: memrefs stay out of the token graph; everything else gets a
    # channel, and its tokens per invocation from feed()
    args = list(body.args)
    for i, arg in enumerate(args):
        if isinstance(arg.type, MemRefType):
            arg_index[arg] = i
            graph.inputs.append(None)
            continue
        ch = graph.channel(names.values[arg], _w(arg.type))
        channels[arg] = ch
        graph.inputs.append(ch)
        if is_control(arg.type):
            graph.control_inputs.add(i)
            if i == len(args) - 1:
                graph.start_arg = i
        elif bundle.scalar(i) is None:
            raise LoomError(f"the bundle has no scalar input for argument {i} "
                            f"('{names.values[arg]}')", Location(filename))

    for op in body.ops:
        for res in op.results:
            channels[res] = graph.channel(names.values[res], _w(res.type)) \
                if not isinstance(res.type, MemRefType) else None

    ret_node: Node | None = None
    for op in body.ops:
        label = names.ops[op]
        where = op_loc(op, filename)
        for operand in op.operands:
            if operand.has_more_than_one_use() and operand not in arg_index:
                uses = operand.uses.get_length()
                raise LoomError(f"value '{names.values.get(operand, '?')}' is used by {uses} "
                                "ops; a DFG value must be forked explicitly (handshake.fork)",
                                where)
        if op.name == "handshake.return":
            actor: Actor = Return(len(op.operands))
        elif op.name in ("handshake.extmemory", "handshake.memory", "handshake.lsq"):
            actor = _memory(op, graph, bundle, arg_index, where)
        elif op.name in FACTORIES:
            actor = FACTORIES[op.name](op)
        elif op.name.startswith(("arith.", "math.")):
            actor = _arith(op)
        else:
            raise LoomError(f"{op.name} is not a dataflow op the golden model can run", where)
        token_operands = [v for v in op.operands if v not in arg_index]
        ins = [channels[v] for v in token_operands]
        outs = [channels[r] for r in op.results]
        try:
            node = graph.add(label, op.name, actor, ins, outs, where)
        except ValueError as exc:
            raise LoomError(str(exc), where) from None
        if op.name in ("handshake.extmemory", "handshake.lsq"):
            graph.memories[arg_index[op.operands[0]]] = node
        if op.name == "handshake.return":
            if ret_node is not None:
                raise LoomError("a handshake.func has one handshake.return", where)
            ret_node = node
            types = [v.type for v in op.operands]
            graph.result_widths = [_w(t) for t in types]
            if types and is_control(types[-1]):
                graph.done_result = len(types) - 1
    if ret_node is None:
        raise LoomError(f"handshake.func @{graph.name} has no handshake.return", Location(filename))
    for i, arg in enumerate(args):
        if arg in arg_index and i not in graph.memories:  # never accessed: stays as it was
            region = bundle.region(i)
            width = _memref_shape(arg.type, Location(filename))[1]
            graph.untouched[i] = [bits(v, width) for v in region.values] if region else []
    return graph, ret_node


def feed(graph: Graph, bundle: Bundle, invocation: int) -> None:
    """Offer one invocation's tokens: its scalars and a control token on each
    control argument (the start token)."""
    for i, ch in enumerate(graph.inputs):
        if ch is None:
            continue
        if i in graph.control_inputs:
            ch.push(None)
        else:
            value = bundle.scalar(i, invocation)
            assert value is not None  # build_graph checked every scalar argument
            ch.push(bits(value, ch.width))
