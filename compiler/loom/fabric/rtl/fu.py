"""Function-unit bodies of a spatial PE, built from our unit templates
(design.md sections 5 and 9: one semantics for kernels and fabrics).

A function unit's wrapper module has FU-side lanes `in_data/in_valid/
in_ready` and `out_*`, every lane `lane` bits wide (the PE's width; FU port
values are LSB-aligned in it), and, when the FU has config fields, `cfg`
(its payload, positions from loom.fabric.config_layout.fu_layout). Each body
op is one unit; an op whose behaviour a config field chooses (cmpi's
predicate, stream's cont_cond) is one configurable unit driven by the field,
and a fabric.mux over the four divisions (or the ALU's ops) on the same
operands is one divider (one ALU): shared_groups. handshake.constant's value
and handshake.join's mask act in the wrapper around the unit.

The body is data (loom.fabric.rtl.sv: declarations, assigns, instances and
their expressions); templates/fabric_function_unit.sv.j2 writes it.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from functools import lru_cache

from xdsl.ir import Operation

from loom.diagnostics import LoomError
from loom.fabric.config_layout import FULayout, fu_layout
from loom.fabric.rtl.modules import Module, render_fabric
from loom.fabric.rtl.sv import (ONE, ZERO, Assign, Decl, Expr, Instance, Ref, Statement, decl,
                               expr, resize)
from loom.dialects.fabric_types import scalar_width
from loom.rtl.op_units import float_unit
from loom.rtl.render import render_spec
from loom.rtl.units import ALU_OPS, BINARY_OPS, CONFIGURED, DIV_OPS, UnitSpec, unit_spec


@dataclass
class Body:
    """A wrapper body as data (templates/fabric_function_unit.sv.j2 writes it): its
    declarations, statements in order, the bits nothing reads, and the unit
    modules it instantiates."""

    decls: list[Decl] = field(default_factory=list)
    lines: list[Statement] = field(default_factory=list)
    unused: list[Expr] = field(default_factory=list)
    units: dict[str, str] = field(default_factory=dict)

    def assign(self, lhs: Expr, rhs: Expr) -> None:
        self.lines.append(Assign(lhs, rhs))

    def channel(self, name: str, w: int) -> str:
        """Declare channel `name` (`_data` only when it carries w > 0 bits)."""
        if w:
            self.decls.append(decl(f"{name}_data", w))
        self.decls += [decl(f"{name}_valid"), decl(f"{name}_ready")]
        return name


@dataclass(frozen=True)
class FuModule:
    module: Module
    layout: FULayout
    units: tuple[Module, ...]
    """The unit modules the wrapper instantiates."""
    n_in: int
    n_out: int
    clocked: bool


def _w(t) -> int:
    """A FU port's value bits (0 for none: a control channel in our units)."""
    return scalar_width(t) or 0


# unit port names per op: (operand ports in operand order, result ports in result order)
_PORTS: dict[str, tuple[tuple[str, ...], tuple[str, ...]]] = {
    **{f"arith.{op}": (("lhs", "rhs"), ("result",)) for op in (*BINARY_OPS, "muli", *DIV_OPS)},
    **{name: (("lhs", "rhs"), ("result",)) for name in ("arith.cmpi", "arith.cmpf")},
    "arith.select": (("cond", "true_value", "false_value"), ("result",)),
    **{f"arith.{op}": (("ins",), ("outs",)) for op in ("extsi", "extui", "trunci",
                                                      "index_cast", "index_castui")},
    "handshake.cond_br": (("cond", "ins"), ("true_out", "false_out")),
    "handshake.load": (("addr", "data_from_mem", "ctrl"), ("data_to_comp", "addr_to_mem")),
    "handshake.store": (("addr", "data", "ctrl"), ("data_to_mem", "addr_to_mem")),
    "dataflow.stream": (("start", "step", "bound"), ("idx", "cont")),
    "dataflow.gate": (("before_value", "before_cond"), ("after_value", "after_cond")),
    "dataflow.carry": (("d", "a", "b"), ("o",)),
    "dataflow.invariant": (("d", "a"), ("o",)),
}


def _unit_of(op: Operation) -> tuple[UnitSpec, str | None]:
    """The unit of one body op and the plain input, if any, that its config
    field drives (cmpi's predicate, stream's cont_cond: one configurable
    datapath, not one unit per choice; cmpf's too)."""
    name = op.name
    ins = [_w(v.type) for v in op.operands]
    outs = [_w(r.type) for r in op.results]
    short = name.split(".", 1)[1]
    if name in ("arith.cmpi", "arith.cmpf"):
        return unit_spec(short, predicate=CONFIGURED, w=ins[0]), "predicate"
    if name == "dataflow.stream":
        step = op.properties["step_op"].data  # type: ignore[attr-defined]
        return unit_spec("stream", step_op=step, cont_cond=CONFIGURED, w=ins[0]), "cont_cond"
    if name in (f"arith.{o}" for o in (*BINARY_OPS, "muli", *DIV_OPS)):
        return unit_spec(short, w=outs[0]), None
    if name == "arith.select":
        return unit_spec("select", w=outs[0]), None
    if name in ("arith.extsi", "arith.extui", "arith.trunci", "arith.index_cast",
                "arith.index_castui"):
        family = short if short != "index_castui" else (
            "extui" if outs[0] > ins[0] else "trunci" if outs[0] < ins[0] else "index_cast")
        if family in ("extsi", "extui") and outs[0] <= ins[0] or (
                family == "trunci" and outs[0] >= ins[0]):
            family = "index_cast"   # same width or the other way: a wire / a resize
        return unit_spec(family, w_in=ins[0], w_out=outs[0]), None
    if name == "handshake.cond_br":
        return unit_spec("cond_br", w=outs[0]), None
    if name == "handshake.load":
        return unit_spec("load", rank=1, aw=ins[0], w=outs[0]), None
    if name == "handshake.store":
        return unit_spec("store", rank=1, aw=ins[0], w=outs[0]), None
    if name == "dataflow.gate":
        return unit_spec("gate", w=ins[0]), None
    if name == "dataflow.carry":
        return unit_spec("carry", w=outs[0]), None
    if name == "dataflow.invariant":
        return unit_spec("invariant", w=outs[0]), None
    if (unit := float_unit(op)) is not None:
        return unit_spec(unit.family, **unit.params), None
    raise LoomError(f"{name} in a function unit has no fabric RTL yet")


def _ports(op: Operation) -> tuple[tuple[str, ...], tuple[str, ...]]:
    """The unit's handshake port per operand and per result of `op`."""
    if op.name in _PORTS:
        return _PORTS[op.name]
    unit = float_unit(op)
    assert unit is not None, op.name   # _unit_of took it
    return tuple(p for p, _ in unit.ins), tuple(p for p, _ in unit.outs)


SHARED_FAMILIES = {
    **{f"arith.{op}": ("divrem", "op_sel", DIV_OPS.index(op)) for op in DIV_OPS},
    **{f"arith.{op}": ("alu", "op_sel", ALU_OPS.index(op)) for op in ALU_OPS},
}
"""Body ops that one configurable unit implements together: op name -> (unit
family, its plain select input, the op's code on it). A fabric.mux over any
of a family's ops (the four divisions; the ALU's adds, logic ops and shifts)
is one unit of the family."""


def shared_groups(ops: list[Operation]) -> dict[int, list[int]]:
    """Configurable fabric.muxes over ops of one shared family: mux index -> the
    indices of its operands' ops. Each such op has the same operands as the
    others and its one result feeds only the mux, so one unit (the family's,
    its op chosen by the mux's sel) is the whole group (LOOM's configurable
    function unit: a divider that divides or takes the remainder, signed or
    not)."""
    groups: dict[int, list[int]] = {}
    for m, mux in enumerate(ops):
        if mux.name != "fabric.mux" or len(mux.results) != 1 or len(mux.operands) < 2:
            continue
        owners = [v.owner for v in mux.operands]
        if not all(isinstance(o, Operation) and o in ops and o.name in SHARED_FAMILIES
                   for o in owners):
            continue
        # a result used only here is one operand of the mux: the owners are distinct
        families = {SHARED_FAMILIES[o.name][0] for o in owners}
        operands = {tuple(o.operands) for o in owners}
        if (len(families) == 1 and len(operands) == 1
                and all(len(o.results) == 1 and len(list(o.results[0].uses)) == 1 for o in owners)
                and len({o.results[0].type for o in owners}) == 1):
            groups[m] = [ops.index(o) for o in owners]
    return groups


@dataclass(frozen=True)
class _FuKey:
    """A function unit by its text: equal texts, lanes and origins give equal modules."""

    text: str
    lane: int
    origin: str
    report_used: bool
    fu: Operation = field(compare=False, hash=False)


def fu_module(fu: Operation, lane: int, origin: str, report_used: bool = False) -> FuModule:
    """The wrapper module of one function unit (a DAG of body ops); with
    `report_used`, an `in_used` output: per input, whether the configured
    effective graph reads it (a temporal PE's slot waits only for those)."""
    return _fu_module(_FuKey(str(fu), lane, origin, report_used, fu))


@lru_cache(maxsize=256)
def _fu_module(key: _FuKey) -> FuModule:
    # cached: a preset instantiates each PE definition many times (an 8x8
    # chess, 64 PEs of 32 units), and rendering a body is the costly part
    fu, lane, origin = key.fu, key.lane, key.origin
    layout = fu_layout(fu)
    block = fu.regions[0].block
    ops = [op for op in block.ops if op.name != "fabric.yield"]
    yield_op = block.last_op
    assert yield_op is not None
    n_in, n_out = len(block.args), len(yield_op.operands)
    body = Body()
    clocked = _Builder(body, lane, layout).build(block, ops, yield_op, key.report_used)
    # lanes carry LSB-aligned values: the bits above a port's width are not read
    body.unused = [Ref("in_data")] + ([Ref("cfg")] if layout.bits else []) + body.unused
    params = dict(fu=layout.name, ops=[op.name for op in ops], lane=lane, n_in=n_in,
                  n_out=n_out, units=sorted(body.units),
                  # only when set: a spatial PE's unit modules keep their names
                  **({"report_used": True} if key.report_used else {}))
    digest = __import__("hashlib").sha1(repr((params, key.text)).encode()).hexdigest()[:8]
    name = f"loom_fabric_fu_{layout.name}_l{lane}_{digest}"
    mod = render_fabric("fabric_function_unit", name, params, origin, n_in=n_in, n_out=n_out, lane=lane,
                        cfg_bits=layout.bits, clocked=clocked, report_used=key.report_used,
                        decls=body.decls,
                        lines=body.lines, unused=body.unused)
    units = tuple(Module(n, t) for n, t in body.units.items())
    return FuModule(mod, layout, units, n_in, n_out, clocked)


def _lane(k: int, lane: int, side: str) -> Ref:
    """Lane k of the wrapper's `<side>_data` bus."""
    return Ref(f"{side}_data", k * lane + lane - 1, k * lane)


def _sig(channel: str, signal: str) -> Ref:
    """`<channel>_<signal>` (data, valid, ready)."""
    return Ref(f"{channel}_{signal}")


class _OnTerms:
    """Per body op, when its result reaches a yield through the configured
    fabric.mux selections (an expression over cfg; ONE without muxes): the
    op is in the effective graph (loom.mapper.matching.effective_graphs)."""

    def __init__(self, builder: "_Builder", ops: list[Operation], yield_op: Operation):
        self.b, self.ops, self.yield_op = builder, ops, yield_op
        self.memo: dict[int, Expr] = {}

    def terms(self) -> list[Expr]:
        return [self.op_on(k) for k in range(len(self.ops))]

    def op_on(self, k: int) -> Expr:
        if k not in self.memo:
            self.memo[k] = _any(self.reach(r) for r in self.ops[k].results)
        return self.memo[k]

    def reach(self, value) -> Expr:
        terms: list[Expr] = []
        for use in value.uses:
            user = use.operation
            if user is self.yield_op:
                return ONE
            k = self.ops.index(user)
            if user.name != "fabric.mux" or len(user.operands) == len(user.results) == 1:
                terms.append(self.op_on(k))
                continue
            pick, live = self.b.pick(k), self.b.live(k)
            if len(user.results) == 1:
                terms.append(expr("and", pick(use.index), *live, expr("paren", self.reach(user.results[0]))))
            else:
                terms += [expr("and", pick(j), *live, expr("paren", self.reach(r)))
                          for j, r in enumerate(user.results)]
        return _any(terms)


def _any(terms) -> Expr:
    """The disjunction of `terms` (ONE if one always holds, ZERO if none)."""
    terms = [t for t in terms if t != ZERO]
    if ONE in terms:
        return ONE
    return expr("or", *(expr("paren", t) for t in terms)) if terms else ZERO


class _Builder:
    """Channels (data/valid/ready wires) for the body's values, one unit per op
    (a fork where a value has several uses), FU lanes at the block's edges."""

    def __init__(self, body: Body, lane: int, layout: FULayout):
        self.body, self.lane = body, lane
        self.fields = {ff.op_index: ff for ff in layout.fu_fields}
        self.offsets: dict[int, int] = {}
        pos = 0
        for ff in layout.fu_fields:
            self.offsets[ff.op_index] = pos
            pos += ff.width
        self.uses: dict[int, list[str]] = {}   # value id -> channel names, one per use
        self.clocked = False
        self.count = 0

    def channel(self, name: str, w: int) -> str:
        return self.body.channel(name, w)

    def resized(self, e: Expr, src: int, dst: int) -> Expr:
        return resize(e, src, dst, self.body.unused)

    def unit(self, spec: UnitSpec, origin: str) -> None:
        self.body.units.setdefault(spec.module, render_spec(spec, origin))
        self.clocked |= spec.clocked

    def produce(self, value, src: str) -> None:
        """`src` carries `value`; fork it when it has several uses."""
        users = [u for u in value.uses]
        w = _w(value.type)
        if len(users) <= 1:
            self.uses[id(value)] = [src]
            return
        n = len(users)
        spec = unit_spec("fork", n=n, w=w)
        self.unit(spec, "fork inside a function unit")
        names = [self.channel(f"{src}_f{u}", w) for u in range(n)]
        f = f"{src}_fork"
        b = self.body
        b.decls += ([decl(f"{f}_outs_data", n * w)] if w else []) + [
            decl(f"{f}_outs_valid", n), decl(f"{f}_outs_ready", n)]
        conns = _clock(spec)
        if w:
            conns += [("ins_data", _sig(src, "data")), ("outs_data", _sig(f, "outs_data"))]
        conns += [("ins_valid", _sig(src, "valid")), ("ins_ready", _sig(src, "ready")),
                  ("outs_valid", _sig(f, "outs_valid")), ("outs_ready", _sig(f, "outs_ready"))]
        b.lines.append(Instance(spec.module, f, tuple(conns)))
        for u, c in enumerate(names):
            if w:
                b.assign(_sig(c, "data"), Ref(f"{f}_outs_data", u * w + w - 1, u * w))
            b.assign(_sig(c, "valid"), Ref(f"{f}_outs_valid", u))
            b.assign(Ref(f"{f}_outs_ready", u), _sig(c, "ready"))
        self.uses[id(value)] = names

    def take(self, value) -> str:
        return self.uses[id(value)].pop(0)

    def build(self, block, ops, yield_op, report_used: bool = False) -> bool:
        b = self.body
        for k, arg in enumerate(block.args):
            w = _w(arg.type)
            c = self.channel(f"a{k}", w)
            if w:
                b.assign(_sig(c, "data"), self.resized(_lane(k, self.lane, "in"), self.lane, w))
            b.assign(_sig(c, "valid"), Ref("in_valid", k))
            b.assign(Ref("in_ready", k), _sig(c, "ready"))
            self.produce(arg, c)
        effective = _OnTerms(self, ops, yield_op)
        on = effective.terms()
        if report_used:   # an input is read when its value reaches a yield
            for k, arg in enumerate(block.args):
                b.assign(Ref("in_used", k), effective.reach(arg))
        groups = shared_groups(ops)
        member_of = {i for group in groups.values() for i in group}
        gated: dict[int, list[str]] = {}   # a group member's operand channels, gated on
        for index, op in enumerate(ops):
            if index in groups:   # its operands are the members' results: no channels
                outs = [self.channel(f"op{index}_r0", _w(op.results[0].type))]
                self.shared(index, [ops[i] for i in groups[index]],
                            [gated[i] for i in groups[index]], outs)
                self.produce(op.results[0], outs[0])
                continue
            ins = [self.take(v) for v in op.operands]
            if index in member_of:
                gated[index] = [self.gate_on(c, on[index], op, k) for k, c in enumerate(ins)]
                continue
            outs = [self.channel(f"op{index}_r{m}", _w(r.type)) for m, r in enumerate(op.results)]
            if op.name == "fabric.mux":
                self.fabric_mux(index, op, ins, outs)
            else:
                self.op(index, op, [self.gate_on(c, on[index], op, k)
                                    for k, c in enumerate(ins)], outs)
            for r, c in zip(op.results, outs):
                self.produce(r, c)
        for r, v in enumerate(yield_op.operands):
            c, w = self.take(v), _w(v.type)
            data = self.resized(_sig(c, "data"), w, self.lane) if w else expr("fill")
            b.assign(_lane(r, self.lane, "out"), data)
            b.assign(Ref("out_valid", r), _sig(c, "valid"))
            b.assign(_sig(c, "ready"), Ref("out_ready", r))
        return self.clocked

    def gate_on(self, c: str, on: Expr, op: Operation, k: int) -> str:
        """Operand channel `c` of a body op that is on when `on` holds: off, the op
        sees no token and the channel drains (the op is outside the effective graph)."""
        if on == ONE:
            return c
        w = _w(op.operands[k].type)
        g = self.channel(f"{c}_on", w)
        b = self.body
        if w:
            b.assign(_sig(g, "data"), _sig(c, "data"))
        b.assign(_sig(g, "valid"), expr("and", _sig(c, "valid"), expr("paren", on)))
        b.assign(_sig(c, "ready"), expr("or", _sig(g, "ready"), expr("not", expr("paren", on))))
        return g

    def mux_fields(self, index: int) -> tuple[Expr | None, Expr, Expr]:
        """(sel, discard, disconnect) of a configurable fabric.mux; sel None when 0 bits."""
        ff, lo = self.fields[index], self.offsets[index]
        sb = ff.width - 2
        sel = Ref("cfg", lo + sb - 1, lo) if sb else None
        return sel, Ref("cfg", lo + sb), Ref("cfg", lo + sb + 1)

    def pick(self, index: int):
        """i -> the condition that mux `index` selects its operand (or result) i."""
        sel = self.mux_fields(index)[0]
        sb = self.fields[index].width - 2
        if sel is None:
            return lambda i: ONE
        return lambda i: expr("eq", sel, expr("const", i, sb, "d"))

    def live(self, index: int) -> tuple[Expr, Expr]:
        """Mux `index` neither discards nor is disconnected: (~discard, ~disconnect)."""
        _, discard, disconnect = self.mux_fields(index)
        return expr("not", discard), expr("not", disconnect)

    def fabric_mux(self, index: int, op: Operation, ins: list[str], outs: list[str]) -> None:
        """The configured selection (LOOM's fabric_mux): M:1 passes the selected
        operand, 1:M sends the operand to the selected result; discard consumes
        without output, disconnect neither consumes nor outputs. Unselected
        operands of an M:1 drain: they come from ops outside the effective graph
        or from values the effective graph also uses elsewhere."""
        b = self.body
        if len(ins) == 1 and len(outs) == 1:   # transparent
            w = _w(op.results[0].type)
            if w:
                b.assign(_sig(outs[0], "data"),
                         self.resized(_sig(ins[0], "data"), _w(op.operands[0].type), w))
            b.assign(_sig(outs[0], "valid"), _sig(ins[0], "valid"))
            b.assign(_sig(ins[0], "ready"), _sig(outs[0], "ready"))
            return
        _, discard, disconnect = self.mux_fields(index)
        pick, live = self.pick(index), self.live(index)
        if len(outs) == 1:
            o, w = outs[0], _w(op.results[0].type)
            b.assign(_sig(o, "valid"), expr("and", *live, expr("paren", expr("or", *(
                expr("paren", expr("and", pick(i), _sig(c, "valid"))) for i, c in enumerate(ins))))))
            if w:
                b.assign(_sig(o, "data"), expr("or", *(
                    expr("paren", expr("and", expr("repl", w, pick(i)),
                               self.resized(_sig(c, "data"), _w(v.type), w)))
                    for i, (c, v) in enumerate(zip(ins, op.operands)))))
            for i, c in enumerate(ins):
                b.assign(_sig(c, "ready"), expr("and", expr("not", disconnect), expr("paren", expr("or", 
                    expr("not", pick(i)), discard, _sig(o, "ready")))))
            return
        c, w_in = ins[0], _w(op.operands[0].type)
        for j, (o, r) in enumerate(zip(outs, op.results)):
            w = _w(r.type)
            if w:
                b.assign(_sig(o, "data"), self.resized(_sig(c, "data"), w_in, w))
            b.assign(_sig(o, "valid"), expr("and", *live, pick(j), _sig(c, "valid")))
        b.assign(_sig(c, "ready"), expr("and", expr("not", disconnect), expr("paren", expr("or", discard, *(
            expr("paren", expr("and", pick(j), _sig(o, "ready"))) for j, o in enumerate(outs))))))

    def cfg(self, index: int) -> Ref:
        ff, lo = self.fields[index], self.offsets[index]
        return Ref("cfg", lo + ff.width - 1, lo)

    def op(self, index: int, op: Operation, ins: list[str], outs: list[str]) -> None:
        b = self.body
        if op.name == "handshake.constant":
            b.assign(_sig(outs[0], "valid"), _sig(ins[0], "valid"))
            b.assign(_sig(ins[0], "ready"), _sig(outs[0], "ready"))
            b.assign(_sig(outs[0], "data"), self.cfg(index))
            if _w(op.operands[0].type):
                b.unused.append(_sig(ins[0], "data"))
            return
        if op.name == "handshake.join":
            self.join(index, op, ins, outs)
            return
        if op.name == "handshake.mux":
            self.mux(op, ins, outs)
            return
        spec, plain = _unit_of(op)
        self.instance(spec, f"op{index}", ins, outs, op, _ports(op),
                      {plain: (self.cfg(index), self.fields[index].width)} if plain else {})

    def instance(self, spec: UnitSpec, inst: str, ins: list[str], outs: list[str],
                 op: Operation, ports: tuple[tuple[str, ...], tuple[str, ...]],
                 plain: dict[str, tuple[Expr, int]]) -> None:
        """Unit `spec` as `inst`, its handshake ports on the channels of `op`'s
        operands and results, its plain inputs driven by `plain` (an expression
        and its bits)."""
        b = self.body
        self.unit(spec, f"{op.name} in a function unit")
        conns = _clock(spec)
        for p in spec.ports:
            for _, sig, n in p.signals():
                b.decls.append(decl(f"{inst}_{sig}", n))
                conns.append((sig, _sig(inst, sig)))
        b.lines.append(Instance(spec.module, inst, tuple(conns)))
        for name, (value, bits) in plain.items():
            b.assign(_sig(inst, name), self.resized(value, bits, spec.port(name).width))
        in_ports, out_ports = ports
        for pname, c, val in zip(in_ports, ins, op.operands):
            p = spec.port(pname)
            if p.width:
                b.assign(_sig(inst, f"{pname}_data"),
                         self.resized(_sig(c, "data"), _w(val.type), p.width))
            elif _w(val.type):
                b.unused.append(_sig(c, "data"))
            b.assign(_sig(inst, f"{pname}_valid"), _sig(c, "valid"))
            b.assign(_sig(c, "ready"), _sig(inst, f"{pname}_ready"))
        for pname, c, r in zip(out_ports, outs, op.results):
            b.assign(_sig(inst, f"{pname}_ready"), _sig(c, "ready"))
            b.assign(_sig(c, "valid"), _sig(inst, f"{pname}_valid"))
            w, pw = _w(r.type), spec.port(pname).width
            if w:
                b.assign(_sig(c, "data"), self.resized(_sig(inst, f"{pname}_data"), pw, w))

    def shared(self, index: int, members: list[Operation], member_ins: list[list[str]],
               outs: list[str]) -> None:
        """A shared_groups mux and its members as one configurable unit: each
        operand is the selected member's (the others' are off and drain, as
        gate_on makes them), the unit's op is the selected member's code."""
        b, pick = self.body, self.pick(index)
        family, plain, _ = SHARED_FAMILIES[members[0].name]
        first = members[0]
        w = _w(first.results[0].type)
        spec = unit_spec(family, w=w)
        sel_w = spec.port(plain).width
        code = expr("or", *(
            expr("paren", expr("and", expr("repl", sel_w, pick(i)),
                               expr("const", SHARED_FAMILIES[m.name][2], sel_w, "d")))
            for i, m in enumerate(members)))
        merged = []
        for k, val in enumerate(first.operands):
            c, vw = self.channel(f"op{index}_a{k}", _w(val.type)), _w(val.type)
            if vw:
                b.assign(_sig(c, "data"), expr("or", *(
                    expr("paren", expr("and", expr("repl", vw, pick(i)), _sig(ch[k], "data")))
                    for i, ch in enumerate(member_ins))))
            b.assign(_sig(c, "valid"), expr("or", *(_sig(ch[k], "valid") for ch in member_ins)))
            for i, ch in enumerate(member_ins):
                b.assign(_sig(ch[k], "ready"), expr("and", _sig(c, "ready"), pick(i)))
            merged.append(c)
        self.instance(spec, f"op{index}_u", merged, outs, first, _PORTS[first.name],
                      {plain: (code, sel_w)})

    def join(self, index: int, op: Operation, ins: list[str], outs: list[str]) -> None:
        b, n = self.body, len(op.operands)
        spec = unit_spec("join", n=n)
        self.unit(spec, "handshake.join in a function unit")
        j = f"op{index}"
        b.decls += [decl(f"{j}_valid", n), decl(f"{j}_ready", n), decl(f"{j}_mask", n)]
        b.assign(_sig(j, "mask"), self.cfg(index))
        # a masked-out input takes no part: always valid to the join, never consumed
        for pos, (c, val) in enumerate(zip(ins, op.operands)):
            b.assign(Ref(f"{j}_valid", pos), expr("cond", Ref(f"{j}_mask", pos), _sig(c, "valid"),
                                                     expr("redor", _sig(j, "mask"))))
            b.assign(_sig(c, "ready"), expr("and", Ref(f"{j}_mask", pos), Ref(f"{j}_ready", pos)))
            if _w(val.type):
                b.unused.append(_sig(c, "data"))
        b.lines.append(Instance(spec.module, f"{j}_u", (
            ("ins_valid", _sig(j, "valid")), ("ins_ready", _sig(j, "ready")),
            ("outs_valid", _sig(outs[0], "valid")), ("outs_ready", _sig(outs[0], "ready")))))

    def mux(self, op: Operation, ins: list[str], outs: list[str]) -> None:
        b, n = self.body, len(op.operands) - 1
        w = _w(op.results[0].type)
        spec = unit_spec("mux", n=n, w=w)
        self.unit(spec, "handshake.mux in a function unit")
        sw = spec.port("sel").width
        m = outs[0] + "_mux"
        b.decls += [decl(f"{m}_sel", sw), decl(f"{m}_ins_data", n * w),
                    decl(f"{m}_ins_valid", n), decl(f"{m}_ins_ready", n)]
        b.assign(_sig(m, "sel"), self.resized(_sig(ins[0], "data"), _w(op.operands[0].type), sw))
        for pos, (c, val) in enumerate(zip(ins[1:], op.operands[1:])):
            b.assign(Ref(f"{m}_ins_data", pos * w + w - 1, pos * w),
                     self.resized(_sig(c, "data"), _w(val.type), w))
            b.assign(Ref(f"{m}_ins_valid", pos), _sig(c, "valid"))
            b.assign(_sig(c, "ready"), Ref(f"{m}_ins_ready", pos))
        b.lines.append(Instance(spec.module, m, (
            ("sel_data", _sig(m, "sel")), ("sel_valid", _sig(ins[0], "valid")),
            ("sel_ready", _sig(ins[0], "ready")), ("ins_data", _sig(m, "ins_data")),
            ("ins_valid", _sig(m, "ins_valid")), ("ins_ready", _sig(m, "ins_ready")),
            ("outs_data", _sig(outs[0], "data")), ("outs_valid", _sig(outs[0], "valid")),
            ("outs_ready", _sig(outs[0], "ready")))))


def _clock(spec: UnitSpec) -> list[tuple[str, Expr]]:
    """The clock and reset connections of a clocked unit."""
    return [("clk", Ref("clk")), ("rst", Ref("rst"))] if spec.clocked else []
