"""Matching: for each DFG op, the (PE, function unit, configuration)
triples of an ADG that can host it (docs/loom-fabric-notes.md section 3.2).

Rules (LOOM's OpCompat and techmap; widths by port_types.py, which corrects LOOM's):

- Op identity: names must be equal. dataflow.stream, gate, carry and
  invariant are four classes (seed 001: invariant never maps onto gate);
  arith.select is not handshake.mux; arith.constant is not
  handshake.constant. arith.minsi / maxsi map onto a compare+select body
  (LOOM's alias) with the compare's predicate configured.
- Configurable fields come from the software op: cmpi/cmpf predicate,
  constant value, stream cont_cond, join mask. `step_op` is never compared.
- Commutative ops (addi, addf, muli, mulf, andi, ori, xori) may swap their
  two operands, and so may cmpi, its predicate mirrored (slt as sgt); a
  software join of k operands binds to any k of a hardware join's n >= k
  inputs (join mask); the other inputs stay disconnected.
- Compound units: every selection of the body's `fabric.mux` ops is
  enumerated; the effective graph is what reaches the yield through the
  selected branches. A selection whose effective graph is one op hosts that
  op alone; one whose graph is an op fed by body `handshake.constant`s
  hosts the op with those constants (a compound unit: the op's operands
  `folded`, the constants' values config fields, their triggers unit
  inputs; LOOM's contracted tech-mapped view, contraction.py). A selection
  whose graph is two ops of one name side by side hosts a DFG op with a
  `Partner` of that name (the pair: the partner's operands and results the
  host's extra ones, the operands they share one unit input).
"""

from __future__ import annotations

import itertools
from collections.abc import Iterator, Mapping, Sequence
from dataclasses import dataclass, replace

from xdsl.dialects.builtin import FloatAttr
from xdsl.ir import Attribute, BlockArgument, Operation, SSAValue

from loom.dialects import fabric_syntax as fs
from loom.dialects import handshake as hs
from loom.fabric import config_layout as cl
from loom.fabric.adg_view import FunctionUnit
from loom.mapper.dfg_ops import COMMUTATIVE, attr_int, attr_str, predicate
from loom.mapper.port_types import fits, low_bit_operands, moved

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
            fields.append((cl.fu_field(index, "sel"), sel))
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
    folded: tuple[int, ...] = ()
    """The op's operands whose constants the unit holds (a compound unit,
    contraction.py): the constant of folded[j] is fired by the op's extra
    operand len(operands) + j, which `inputs` binds like any other."""


@dataclass(frozen=True)
class Partner:
    """A DFG op that shares its host's unit (a pair, contraction.py): its
    operand k is the host's extra operand len(host operands) + k, its result
    r the host's extra result len(host results) + r, and the operands in
    `shared` are the host's own values (one unit input carries both)."""

    op: Operation
    shared: tuple[int, ...]


MIRRORED = {"eq": "eq", "ne": "ne", "slt": "sgt", "sle": "sge", "sgt": "slt", "sge": "sle",
            "ult": "ugt", "ule": "uge", "ugt": "ult", "uge": "ule"}
"""A cmpi predicate with its operands swapped (a < b is b > a): a compare
may take its operands the other way round, its predicate configured so."""

ALIASES = {"arith.minsi": "slt", "arith.maxsi": "sgt", "arith.minui": "ult",
           "arith.maxui": "ugt"}
"""Software min/max -> the predicate of a `select(cmpi p, a, b), a, b` body."""


def _value_field(sw: Operation, hw_op: Operation, width: int) -> int | None:
    """The payload value a configurable hardware op takes from `sw` (None: no field)."""
    match hw_op.name:
        case "arith.cmpi":
            pred = predicate(sw)
            return cl.cmpi_predicate(pred) if pred is not None else None
        case "arith.cmpf":
            pred = predicate(sw)
            return cl.cmpf_predicate(pred) if pred is not None else None
        case "handshake.constant":
            # a float constant's field is its IEEE bit pattern
            value = sw.bits if isinstance(sw, hs.ConstantOp) and isinstance(
                sw.value, FloatAttr) else attr_int(sw, "value")
            return cl.constant_bits(value, width) if value is not None else None
        case "dataflow.stream":
            cond = attr_str(sw, "cont_cond")
            return cl.cont_cond(cond) if cond is not None else None
    return None


def _port_types(unit: Operation) -> tuple[list[Attribute], list[Attribute]]:
    ftype = fs.function_type(unit)
    return list(ftype.inputs.data), list(ftype.outputs.data)


def _root(eff: Effective, yields: Sequence[SSAValue]) -> Operation | None:
    """The effective op whose results the yield takes (None: not exactly one)."""
    owners = {r.owner for y in yields if (r := _resolve(y, eff.source)) is not None
              and isinstance(r.owner, Operation)}
    return next(iter(owners)) if len(owners) == 1 else None


def _rooted_candidates(sw: Operation, unit: FunctionUnit, eff: Effective,
                       folded: Mapping[int, Operation]) -> Iterator[Candidate]:
    """Candidates of `sw` on an effective graph of one root op whose operands
    are unit inputs or, for the operands in `folded` (sw operand -> the
    constant that feeds it), handshake.constants of the body fired by a unit
    input (LOOM's compound unit: the constant's value a config field)."""
    block = unit.definition.regions[0].block
    args = list(block.args)
    yields = list(block.last_op.operands)  # type: ignore[union-attr]
    hw_op = _root(eff, yields)
    if hw_op is None or hw_op.name != sw.name or len(sw.results) != len(hw_op.results):
        return
    in_types, out_types = _port_types(unit.definition)
    body = [op for op in block.ops if op.name != "fabric.yield"]
    # hw op operand -> unit input index, or the body constant that feeds it
    operand_port: list[int | None] = []
    feeders: dict[int, Operation] = {}
    for j, v in enumerate(hw_op.operands):
        r = _resolve(v, eff.source)
        if isinstance(r, BlockArgument) and r in args:
            operand_port.append(args.index(r))
            continue
        operand_port.append(None)
        owner = r.owner if r is not None else None
        if not (isinstance(owner, Operation) and owner.name == "handshake.constant"
                and owner in eff.ops and _resolve(owner.operands[0], eff.source) in args):
            return  # an operand neither a unit input nor a fired constant
        feeders[j] = owner
    if len(eff.ops) != 1 + len(feeders) or len(feeders) != len(folded):
        return
    outputs: list[int | None] = []
    for y in yields:
        r = _resolve(y, eff.source)
        outputs.append(list(hw_op.results).index(r) if r is not None and r.owner is hw_op
                       else None)
    for k, res in enumerate(sw.results):
        port = outputs.index(k) if k in outputs else None
        if port is None or not fits(res.type, out_types[port], exact=False,
                                    moves=moved(sw.name, result=k)):
            return
    fields = list(eff.mux_fields)
    layout = {f.op_index: f for f in cl.fu_layout(unit.definition).fu_fields}
    body_index = body.index(hw_op)
    if body_index in layout and hw_op.name != "handshake.join":
        value = _value_field(sw, hw_op, layout[body_index].width)
        if value is None:
            return
        fields.append((cl.fu_field(body_index, "value"), value))
    low_bits = low_bit_operands(sw.name, len(sw.operands))
    order = list(folded)
    shape = _UnitBody(args, in_types, body, layout)
    for binding in _operand_bindings(sw, hw_op):
        inputs: list[int | None] = [None] * len(args)
        extra = list(fields)
        ok = True
        for sw_index, hw_index in binding:
            exact = sw_index not in low_bits
            if (hw_index in feeders) != (sw_index in folded):
                ok = False
                break
            if hw_index in feeders:
                ok = _bind_constant(folded[sw_index], feeders[hw_index], sw.operands[sw_index].type,
                                    exact, len(sw.operands) + order.index(sw_index),
                                    shape, inputs, extra)
            else:
                port = operand_port[hw_index]
                assert port is not None
                ok = fits(sw.operands[sw_index].type, in_types[port], exact,
                          moves=moved(sw.name, operand=sw_index))
                inputs[port] = sw_index
            if not ok:
                break
        if not ok:
            continue
        if hw_op.name == "handshake.join":
            extra.append((cl.fu_field(body_index, "value"), cl.join_mask([h for _, h in binding])))
        if sw.name == "arith.cmpi" and binding[0] == (0, 1):   # swapped: mirror the predicate
            field = cl.fu_field(body_index, "value")
            pred = predicate(sw)
            assert pred is not None
            extra = [(f, cl.cmpi_predicate(MIRRORED[pred]) if f == field else v) for f, v in extra]
        yield Candidate(unit.pe, unit.opcode, unit.name, tuple(inputs), tuple(outputs),
                        tuple(extra), tuple(order))


@dataclass(frozen=True)
class _UnitBody:
    """What binding reads of a unit: its block arguments and their types,
    its body ops (no yield) and its payload fields by body op index."""

    args: list[BlockArgument]
    in_types: list[Attribute]
    body: list[Operation]
    layout: dict[int, cl.FUField]


def _bind_constant(sw_const: Operation, hw_const: Operation, operand_type: Attribute, exact: bool,
                   trigger: int, unit: _UnitBody,
                   inputs: list[int | None], fields: list[tuple[str, int]]) -> bool:
    """Bind software constant `sw_const` (the root's operand of `operand_type`)
    to the body constant `hw_const`: its value to the constant's field, its
    trigger (the root's extra operand `trigger`) to the unit input that fires it."""
    if not fits(operand_type, hw_const.results[0].type, exact):
        return False
    port = unit.args.index(hw_const.operands[0])  # type: ignore[arg-type]
    if not fits(sw_const.operands[0].type, unit.in_types[port], exact=False):
        return False
    index = unit.body.index(hw_const)
    value = (_value_field(sw_const, hw_const, unit.layout[index].width)
             if index in unit.layout else None)
    if value is None:
        return False
    inputs[port] = trigger
    fields.append((cl.fu_field(index, "value"), value))
    return True


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
    if (sw.name in COMMUTATIVE or sw.name == "arith.cmpi") and n_sw == 2:
        yield [(0, 1), (1, 0)]   # a compare's predicate is then mirrored (MIRRORED)


def _paired_candidates(sw: Operation, partner: Partner, unit: FunctionUnit,
                       eff: Effective) -> Iterator[Candidate]:
    """Candidates of `sw` with `partner` on an effective graph of two ops of
    their name whose operands are unit inputs, the shared ones one input,
    and which have no config fields (a pair of branches); either body op may
    take `sw`."""
    if len(eff.ops) != 2 or {o.name for o in eff.ops} != {sw.name} or partner.op.name != sw.name:
        return
    block = unit.definition.regions[0].block
    body = [op for op in block.ops if op.name != "fabric.yield"]
    configured = {f.op_index for f in cl.fu_layout(unit.definition).fu_fields}
    if any(body.index(o) in configured for o in eff.ops):
        return
    in_types, out_types = _port_types(unit.definition)
    yields = [_resolve(v, eff.source) for v in block.last_op.operands]  # type: ignore[union-attr]
    for first, second in (eff.ops, eff.ops[::-1]):
        inputs = _pair_inputs(sw, partner, [first, second], list(block.args), eff, in_types)
        outputs = [None if y is None else
                   list(first.results).index(y) if y in first.results else
                   len(sw.results) + list(second.results).index(y) if y in second.results
                   else None for y in yields]
        results = [*sw.results, *partner.op.results]
        if inputs is not None and all(
                k in outputs and fits(r.type, out_types[outputs.index(k)], exact=False,
                                      moves=moved(sw.name, result=k % len(sw.results)))
                for k, r in enumerate(results)):
            yield Candidate(unit.pe, unit.opcode, unit.name, tuple(inputs), tuple(outputs),
                            eff.mux_fields)


def _pair_inputs(sw: Operation, partner: Partner, hw: list[Operation], args: list,
                 eff: Effective, in_types: list[Attribute]) -> list[int | None] | None:
    """For each unit input, the operand of `sw` (hw[0]'s) or, as the extra
    operand len(sw operands) + k, of the partner (hw[1]'s) it carries; None
    when the body ops' inputs do not match the pair (the shared operands on
    one input, the others each on its own) or a type does not fit."""
    ports = [[_resolve(v, eff.source) for v in op.operands] for op in hw]
    if any(v not in args for vs in ports for v in vs):
        return None
    mine, theirs = ([args.index(v) for v in vs] for vs in ports)
    if [k for k in range(len(mine)) if mine[k] == theirs[k]] != list(partner.shared) \
            or len(set(mine) | set(theirs)) != len(mine) + len(theirs) - len(partner.shared):
        return None
    inputs: list[int | None] = [None] * len(args)
    for op, on, base in ((sw, mine, 0), (partner.op, theirs, len(sw.operands))):
        low_bits = low_bit_operands(op.name, len(op.operands))
        for k, port in enumerate(on):
            if op is partner.op and k in partner.shared:
                continue
            if not fits(op.operands[k].type, in_types[port], k not in low_bits,
                        moves=moved(op.name, operand=k)):
                return None
            inputs[port] = base + k
    return inputs


def _minmax_candidates(sw: Operation, unit: FunctionUnit, eff: Effective) -> Iterator[Candidate]:
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
              (cl.fu_field(body.index(cmp), "value"), cl.cmpi_predicate(ALIASES[sw.name])))
    yield Candidate(unit.pe, unit.opcode, unit.name, tuple(inputs), tuple(outputs), fields)


@dataclass(frozen=True)
class UnitKinds:
    """Function units by kind, (definition, name): PE instances share unit
    definitions, so an op is matched once per kind and every unit of the
    kind gets the same bindings. Build it once for an ADG's units; a
    16x16's thousands of units made a walk per op cost a second."""

    units: tuple[FunctionUnit, ...]
    positions: tuple[tuple[int, ...], ...]
    """Per kind (first seen first), its units' positions in `units`."""
    graphs: tuple[tuple[Effective, ...], ...]
    """Per kind, the effective graphs of its definition."""

    @classmethod
    def of(cls, units: Sequence[FunctionUnit]) -> UnitKinds:
        kinds: dict[tuple[int, str], list[int]] = {}
        for k, unit in enumerate(units):
            kinds.setdefault((id(unit.definition), unit.name), []).append(k)
        positions = tuple(tuple(p) for p in kinds.values())
        return cls(tuple(units), positions,
                   tuple(tuple(effective_graphs(units[p[0]].definition)) for p in positions))


def candidates(sw: Operation, units: Sequence[FunctionUnit] | UnitKinds,
               folded: Mapping[int, Operation] | None = None,
               partner: Partner | None = None) -> list[Candidate]:
    """Every way to host DFG op `sw` on `units` (unit order, then selection
    order); with `folded` (operand -> its constant), only the compound units
    that hold those constants; with `partner`, only the units that hold the
    pair."""
    folded = folded or {}
    kinds = units if isinstance(units, UnitKinds) else UnitKinds.of(units)
    found: list[tuple[int, int, Candidate]] = []
    for positions, graphs in zip(kinds.positions, kinds.graphs):
        mine = _kind_candidates(sw, kinds.units[positions[0]], graphs, folded, partner)
        if not mine:
            continue
        for k in positions:
            unit = kinds.units[k]
            found += [(k, j, c if k == positions[0] else replace(c, pe=unit.pe,
                                                                 opcode=unit.opcode))
                      for j, c in enumerate(mine)]
    found.sort(key=lambda t: t[:2])
    return _unique([c for _, _, c in found])


def _kind_candidates(sw: Operation, unit: FunctionUnit, graphs: Sequence[Effective],
                     folded: Mapping[int, Operation], partner: Partner | None) -> list[Candidate]:
    mine: list[Candidate] = []
    for eff in graphs:
        if partner is not None:
            mine += [] if folded else _paired_candidates(sw, partner, unit, eff)
        elif sw.name in ALIASES:
            mine += [] if folded else _minmax_candidates(sw, unit, eff)
        elif len(eff.ops) == 1 + len(folded):
            mine += _rooted_candidates(sw, unit, eff, folded)
    return mine


def _unique(found: list[Candidate]) -> list[Candidate]:
    seen: set[Candidate] = set()
    return [c for c in found if not (c in seen or seen.add(c))]  # type: ignore[func-returns-value]


__all__ = ["ALIASES", "Candidate", "Effective", "Partner", "UnitKinds", "candidates",
           "effective_graphs"]
