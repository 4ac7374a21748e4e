"""Function-unit bodies of a spatial PE, built from our unit templates
(design.md sections 5 and 9: one semantics for kernels and fabrics).

A function unit's wrapper module has FU-side lanes `in_data/in_valid/
in_ready` and `out_*`, every lane `lane` bits wide (the PE's width; FU port
values are LSB-aligned in it), and, when the FU has config fields, `cfg`
(its payload, positions from loom.fabric.config_layout.fu_layout). The body
is one op; ops whose behaviour a config field chooses are built as one unit
per choice (cmpi: one per predicate, stream: one per cont_cond) with the
field steering the tokens to one of them. handshake.constant's value and
handshake.join's mask act in the wrapper around the unit.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from xdsl.ir import Operation

from loom.diagnostics import LoomError
from loom.fabric.config_layout import CMPI_PREDICATES, CONT_COND_BITS, FULayout, fu_layout
from loom.fabric.rtl.graph import wire_width
from loom.fabric.rtl.modules import Module, render_fabric
from loom.dialects.fabric_types import scalar_width
from loom.rtl.ports import Port
from loom.rtl.render import render_spec
from loom.rtl.units import BINARY_OPS, CONT_CONDS, DIV_OPS, UnitSpec, clog2, unit_spec


@dataclass
class Body:
    """SystemVerilog lines of a wrapper body, and the bits nothing reads."""

    decls: list[str] = field(default_factory=list)
    lines: list[str] = field(default_factory=list)
    unused: list[str] = field(default_factory=list)
    units: dict[str, str] = field(default_factory=dict)


@dataclass(frozen=True)
class FuModule:
    module: Module
    units: tuple[Module, ...]
    layout: FULayout
    n_in: int
    n_out: int
    clocked: bool


def _w(t) -> int:
    """A FU port's value bits (0 for none: a control channel in our units)."""
    return scalar_width(t) or 0


# unit port names per op: (operand ports in operand order, result ports in result order)
_PORTS: dict[str, tuple[tuple[str, ...], tuple[str, ...]]] = {
    **{f"arith.{op}": (("lhs", "rhs"), ("result",)) for op in (*BINARY_OPS, "muli", *DIV_OPS)},
    "arith.cmpi": (("lhs", "rhs"), ("result",)),
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


def _variants(op: Operation) -> list[tuple[UnitSpec, int | None]]:
    """The units of one body op and, when a config field picks one, its value."""
    name = op.name
    ins = [_w(v.type) for v in op.operands]
    outs = [_w(r.type) for r in op.results]
    short = name.split(".", 1)[1]
    if name == "arith.cmpi":
        return [(unit_spec("cmpi", predicate=p, w=ins[0]), k)
                for k, p in enumerate(CMPI_PREDICATES)]
    if name == "dataflow.stream":
        step = op.properties["step_op"].data  # type: ignore[attr-defined]
        return [(unit_spec("stream", step_op=step, cont_cond=c, w=ins[0]), bit)
                for c, bit in CONT_COND_BITS.items() if c in CONT_CONDS]
    if name in (f"arith.{o}" for o in BINARY_OPS):
        return [(unit_spec(short, w=outs[0]), None)]
    if name in (f"arith.{o}" for o in ("muli", *DIV_OPS)):
        return [(unit_spec(short, w=outs[0]), None)]
    if name == "arith.select":
        return [(unit_spec("select", w=outs[0]), None)]
    if name in ("arith.extsi", "arith.extui", "arith.trunci", "arith.index_cast",
                "arith.index_castui"):
        family = short if short != "index_castui" else (
            "extui" if outs[0] > ins[0] else "trunci" if outs[0] < ins[0] else "index_cast")
        if family in ("extsi", "extui") and outs[0] <= ins[0] or (
                family == "trunci" and outs[0] >= ins[0]):
            family = "index_cast"   # same width or the other way: a wire / a resize
        return [(unit_spec(family, w_in=ins[0], w_out=outs[0]), None)]
    if name == "handshake.cond_br":
        return [(unit_spec("cond_br", w=outs[0]), None)]
    if name == "handshake.load":
        return [(unit_spec("load", rank=1, aw=ins[0], w=outs[0]), None)]
    if name == "handshake.store":
        return [(unit_spec("store", rank=1, aw=ins[0], w=outs[0]), None)]
    if name == "dataflow.gate":
        return [(unit_spec("gate", w=ins[0]), None)]
    if name == "dataflow.carry":
        return [(unit_spec("carry", w=outs[0]), None)]
    if name == "dataflow.invariant":
        return [(unit_spec("invariant", w=outs[0]), None)]
    raise LoomError(f"{name} in a function unit has no fabric RTL yet")


_SLICE = __import__("re").compile(r"(\w+)\[(\d+):(\d+)\]")


def _resize(body: Body, expr: str, src: int, dst: int) -> str:
    if dst == src:
        return expr
    if dst > src:
        return f"{{{dst - src}'d0, {expr}}}"
    m = _SLICE.fullmatch(expr)
    if m:   # narrow a slice in place: SystemVerilog cannot chain range selects
        base, lo = m.group(1), int(m.group(3))
        body.unused.append(f"{base}[{lo + src - 1}:{lo + dst}]")
        return f"{base}[{lo + dst - 1}:{lo}]"
    body.unused.append(f"{expr}[{src - 1}:{dst}]")
    return f"{expr}[{dst - 1}:0]"


def fu_module(fu: Operation, lane: int, origin: str) -> FuModule:
    """The wrapper module of one function unit (a DAG of body ops)."""
    layout = fu_layout(fu)
    block = fu.regions[0].block
    ops = [op for op in block.ops if op.name != "fabric.yield"]
    yield_op = block.last_op
    assert yield_op is not None
    n_in, n_out = len(block.args), len(yield_op.operands)
    body = Body()
    clocked = _Builder(body, lane, layout).build(block, ops, yield_op)
    # lanes carry LSB-aligned values: the bits above a port's width are not read
    body.unused = ["in_data"] + (["cfg"] if layout.bits else []) + body.unused
    params = dict(fu=layout.name, ops=[op.name for op in ops], lane=lane, n_in=n_in,
                  n_out=n_out, units=sorted(body.units))
    digest = __import__("hashlib").sha1(repr((params, str(fu))).encode()).hexdigest()[:8]
    name = f"loom_fabric_fu_{layout.name}_l{lane}_{digest}"
    mod = render_fabric("fabric_fu", name, params, origin, n_in=n_in, n_out=n_out, lane=lane,
                        cfg_bits=layout.bits, clocked=clocked, decls=body.decls,
                        lines=body.lines, unused=body.unused)
    units = tuple(Module(n, t) for n, t in body.units.items())
    return FuModule(mod, units, layout, n_in, n_out, clocked)


def _lane(k: int, lane: int, side: str) -> str:
    return f"{side}_data[{k * lane + lane - 1}:{k * lane}]"


ONE = "1'b1"


class _OnTerms:
    """Per body op, when its result reaches a yield through the configured
    fabric.mux selections (SystemVerilog over cfg; ONE without muxes): the
    op is in the effective graph (loom.mapper.techmap.effective_graphs)."""

    def __init__(self, builder: "_Builder", ops: list[Operation], yield_op: Operation):
        self.b, self.ops, self.yield_op = builder, ops, yield_op
        self.memo: dict[int, str] = {}

    def terms(self) -> list[str]:
        return [self.op_on(k) for k in range(len(self.ops))]

    def op_on(self, k: int) -> str:
        if k not in self.memo:
            self.memo[k] = _any(self.reach(r) for r in self.ops[k].results)
        return self.memo[k]

    def reach(self, value) -> str:
        terms = []
        for use in value.uses:
            user = use.operation
            if user is self.yield_op:
                return ONE
            k = self.ops.index(user)
            if user.name != "fabric.mux" or len(user.operands) == len(user.results) == 1:
                terms.append(self.op_on(k))
                continue
            sel, discard, disconnect = self.b.mux_fields(k)
            sb = self.b.fields[k].width - 2
            pick = (lambda i: f"({sel} == {sb}'d{i})") if sel else (lambda i: ONE)
            live = f"~{discard} & ~{disconnect}"
            if len(user.results) == 1:
                terms.append(f"{pick(use.index)} & {live} & ({self.reach(user.results[0])})")
            else:
                terms += [f"{pick(j)} & {live} & ({self.reach(r)})"
                          for j, r in enumerate(user.results)]
        return _any(terms)


def _any(terms) -> str:
    terms = [t for t in terms if t != "1'b0"]
    if ONE in terms:
        return ONE
    return " | ".join(f"({t})" for t in terms) if terms else "1'b0"


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
        if w:
            self.body.decls.append(f"logic [{w - 1}:0] {name}_data;")
        self.body.decls += [f"logic {name}_valid;", f"logic {name}_ready;"]
        return name

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
        self.body.decls += ([f"logic [{n * w - 1}:0] {f}_outs_data;"] if w else []) + [
            f"logic [{n - 1}:0] {f}_outs_valid;", f"logic [{n - 1}:0] {f}_outs_ready;"]
        conns = [".clk(clk)", ".rst(rst)"] if spec.clocked else []
        if w:
            conns += [f".ins_data({src}_data)", f".outs_data({f}_outs_data)"]
        conns += [f".ins_valid({src}_valid)", f".ins_ready({src}_ready)",
                  f".outs_valid({f}_outs_valid)", f".outs_ready({f}_outs_ready)"]
        self.body.lines.append(f"{spec.module} {f} (" + ", ".join(conns) + ");")
        for u, c in enumerate(names):
            if w:
                self.body.lines.append(f"assign {c}_data = {f}_outs_data[{u * w + w - 1}:{u * w}];")
            self.body.lines += [f"assign {c}_valid = {f}_outs_valid[{u}];",
                                f"assign {f}_outs_ready[{u}] = {c}_ready;"]
        self.uses[id(value)] = names

    def take(self, value) -> str:
        return self.uses[id(value)].pop(0)

    def build(self, block, ops, yield_op) -> bool:
        for k, arg in enumerate(block.args):
            w = _w(arg.type)
            c = self.channel(f"a{k}", w)
            if w:
                self.body.lines.append(
                    f"assign {c}_data = {_resize(self.body, _lane(k, self.lane, 'in'), self.lane, w)};")
            self.body.lines += [f"assign {c}_valid = in_valid[{k}];",
                                f"assign in_ready[{k}] = {c}_ready;"]
            self.produce(arg, c)
        on = _OnTerms(self, ops, yield_op).terms()
        for index, op in enumerate(ops):
            ins = [self.take(v) for v in op.operands]
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
            data = _resize(self.body, f"{c}_data", w, self.lane) if w else "'0"
            self.body.lines += [f"assign {_lane(r, self.lane, 'out')} = {data};",
                                f"assign out_valid[{r}] = {c}_valid;",
                                f"assign {c}_ready = out_ready[{r}];"]
        return self.clocked

    def gate_on(self, c: str, on: str, op: Operation, k: int) -> str:
        """Operand channel `c` of a body op that is on when `on` holds: off, the op
        sees no token and the channel drains (the op is outside the effective graph)."""
        if on == ONE:
            return c
        w = _w(op.operands[k].type)
        g = self.channel(f"{c}_on", w)
        if w:
            self.body.lines.append(f"assign {g}_data = {c}_data;")
        self.body.lines += [f"assign {g}_valid = {c}_valid & ({on});",
                            f"assign {c}_ready = {g}_ready | ~({on});"]
        return g

    def mux_fields(self, index: int) -> tuple[str, str, str]:
        """(sel, discard, disconnect) of a configurable fabric.mux; sel '' when 0 bits."""
        ff, lo = self.fields[index], self.offsets[index]
        sb = ff.width - 2
        sel = f"cfg[{lo + sb - 1}:{lo}]" if sb else ""
        return sel, f"cfg[{lo + sb}]", f"cfg[{lo + sb + 1}]"

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
                b.lines.append(f"assign {outs[0]}_data = "
                               f"{_resize(b, f'{ins[0]}_data', _w(op.operands[0].type), w)};")
            b.lines += [f"assign {outs[0]}_valid = {ins[0]}_valid;",
                        f"assign {ins[0]}_ready = {outs[0]}_ready;"]
            return
        sel, discard, disconnect = self.mux_fields(index)
        sb = self.fields[index].width - 2
        pick = (lambda i: f"({sel} == {sb}'d{i})") if sel else (lambda i: "1'b1")
        live = f"~{discard} & ~{disconnect}"
        if len(outs) == 1:
            o, w = outs[0], _w(op.results[0].type)
            b.lines.append(f"assign {o}_valid = {live} & (" + " | ".join(
                f"({pick(i)} & {c}_valid)" for i, c in enumerate(ins)) + ");")
            if w:
                b.lines.append(f"assign {o}_data = " + " | ".join(
                    f"({{{w}{{{pick(i)}}}}} & "
                    f"{_resize(b, f'{c}_data', _w(v.type), w)})"
                    for i, (c, v) in enumerate(zip(ins, op.operands))) + ";")
            for i, c in enumerate(ins):
                b.lines.append(f"assign {c}_ready = ~{disconnect} & (~{pick(i)} | {discard} "
                               f"| {o}_ready);")
            return
        c, w_in = ins[0], _w(op.operands[0].type)
        for j, (o, r) in enumerate(zip(outs, op.results)):
            w = _w(r.type)
            if w:
                b.lines.append(f"assign {o}_data = {_resize(b, f'{c}_data', w_in, w)};")
            b.lines.append(f"assign {o}_valid = {live} & {pick(j)} & {c}_valid;")
        b.lines.append(f"assign {c}_ready = ~{disconnect} & ({discard} | " + " | ".join(
            f"({pick(j)} & {o}_ready)" for j, o in enumerate(outs)) + ");")

    def cfg(self, index: int) -> str:
        ff, lo = self.fields[index], self.offsets[index]
        return f"cfg[{lo + ff.width - 1}:{lo}]"

    def op(self, index: int, op: Operation, ins: list[str], outs: list[str]) -> None:
        b = self.body
        if op.name == "handshake.constant":
            w = _w(op.results[0].type)
            b.lines += [f"assign {outs[0]}_valid = {ins[0]}_valid;",
                        f"assign {ins[0]}_ready = {outs[0]}_ready;",
                        f"assign {outs[0]}_data = {self.cfg(index)};"]
            if _w(op.operands[0].type):
                b.unused.append(f"{ins[0]}_data")
            return
        if op.name == "handshake.join":
            self.join(index, op, ins, outs)
            return
        if op.name == "handshake.mux":
            self.mux(op, ins, outs)
            return
        variants = _variants(op)
        in_ports, out_ports = _PORTS[op.name]
        select = self.cfg(index) if index in self.fields else None
        sel_w = self.fields[index].width if index in self.fields else 0
        tag = f"op{index}"
        actives = []
        for v, (spec, value) in enumerate(variants):
            self.unit(spec, f"{op.name} in a function unit")
            inst = f"{tag}_u{v}"
            active = "1'b1" if value is None else f"({select} == {sel_w}'d{value})"
            actives.append(active)
            conns = [".clk(clk)", ".rst(rst)"] if spec.clocked else []
            for p in spec.ports:
                for _, sig, bits in p.signals():
                    b.decls.append(f"logic [{bits - 1}:0] {inst}_{sig};")
                    conns.append(f".{sig}({inst}_{sig})")
            b.lines.append(f"{spec.module} {inst} (" + ", ".join(conns) + ");")
            for pname, c, val in zip(in_ports, ins, op.operands):
                p = spec.port(pname)
                if p.width:
                    b.lines.append(f"assign {inst}_{pname}_data = "
                                   f"{_resize(b, f'{c}_data', _w(val.type), p.width)};")
                elif _w(val.type):
                    b.unused.append(f"{c}_data")
                b.lines.append(f"assign {inst}_{pname}_valid = {c}_valid & {active};")
            for pname, c in zip(out_ports, outs):
                b.lines.append(f"assign {inst}_{pname}_ready = {c}_ready & {active};")
        n = len(variants)
        for pname, c in zip(in_ports, ins):
            b.lines.append(f"assign {c}_ready = " + " | ".join(
                f"({actives[v]} & {tag}_u{v}_{pname}_ready)" for v in range(n)) + ";")
        for pname, c, r in zip(out_ports, outs, op.results):
            b.lines.append(f"assign {c}_valid = " + " | ".join(
                f"({actives[v]} & {tag}_u{v}_{pname}_valid)" for v in range(n)) + ";")
            w, pw = _w(r.type), variants[0][0].port(pname).width
            if w:
                data = " | ".join(f"({{{pw}{{{actives[v]}}}}} & {tag}_u{v}_{pname}_data)"
                                  for v in range(n))
                b.lines.append(f"assign {c}_data = {_resize(b, f'({data})', pw, w)};")

    def join(self, index: int, op: Operation, ins: list[str], outs: list[str]) -> None:
        b, n = self.body, len(op.operands)
        spec = unit_spec("join", n=n)
        self.unit(spec, "handshake.join in a function unit")
        j = f"op{index}"
        b.decls += [f"logic [{n - 1}:0] {j}_valid;", f"logic [{n - 1}:0] {j}_ready;",
                    f"logic [{n - 1}:0] {j}_mask;"]
        b.lines.append(f"assign {j}_mask = {self.cfg(index)};")
        # a masked-out input takes no part: always valid to the join, never consumed
        for pos, (c, val) in enumerate(zip(ins, op.operands)):
            b.lines += [f"assign {j}_valid[{pos}] = {j}_mask[{pos}] ? {c}_valid : |{j}_mask;",
                        f"assign {c}_ready = {j}_mask[{pos}] & {j}_ready[{pos}];"]
            if _w(val.type):
                b.unused.append(f"{c}_data")
        b.lines.append(f"{spec.module} {j}_u (.ins_valid({j}_valid), .ins_ready({j}_ready), "
                       f".outs_valid({outs[0]}_valid), .outs_ready({outs[0]}_ready));")

    def mux(self, op: Operation, ins: list[str], outs: list[str]) -> None:
        b, n = self.body, len(op.operands) - 1
        w = _w(op.results[0].type)
        spec = unit_spec("mux", n=n, w=w)
        self.unit(spec, "handshake.mux in a function unit")
        sw = spec.port("sel").width
        m = outs[0] + "_mux"
        b.decls += [f"logic [{sw - 1}:0] {m}_sel;", f"logic [{n * w - 1}:0] {m}_ins_data;",
                    f"logic [{n - 1}:0] {m}_ins_valid;", f"logic [{n - 1}:0] {m}_ins_ready;"]
        b.lines.append(f"assign {m}_sel = "
                       f"{_resize(b, f'{ins[0]}_data', _w(op.operands[0].type), sw)};")
        for pos, (c, val) in enumerate(zip(ins[1:], op.operands[1:])):
            b.lines += [f"assign {m}_ins_data[{pos * w + w - 1}:{pos * w}] = "
                        f"{_resize(b, f'{c}_data', _w(val.type), w)};",
                        f"assign {m}_ins_valid[{pos}] = {c}_valid;",
                        f"assign {c}_ready = {m}_ins_ready[{pos}];"]
        b.lines.append(
            f"{spec.module} {m} (.sel_data({m}_sel), .sel_valid({ins[0]}_valid), "
            f".sel_ready({ins[0]}_ready), .ins_data({m}_ins_data), .ins_valid({m}_ins_valid), "
            f".ins_ready({m}_ins_ready), .outs_data({outs[0]}_data), "
            f".outs_valid({outs[0]}_valid), .outs_ready({outs[0]}_ready));")
