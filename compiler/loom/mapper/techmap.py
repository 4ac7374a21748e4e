"""Tech-mapping: for each DFG op, the (PE, function unit, configuration)
triples of an ADG that can host it (loom-fabric-notes.md section 3.2).

Rules (LOOM's OpCompat and techmap, with one correction on widths):

- Op identity: names must be equal. dataflow.stream, gate, carry and
  invariant are four classes (seed 001: invariant never maps onto gate);
  arith.select is not handshake.mux; arith.constant is not
  handshake.constant. arith.minsi / maxsi map onto a compare+select body
  (LOOM's alias) with the compare's predicate configured.
- Configurable fields come from the software op: cmpi/cmpf predicate,
  constant value, stream cont_cond, join mask. `step_op` is never compared.
- Commutative ops (addi, addf, muli, mulf, andi, ori, xori) may swap their
  two operands; a software join of k operands binds to any k of a hardware
  join's n >= k inputs (join mask); the other inputs stay disconnected.
- Compound units: every selection of the body's `fabric.mux` ops is
  enumerated; the effective graph is what reaches the yield through the
  selected branches. A selection whose effective graph is one op hosts that
  op alone.
- Widths (the correction). LOOM lets a software value of width w use a
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
- Forks and buffers are routing nets, not ops (LOOM's C11: only switches
  fan out); sinks are discard. Memories bind to memories (memory_candidates).
"""

from __future__ import annotations

import itertools
from math import prod
from collections.abc import Iterator, Sequence
from dataclasses import dataclass, replace

from xdsl.dialects.builtin import (
    Float16Type,
    Float32Type,
    Float64Type,
    IndexType,
    IntegerAttr,
    IntegerType,
    MemRefType,
    NoneType,
    StringAttr,
)
from xdsl.ir import Attribute, BlockArgument, Operation, SSAValue

from loom.dialects import fabric_syntax as fs
from loom.dialects.channel_types import ChannelType, ControlType
from loom.dialects.fabric_graph import resolve_definition
from loom.dialects.fabric_types import BitsType, TaggedType
from loom.fabric import config_layout as cl

ROUTING_OPS = frozenset({"handshake.fork", "handshake.lazy_fork", "handshake.buffer"})
"""DFG ops that become parts of routing nets."""
DISCARD_OPS = frozenset({"handshake.sink"})
"""DFG ops that are discard semantics: an unconsumed output."""
MEMORY_OPS = frozenset({"handshake.extmemory", "handshake.memory"})
NOT_MAPPED = ROUTING_OPS | DISCARD_OPS | MEMORY_OPS | {"handshake.return"}

COMMUTATIVE = frozenset({"arith.addi", "arith.addf", "arith.muli", "arith.mulf",
                         "arith.andi", "arith.ori", "arith.xori"})

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


def _low_bit_operands(op_name: str, count: int) -> frozenset[int]:
    if op_name not in LOW_BITS:
        return frozenset()  # NUMERIC: every operand exact
    chosen = LOW_BITS[op_name]
    if chosen is None:
        return frozenset(range(1 if op_name == "handshake.mux" else 0, count))
    return frozenset(chosen)


# --- types --------------------------------------------------------------------------


def _value_type(t: Attribute) -> Attribute:
    """The value type of a DFG edge (channel<T> -> T, control -> none)."""
    if isinstance(t, ChannelType):
        return t.data_type  # type: ignore[attr-defined]
    if isinstance(t, ControlType):
        return NoneType()
    return t


def _kind_width(t: Attribute) -> tuple[str, int] | None:
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


def fits(sw: Attribute, hw: Attribute, exact: bool) -> bool:
    """Whether a software value of type `sw` may use a hardware port of type `hw`."""
    if isinstance(hw, TaggedType):
        return False  # function unit ports are native (the verifier's rule)
    s, h = _kind_width(_value_type(sw)), _kind_width(hw)
    if s is None or h is None:
        return False
    if s[0] == "none" and not exact:
        return True  # a bare token (width 0) rides any port; its data is ignored
    if s[0] != h[0]:
        return False
    return s[1] == h[1] if exact else s[1] <= h[1]


# --- the ADG's function units -------------------------------------------------------


@dataclass(frozen=True)
class HwUnit:
    """One function unit slot of one PE instance."""

    pe: str
    """The PE instance name (LOOM's pe_name)."""
    opcode: int
    """The unit's index in the PE body (definitions and instances both count)."""
    name: str
    """The unit's definition or instance name (LOOM's hw op_name)."""
    definition: Operation


def _pe_units(pe_name: str, pe_def: Operation) -> list[HwUnit]:
    units: list[HwUnit] = []
    for op in pe_def.regions[0].block.ops:
        if op.name == "fabric.function_unit":
            units.append(HwUnit(pe_name, len(units), _sym(op), op))
        elif op.name == "fabric.instance":
            target = resolve_definition(op, op.attributes["module"].data)  # type: ignore[attr-defined]
            if target is not None and target.name == "fabric.function_unit":
                units.append(HwUnit(pe_name, len(units), _sym(op), target))
    return units


def _sym(op: Operation) -> str:
    sym = op.attributes.get("sym_name")
    return sym.data if isinstance(sym, StringAttr) else ""


def fabric_top(module: Operation) -> Operation:
    top = next((op for op in module.walk() if op.name == "fabric.module"), None)
    if top is None:
        raise ValueError("no fabric.module")
    return top


def hw_units(module: Operation) -> list[HwUnit]:
    """Every spatial PE's function units, PEs in fabric.module body order."""
    units: list[HwUnit] = []
    for op in fabric_top(module).regions[0].block.ops:
        if op.name == "fabric.instance":
            target = resolve_definition(op, op.attributes["module"].data)  # type: ignore[attr-defined]
            if target is not None and target.name == "fabric.spatial_pe":
                units += _pe_units(_sym(op), target)
        elif op.name == "fabric.spatial_pe" and fs.is_inline(op):
            units += _pe_units(_sym(op), op)
    return units


# --- effective graphs of a unit --------------------------------------------------------


@dataclass(frozen=True)
class Effective:
    """A unit body under one selection of its fabric.mux ops."""

    ops: tuple[Operation, ...]
    """Body ops (no mux, no yield) that reach a yield, in body order."""
    mux_fields: tuple[tuple[str, int], ...]
    """The mux config fields (layout names) of this selection."""
    source: dict[SSAValue, SSAValue]
    """Each mux result -> the value it passes (selected)."""


def _muxes(body: Sequence[Operation]) -> list[tuple[int, Operation]]:
    """(op_index, mux) of each configurable fabric.mux (1:1 muxes are transparent)."""
    return [(i, op) for i, op in enumerate(body) if op.name == "fabric.mux"
            and not (len(op.operands) == 1 and len(op.results) == 1)]


def effective_graphs(unit: Operation) -> list[Effective]:
    """One effective graph per selection of the unit's muxes (body order, sel ascending)."""
    body = [op for op in unit.regions[0].block.ops if op.name != "fabric.yield"]
    muxes = _muxes(body)
    choices = [range(max(len(m.operands), len(m.results))) for _, m in muxes]
    graphs: list[Effective] = []
    for sels in itertools.product(*choices):
        source: dict[SSAValue, SSAValue] = {}
        fields: list[tuple[str, int]] = []
        for (index, mux), sel in zip(muxes, sels):
            fields.append((f"fu.{index}.sel", sel))
            if len(mux.results) == 1:
                source[mux.results[0]] = mux.operands[sel]
            else:
                source[mux.results[sel]] = mux.operands[0]
        for op in body:  # transparent muxes
            if op.name == "fabric.mux" and len(op.operands) == len(op.results) == 1:
                source[op.results[0]] = op.operands[0]
        graphs.append(Effective(_reaching(unit, source), tuple(fields), source))
    return graphs


def _resolve(v: SSAValue, source: dict[SSAValue, SSAValue]) -> SSAValue | None:
    """Follow selected muxes back to an op result or block argument (None: cut)."""
    while isinstance(v.owner, Operation) and v.owner.name == "fabric.mux":
        if v not in source:
            return None
        v = source[v]
    return v


def _reaching(unit: Operation, source: dict[SSAValue, SSAValue]) -> tuple[Operation, ...]:
    block = unit.regions[0].block
    live: set[Operation] = set()
    work = [v for v in block.last_op.operands]  # type: ignore[union-attr]
    while work:
        v = _resolve(work.pop(), source)
        if v is None or isinstance(v, BlockArgument):
            continue
        op = v.owner
        assert isinstance(op, Operation)
        if op not in live:
            live.add(op)
            work.extend(op.operands)
    return tuple(op for op in block.ops if op in live)


# --- candidates ---------------------------------------------------------------------


@dataclass(frozen=True)
class Candidate:
    """A way to host one DFG op on one unit."""

    pe: str
    opcode: int
    unit: str
    inputs: tuple[int | None, ...]
    """For each unit input: the DFG operand bound to it, or None (disconnected)."""
    outputs: tuple[int | None, ...]
    """For each unit output: the DFG result it carries, or None (discarded)."""
    fields: tuple[tuple[str, int], ...]
    """fu payload fields by config_layout name (fu.<op_index>.sel / .value)."""


ALIASES = {"arith.minsi": "slt", "arith.maxsi": "sgt", "arith.minui": "ult",
           "arith.maxui": "ugt"}
"""Software min/max -> the predicate of a `select(cmpi p, a, b), a, b` body."""


def _attr_int(op: Operation, name: str) -> int | None:
    attr = op.properties.get(name, op.attributes.get(name))
    return attr.value.data if isinstance(attr, IntegerAttr) else None


def _attr_str(op: Operation, name: str) -> str | None:
    attr = op.properties.get(name, op.attributes.get(name))
    return attr.data if isinstance(attr, StringAttr) else None


def _value_field(sw: Operation, hw_op: Operation, width: int) -> int | None:
    """The payload value a configurable hardware op takes from `sw` (None: no field)."""
    match hw_op.name:
        case "arith.cmpi":
            pred = _predicate(sw)
            return cl.cmpi_predicate(pred) if pred is not None else None
        case "arith.cmpf":
            pred = _predicate(sw)
            return cl.cmpf_predicate(pred) if pred is not None else None
        case "handshake.constant":
            value = _attr_int(sw, "value")
            return cl.constant_bits(value, width) if value is not None else None
        case "dataflow.stream":
            cond = _attr_str(sw, "cont_cond")
            return cl.cont_cond(cond) if cond is not None else None
    return None


def _predicate(op: Operation) -> str | None:
    attr = op.properties.get("predicate", op.attributes.get("predicate"))
    if isinstance(attr, IntegerAttr):
        table = cl.CMPI_PREDICATES if op.name == "arith.cmpi" else cl.CMPF_PREDICATES
        return table[attr.value.data]
    return None


def _port_types(unit: Operation) -> tuple[list[Attribute], list[Attribute]]:
    ftype = fs.function_type(unit)
    return list(ftype.inputs.data), list(ftype.outputs.data)


def _single_op_candidates(sw: Operation, unit: HwUnit, eff: Effective) -> Iterator[Candidate]:
    """Candidates of `sw` on an effective graph of exactly one op."""
    (hw_op,) = eff.ops
    if hw_op.name != sw.name:
        return
    block = unit.definition.regions[0].block
    args = list(block.args)
    in_types, out_types = _port_types(unit.definition)
    # hw op operand -> unit input index (through selected muxes)
    operand_port: list[int | None] = []
    for v in hw_op.operands:
        r = _resolve(v, eff.source)
        operand_port.append(args.index(r) if isinstance(r, BlockArgument) and r in args else None)
    if any(p is None for p in operand_port):
        return  # an operand not fed by a unit input: not a single-op host
    yields = list(block.last_op.operands)  # type: ignore[union-attr]
    outputs: list[int | None] = []
    for y in yields:
        r = _resolve(y, eff.source)
        outputs.append(list(hw_op.results).index(r) if r is not None and r.owner is hw_op
                       else None)
    if len(sw.results) != len(hw_op.results):
        return
    for k, res in enumerate(sw.results):
        port = outputs.index(k) if k in outputs else None
        if port is None or not fits(res.type, out_types[port], exact=False):
            return
    body_index = [op for op in block.ops if op.name != "fabric.yield"].index(hw_op)
    fields = list(eff.mux_fields)
    layout = {f.op_index: f for f in cl.fu_layout(unit.definition).fu_fields}
    if body_index in layout and hw_op.name != "handshake.join":
        value = _value_field(sw, hw_op, layout[body_index].width)
        if value is None:
            return
        fields.append((f"fu.{body_index}.value", value))
    low_bits = _low_bit_operands(sw.name, len(sw.operands))
    for binding in _operand_bindings(sw, hw_op):
        inputs: list[int | None] = [None] * len(args)
        ok = True
        for sw_index, hw_index in binding:
            port = operand_port[hw_index]
            assert port is not None
            exact = sw_index not in low_bits
            if not fits(sw.operands[sw_index].type, in_types[port], exact):
                ok = False
                break
            inputs[port] = sw_index
        if not ok:
            continue
        extra = list(fields)
        if hw_op.name == "handshake.join":
            extra.append((f"fu.{body_index}.value", cl.join_mask([h for _, h in binding])))
        yield Candidate(unit.pe, unit.opcode, unit.name, tuple(inputs), tuple(outputs),
                        tuple(extra))


def _operand_bindings(sw: Operation, hw_op: Operation) -> Iterator[list[tuple[int, int]]]:
    """(sw operand, hw operand) pairings allowed by op identity."""
    n_sw, n_hw = len(sw.operands), len(hw_op.operands)
    if sw.name == "handshake.join":
        # any k of the n inputs, in order (join is symmetric: order is irrelevant)
        for subset in itertools.combinations(range(n_hw), n_sw):
            yield list(zip(range(n_sw), subset))
        return
    if n_sw != n_hw:
        return
    yield [(i, i) for i in range(n_sw)]
    if sw.name in COMMUTATIVE and n_sw == 2:
        yield [(0, 1), (1, 0)]


def _minmax_candidates(sw: Operation, unit: HwUnit, eff: Effective) -> Iterator[Candidate]:
    """arith.min/max onto `%c = cmpi p, %x, %y; %r = select %c, %x, %y` (LOOM's alias)."""
    if len(eff.ops) != 2 or [o.name for o in eff.ops] != ["arith.cmpi", "arith.select"]:
        return
    cmp, sel = eff.ops
    block = unit.definition.regions[0].block
    args = list(block.args)
    x, y = (_resolve(v, eff.source) for v in cmp.operands)
    c, a, b = (_resolve(v, eff.source) for v in sel.operands)
    if c is not cmp.results[0] or (a, b) != (x, y) or x not in args or y not in args:
        return
    yields = [_resolve(v, eff.source) for v in block.last_op.operands]  # type: ignore[union-attr]
    if yields.count(sel.results[0]) != 1:
        return
    in_types, out_types = _port_types(unit.definition)
    px, py = args.index(x), args.index(y)  # type: ignore[arg-type]
    out = yields.index(sel.results[0])
    if not all(fits(sw.operands[i].type, in_types[p], exact=True)
               for i, p in ((0, px), (1, py))):
        return
    if not fits(sw.results[0].type, out_types[out], exact=False):
        return
    inputs: list[int | None] = [None] * len(args)
    inputs[px], inputs[py] = 0, 1
    outputs: list[int | None] = [None] * len(yields)
    outputs[out] = 0
    body = [op for op in block.ops if op.name != "fabric.yield"]
    fields = (*eff.mux_fields,
              (f"fu.{body.index(cmp)}.value", cl.cmpi_predicate(ALIASES[sw.name])))
    yield Candidate(unit.pe, unit.opcode, unit.name, tuple(inputs), tuple(outputs), fields)


def candidates(sw: Operation, units: Sequence[HwUnit]) -> list[Candidate]:
    """Every way to host DFG op `sw` on `units` (unit order, then selection order)."""
    found: list[Candidate] = []
    # PE instances share unit definitions: match each (definition, name) once
    # and give the other instances the same bindings
    matched: dict[tuple[int, str], list[Candidate]] = {}
    for unit in units:
        key = (id(unit.definition), unit.name)
        if key in matched:
            found += [replace(c, pe=unit.pe, opcode=unit.opcode) for c in matched[key]]
            continue
        mine: list[Candidate] = []
        for eff in effective_graphs(unit.definition):
            if sw.name in ALIASES:
                mine += _minmax_candidates(sw, unit, eff)
            elif len(eff.ops) == 1:
                mine += _single_op_candidates(sw, unit, eff)
        matched[key] = mine
        found += mine
    return _unique(found)


def _unique(found: list[Candidate]) -> list[Candidate]:
    seen: set[Candidate] = set()
    return [c for c in found if not (c in seen or seen.add(c))]  # type: ignore[func-returns-value]


# --- memories -----------------------------------------------------------------------


@dataclass(frozen=True)
class HwMemory:
    """A fabric.memory or fabric.extmemory node."""

    name: str
    kind: str
    """memory | extmemory"""
    ld_count: int
    st_count: int
    num_region: int
    elem_width: int | None
    tagged: bool
    """Whether its port families carry tags (lanes shared by tag)."""
    elements: int | None = None
    """An on-chip memory's storage in elements (None: external, any size)."""


def memref_elements(memref: Attribute | None) -> int | None:
    """The element count of a static memref (None: dynamic or not a memref)."""
    if not isinstance(memref, MemRefType) or any(d < 0 for d in memref.get_shape()):
        return None
    return prod(memref.get_shape())


def hw_memories(module: Operation) -> list[HwMemory]:
    """The ADG's memories in body order, with LOOM's names (`extmemory_<k>` when unnamed)."""
    found: list[HwMemory] = []
    auto: dict[str, int] = {}
    for op in fabric_top(module).regions[0].block.ops:
        node, definition = op, op
        if op.name == "fabric.instance":
            target = resolve_definition(op, op.attributes["module"].data)  # type: ignore[attr-defined]
            if target is None:
                continue
            definition = target
        if definition.name not in ("fabric.memory", "fabric.extmemory"):
            continue
        kind = definition.name.removeprefix("fabric.")
        name = _sym(node)
        if not name and node is definition:
            name = f"{kind}_{auto.get(kind, 0)}"
        if node is definition:
            auto[kind] = auto.get(kind, 0) + 1
        found.append(_hw_memory(name, kind, definition))
    return found


def _hw_memory(name: str, kind: str, op: Operation) -> HwMemory:
    ftype = fs.function_type(op)
    memref = op.attributes.get("memref_type")  # LOOM's memrefType, as the dialect stores it
    elem = _kind_width(memref.element_type) if isinstance(memref, MemRefType) else None
    ports = [t for t in (*ftype.inputs.data, *ftype.outputs.data) if not isinstance(t, MemRefType)]
    return HwMemory(name, kind, fs.int_param(op, "ldCount", 0) or 0,
                    fs.int_param(op, "stCount", 0) or 0, fs.int_param(op, "numRegion", 1) or 1,
                    elem[1] if elem else None, any(isinstance(t, TaggedType) for t in ports),
                    memref_elements(memref) if kind == "memory" else None)


def memory_candidates(sw: Operation, memories: Sequence[HwMemory]) -> list[HwMemory]:
    """The hardware memories a DFG memory may bind to (LOOM's rule, section 3.2):
    same kind, the software load and store lanes within the hardware's
    (several lanes only on a tagged memory), element width sw <= hw; an
    on-chip memory also holds every element of the software one (region 0
    starts at address 0: config_values.py). How many software memories share
    one (<= numRegion) is the placement's check."""
    kind = sw.name.removeprefix("handshake.")
    ld, st = _attr_int(sw, "ld_count") or 0, _attr_int(sw, "st_count") or 0
    memref = _memref_type(sw)
    elem = _kind_width(memref.element_type) if isinstance(memref, MemRefType) else None
    result = []
    for hw in memories:
        if hw.kind != kind or ld > hw.ld_count or st > hw.st_count:
            continue
        if (ld > 1 or st > 1) and not hw.tagged:
            continue
        if elem is not None and hw.elem_width is not None and elem[1] > hw.elem_width:
            continue
        size = memref_elements(memref)
        if hw.elements is not None and (size is None or size > hw.elements):
            continue
        result.append(hw)
    return result


# --- no host anywhere ----------------------------------------------------------------


def hosts(op: Operation, module: Operation) -> bool:
    """Whether the ADG `module` has some unit (or memory) for DFG op `op`."""
    if op.name in MEMORY_OPS:
        return bool(memory_candidates(op, hw_memories(module)))
    # PE instances share their units' definitions: each definition once
    distinct = {id(u.definition): u for u in hw_units(module)}
    return bool(candidates(op, list(distinct.values())))


def smallest_preset(op: Operation, names: Sequence[str] | None = None) -> str | None:
    """The first preset (`loom adg --list` order: smallest first) that can host `op`."""
    from loom.fabric.presets import preset, presets

    for name in names if names is not None else [p.name for p in presets()]:
        if hosts(op, preset(name).build()):
            return name
    return None


def _memref_type(op: Operation) -> Attribute | None:
    """A DFG memory's memref type (an extmemory's operand, a memory's mem_type)."""
    if op.name == "handshake.extmemory":
        return op.operands[0].type
    return op.properties.get("mem_type", op.attributes.get("mem_type"))


def describe(op: Operation) -> str:
    """`arith.cmpi slt (i32, i32) -> i1`: what a diagnosis names; a memory by
    its lane counts and memref type (which decide the memories that fit; its
    port list grows with its lanes)."""
    pred = _predicate(op)
    head = f"{op.name} {pred}" if pred is not None else op.name
    if op.name in MEMORY_OPS:
        lanes = f"[ld = {_attr_int(op, 'ld_count') or 0}, st = {_attr_int(op, 'st_count') or 0}]"
        return f"{head}{lanes} of {_memref_type(op)}"
    ins = ", ".join(str(_value_type(v.type)) for v in op.operands)
    outs = ", ".join(str(_value_type(r.type)) for r in op.results)
    return f"{head} ({ins}) -> ({outs})"


def check_hosts(ops: Sequence[Operation], module: Operation, adg_name: str, filename: str,
                preset_names: Sequence[str] | None = None) -> None:
    """The first DFG op without any host in the ADG is a one-line error naming
    the op, its C line and the smallest preset that has a host for it."""
    from loom.diagnostics import Location, LoomError
    from loom.ir import op_location

    for op in ops:
        if hosts(op, module):
            continue
        fix = smallest_preset(op, preset_names)
        hint = f"the smallest preset with one is {fix}" if fix else "no preset has one"
        what = "memory" if op.name in MEMORY_OPS else "function unit"
        raise LoomError(f"C1: no {what} in {adg_name} can host {describe(op)}; {hint}",
                        op_location(op) or Location(filename))


def mapped_ops(body) -> list[Operation]:
    """The DFG ops that need a function unit (forks, buffers, sinks, memories,
    return excluded), in body order."""
    return [op for op in body.ops if op.name not in NOT_MAPPED]


__all__ = [
    "Candidate", "Effective", "HwMemory", "HwUnit", "candidates", "check_hosts", "describe",
    "effective_graphs", "fabric_top", "fits", "hosts", "hw_memories", "hw_units",
    "mapped_ops", "memory_candidates", "smallest_preset",
]
