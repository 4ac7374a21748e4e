"""The RTL unit families: parameters, mangled module names, ports.

Each family maps validated parameters to a `UnitSpec`: the template to render,
the specialized module name (`loom_fork_n2_w32`), the handshake ports, whether
the unit has state (only clocked units get `clk`/`rst`, so purely
combinational units lint clean without waivers) and the template context.
"""

from __future__ import annotations

import hashlib
from collections.abc import Callable
from dataclasses import dataclass, field
from math import prod
from typing import Any

from loom import floats
from loom.diagnostics import LoomError, Location
from loom.golden.ops.arith import PREDICATE_NAMES
from loom.rtl.ports import Extras, Port

STEP_OPS = {"+=": "add", "-=": "sub", "*=": "mul", "/=": "div", "<<=": "shl", ">>=": "shr"}
CONT_CONDS = {"<": "lt", "<=": "le", ">": "gt", ">=": "ge", "!=": "ne"}
CMP_PREDICATES = PREDICATE_NAMES
BINARY_OPS = ("addi", "subi", "andi", "ori", "xori", "shli", "shrsi", "shrui",
              "minsi", "maxsi", "minui", "maxui")
DIV_OPS = ("divsi", "divui", "remsi", "remui")
ALU_OPS = ("addi", "subi", "andi", "ori", "xori", "shli", "shrsi", "shrui")
"""The ops of the configurable `alu` unit, in the order of its `op_sel` codes."""
CONFIGURED = "cfg"
"""A cmpi predicate or stream cont_cond chosen at run time by a plain input of
the same name (a fabric unit whose config field selects it), not fixed."""
CAST_OPS = ("extsi", "extui", "trunci", "index_cast", "bitcast")
FLOAT_SIGN_OPS = ("negf", "absf")
FLOAT_MINMAX_OPS = ("minnumf", "maxnumf")
FLOAT_ARITH_TEMPLATES = {"addf": "float_add", "subf": "float_add", "mulf": "float_mul",
                         "divf": "float_div", "sqrt": "float_sqrt"}
FLOAT_CONVERT_OPS = ("sitofp", "uitofp", "fptosi", "fptoui", "extf", "truncf")
FLOAT_PIPELINED = (*FLOAT_ARITH_TEMPLATES, *FLOAT_CONVERT_OPS)
"""The float units with a latency parameter (a pipeline after the
combinational core, templates/pipeline_macros.sv.j2)."""
FLOAT_EXPONENT_BITS = 16
"""Signed bits of the exponents inside a float unit: enough for a binary64
product's or quotient's least significant bit (about -2,200 to 2,100)."""
FIFO_KINDS = ("oehb", "tehb", "fifo")
EXTMEMORY_IN_FLIGHT = 2   # default beats in flight per extmemory bridge, and credits per load port


@dataclass(frozen=True)
class ExternalMemory:
    """What stands behind the master port of an extmemory bridge (or a
    load-store queue): `in_flight` beats it keeps in flight (the unit's k) and
    `latency`, the cycles from a beat's acceptance at the port to its
    response (1: the test harness's memory under --ideal). The latency
    changes no RTL; loom.rtl.timing reads it, so that buffer placement gives
    the loop the slack a slower memory needs."""

    in_flight: int = EXTMEMORY_IN_FLIGHT
    latency: int = 1

    def params(self) -> dict[str, int]:
        """The unit parameters that say so (none for the default)."""
        out = {"k": self.in_flight} if self.in_flight != EXTMEMORY_IN_FLIGHT else {}
        return out | ({"mem_latency": self.latency} if self.latency != 1 else {})


@dataclass(frozen=True)
class UnitSpec:
    family: str
    template: str
    module: str
    params: dict[str, Any]
    ports: tuple[Port, ...]
    clocked: bool
    context: dict[str, Any] = field(default_factory=dict)

    def port(self, name: str) -> Port:
        for p in self.ports:
            if p.name == name:
                return p
        raise KeyError(name)

    @property
    def inputs(self) -> tuple[Port, ...]:
        return tuple(p for p in self.ports if p.direction == "in")

    @property
    def outputs(self) -> tuple[Port, ...]:
        return tuple(p for p in self.ports if p.direction == "out")


def clog2(n: int) -> int:
    return max(0, (n - 1).bit_length())


class _Params:
    """Validates one family's keyword parameters with one-line errors."""

    def __init__(self, family: str, params: dict[str, Any], loc: Location | None):
        self.family, self.params, self.loc = family, dict(params), loc
        self.used: set[str] = set()

    def fail(self, msg: str) -> LoomError:
        return LoomError(f"unit '{self.family}': {msg}", self.loc)

    def int(self, name: str, lo: int, hi: int = 1 << 16, default: int | None = None) -> int:
        self.used.add(name)
        if name not in self.params:
            if default is None:
                raise self.fail(f"missing parameter '{name}'")
            return default
        v = self.params[name]
        if isinstance(v, bool) or not isinstance(v, int) or not lo <= v <= hi:
            raise self.fail(f"parameter '{name}' must be an integer in [{lo}, {hi}], got {v!r}")
        return v

    def choice(self, name: str, options: Any, default: str | None = None) -> str:
        self.used.add(name)
        v = self.params.get(name, default)
        if v not in options:
            raise self.fail(f"parameter '{name}' must be one of {', '.join(options)}, got {v!r}")
        return v

    def flag(self, name: str, default: bool) -> bool:
        self.used.add(name)
        v = self.params.get(name, default)
        if not isinstance(v, bool):
            raise self.fail(f"parameter '{name}' must be a boolean, got {v!r}")
        return v

    def values(self, name: str, count: int, width: int) -> tuple[int, ...] | None:
        """`count` integers of `width` bits (two's complement for negatives), as
        unsigned bit patterns; None when the parameter is absent."""
        self.used.add(name)
        v = self.params.get(name)
        if v is None:
            return None
        if not isinstance(v, (list, tuple)) or len(v) != count or not all(
                isinstance(x, int) and not isinstance(x, bool) and -(1 << (width - 1)) <= x
                < (1 << width) for x in v):
            raise self.fail(f"parameter '{name}' must be {count} integers of {width} bits")
        return tuple(x & ((1 << width) - 1) for x in v)

    def extras(self) -> Extras:
        """Downstream extra signals as ((name, width), ...)."""
        self.used.add("extras")
        raw = self.params.get("extras", ())
        out = []
        try:
            for name, w in raw:
                if not (isinstance(name, str) and name.isidentifier() and name.isascii()):
                    raise self.fail(f"extra signal name {name!r} is not an identifier")
                if isinstance(w, bool) or not isinstance(w, int) or w < 1:
                    raise self.fail(f"extra signal '{name}' needs a width >= 1, got {w!r}")
                out.append((name, w))
        except (TypeError, ValueError):
            raise self.fail(f"parameter 'extras' must be a list of (name, width), got {raw!r}") from None
        if len({n for n, _ in out}) != len(out):
            raise self.fail("extra signal names must be distinct")
        for reserved in ("data", "valid", "ready", "bus"):
            if reserved in dict(out):
                raise self.fail(f"extra signal name '{reserved}' is reserved")
        return tuple(out)

    def shape(self) -> tuple[int, ...]:
        self.used.add("shape")
        v = self.params.get("shape")
        if (not isinstance(v, (tuple, list)) or not v
                or any(isinstance(d, bool) or not isinstance(d, int) or d < 1 for d in v)):
            raise self.fail(f"parameter 'shape' must be a non-empty list of extents >= 1, got {v!r}")
        return tuple(v)

    def done(self) -> None:
        extra = sorted(set(self.params) - self.used)
        if extra:
            raise self.fail(f"unknown parameter(s) {', '.join(extra)}")


def _xsuffix(extras: Extras) -> str:
    return "".join(f"_x{n}{w}" for n, w in extras)


def _needs_data(p: _Params, w: int, extras: Extras) -> None:
    if extras and w == 0:
        raise p.fail("a control channel (w=0) cannot carry extra signals")


# ---------------------------------------------------------------- families

Builder = Callable[[_Params], UnitSpec]
FAMILIES: dict[str, Builder] = {}


def family(*names: str) -> Callable[[Builder], Builder]:
    def deco(fn: Builder) -> Builder:
        for n in names:
            FAMILIES[n] = fn
        return fn
    return deco


@family("fork", "lazy_fork")
def _fork(p: _Params) -> UnitSpec:
    n, w, ex = p.int("n", 1, 256), p.int("w", 0, 4096), p.extras()
    _needs_data(p, w, ex)
    lazy = p.family == "lazy_fork"
    ports = (Port("ins", "in", w, None, ex), Port("outs", "out", w, n, ex))
    return UnitSpec(p.family, p.family, f"loom_{p.family}_n{n}_w{w}{_xsuffix(ex)}",
                    dict(n=n, w=w, extras=ex), ports, clocked=not lazy,
                    context=dict(n=n, w=w))


@family("join")
def _join(p: _Params) -> UnitSpec:
    n = p.int("n", 1, 256)
    ports = (Port("ins", "in", 0, n), Port("outs", "out", 0))
    return UnitSpec("join", "join", f"loom_join_n{n}", dict(n=n), ports, False,
                    dict(n=n))


@family("sync")
def _sync(p: _Params) -> UnitSpec:
    n, w = p.int("n", 1, 256), p.int("w", 0, 4096)
    ports = (Port("ins", "in", w, n), Port("outs", "out", w, n))
    return UnitSpec("sync", "sync", f"loom_sync_n{n}_w{w}", dict(n=n, w=w), ports,
                    True, dict(n=n, w=w))


@family("merge")
def _merge(p: _Params) -> UnitSpec:
    n, w, ex = p.int("n", 1, 256), p.int("w", 0, 4096), p.extras()
    _needs_data(p, w, ex)
    ports = (Port("ins", "in", w, n, ex), Port("outs", "out", w, None, ex))
    return UnitSpec("merge", "merge", f"loom_merge_n{n}_w{w}{_xsuffix(ex)}",
                    dict(n=n, w=w, extras=ex), ports, False, dict(n=n, w=w))


@family("control_merge")
def _control_merge(p: _Params) -> UnitSpec:
    n, w = p.int("n", 1, 256), p.int("w", 0, 4096)
    iw = max(1, clog2(n))
    ports = (Port("ins", "in", w, n), Port("outs", "out", w), Port("index", "out", iw))
    return UnitSpec("control_merge", "control_merge", f"loom_control_merge_n{n}_w{w}",
                    dict(n=n, w=w), ports, True, dict(n=n, w=w, iw=iw))


@family("mux")
def _mux(p: _Params) -> UnitSpec:
    n, w, ex = p.int("n", 1, 256), p.int("w", 0, 4096), p.extras()
    _needs_data(p, w, ex)
    sw = max(1, clog2(n))
    ports = (Port("sel", "in", sw), Port("ins", "in", w, n, ex), Port("outs", "out", w, None, ex))
    return UnitSpec("mux", "mux", f"loom_mux_n{n}_w{w}{_xsuffix(ex)}",
                    dict(n=n, w=w, extras=ex), ports, False, dict(n=n, w=w, sw=sw))


@family("cond_br")
def _cond_br(p: _Params) -> UnitSpec:
    w, ex = p.int("w", 0, 4096), p.extras()
    _needs_data(p, w, ex)
    ports = (Port("cond", "in", 1), Port("ins", "in", w, None, ex),
             Port("true_out", "out", w, None, ex), Port("false_out", "out", w, None, ex))
    return UnitSpec("cond_br", "cond_br", f"loom_cond_br_w{w}{_xsuffix(ex)}",
                    dict(w=w, extras=ex), ports, False, dict(w=w))


@family("constant")
def _constant(p: _Params) -> UnitSpec:
    w = p.int("w", 1, 4096)
    v = p.params.get("value")
    p.used.add("value")
    if isinstance(v, bool) or not isinstance(v, int) or not -(1 << (w - 1)) <= v < (1 << w):
        raise p.fail(f"parameter 'value' must be an integer representable in {w} bits, got {v!r}")
    v &= (1 << w) - 1
    ports = (Port("ctrl", "in", 0), Port("outs", "out", w))
    return UnitSpec("constant", "constant", f"loom_constant_w{w}_v{v}", dict(w=w, value=v),
                    ports, False, dict(w=w, value=v))


@family("source")
def _source(p: _Params) -> UnitSpec:
    return UnitSpec("source", "source", "loom_source", {}, (Port("outs", "out", 0),), False)


@family("sink")
def _sink(p: _Params) -> UnitSpec:
    return UnitSpec("sink", "sink", "loom_sink", {}, (Port("ins", "in", 0),), False)


@family("oehb", "tehb")
def _half_buffer(p: _Params) -> UnitSpec:
    w, ex = p.int("w", 0, 4096), p.extras()
    _needs_data(p, w, ex)
    ports = (Port("ins", "in", w, None, ex), Port("outs", "out", w, None, ex))
    return UnitSpec(p.family, p.family, f"loom_{p.family}_w{w}{_xsuffix(ex)}",
                    dict(w=w, extras=ex), ports, True, dict(w=w))


@family("fifo")
def _fifo(p: _Params) -> UnitSpec:
    slots, w, ex = p.int("slots", 2, 1 << 16), p.int("w", 0, 4096), p.extras()
    transparent = p.flag("transparent", False)
    _needs_data(p, w, ex)
    ports = (Port("ins", "in", w, None, ex), Port("outs", "out", w, None, ex))
    t = "t" if transparent else ""
    return UnitSpec("fifo", "fifo", f"loom_fifo{t}_s{slots}_w{w}{_xsuffix(ex)}",
                    dict(slots=slots, w=w, transparent=transparent, extras=ex), ports, True,
                    dict(slots=slots, w=w, transparent=transparent, pw=max(1, clog2(slots)),
                         pow2=slots & (slots - 1) == 0))


DIVIDER_STAGES = 8
"""A divider's default pipeline depth, LOOM's smallest divider latency: 8
stages of w/8 quotient bits each (8 bits a stage at 64 bits, 4 at 32)."""


def divider_latency(w: int) -> int:
    """A w-bit divider's default latency: DIVIDER_STAGES, or w stages of one bit
    each when w is narrower."""
    return min(w, DIVIDER_STAGES)


@family(*BINARY_OPS)
def _binary(p: _Params) -> UnitSpec:
    w = p.int("w", 1, 4096)
    ports = (Port("lhs", "in", w), Port("rhs", "in", w), Port("result", "out", w))
    return UnitSpec(p.family, "arith_binary", f"loom_{p.family}_w{w}", dict(w=w), ports, False,
                    dict(op=p.family, w=w))


@family("alu")
def _alu(p: _Params) -> UnitSpec:
    """ALU_OPS on one datapath (templates/arith_alu.sv.j2), the plain input
    `op_sel` naming one (its index in ALU_OPS): a fabric unit's configured
    choice. One adder for addi and subi, one right shifter for the three
    shifts; combinational, like each op's own unit."""
    w = p.int("w", 2, 4096)
    ports = (Port("lhs", "in", w), Port("rhs", "in", w), Port("result", "out", w),
             Port("op_sel", "in", clog2(len(ALU_OPS)), plain=True))
    return UnitSpec("alu", "arith_alu", f"loom_alu_w{w}", dict(w=w), ports, False,
                    dict(w=w, aw=clog2(w), ops=list(ALU_OPS), op_sel_bits=clog2(len(ALU_OPS))))


@family(*DIV_OPS, "divrem")
def _divider(p: _Params) -> UnitSpec:
    """Pipelined (templates/arith_divider.sv.j2): `latency` stages of about
    w / latency one-bit steps each, one operand pair a cycle. `divrem` is the
    four ops on one datapath, the plain input `op_sel` naming one (its index
    in DIV_OPS): a fabric unit's configured choice."""
    w = p.int("w", 1, 4096)
    lat = p.int("latency", 1, w, default=divider_latency(w))
    ports = (Port("lhs", "in", w), Port("rhs", "in", w), Port("result", "out", w))
    if p.family == "divrem":
        ports += (Port("op_sel", "in", 2, plain=True),)
    return UnitSpec(p.family, "arith_divider", f"loom_{p.family}_w{w}_l{lat}",
                    dict(w=w, latency=lat), ports, True, dict(op=p.family, w=w, latency=lat))


@family("cmpi")
def _cmpi(p: _Params) -> UnitSpec:
    w, pred = p.int("w", 1, 4096), p.choice("predicate", (*CMP_PREDICATES, CONFIGURED))
    ports = (Port("lhs", "in", w), Port("rhs", "in", w), Port("result", "out", 1))
    if pred == CONFIGURED:   # the predicate's index in CMP_PREDICATES
        ports += (Port("predicate", "in", clog2(len(CMP_PREDICATES)), plain=True),)
    return UnitSpec("cmpi", "cmpi", f"loom_cmpi_{pred}_w{w}", dict(predicate=pred, w=w),
                    ports, False, dict(predicate=pred, w=w))


def _float_format(p: _Params) -> dict[str, int]:
    """The template context of a binary32 / binary64 unit: w, e (exponent bits)
    and the canonical NaN (loom.floats)."""
    w = p.int("w", 32, 64)
    if w not in floats.FORMATS:
        raise p.fail(f"parameter 'w' must be 32 or 64 (binary32, binary64), got {w}")
    f = floats.fmt(w)
    return dict(w=w, e=f.exponent_bits, nan=f.canonical_nan)


@family("cmpf")
def _cmpf(p: _Params) -> UnitSpec:
    fmt = _float_format(p)
    pred = p.choice("predicate", (*floats.CMPF_NAMES, CONFIGURED))
    w = fmt["w"]
    ports = (Port("lhs", "in", w), Port("rhs", "in", w), Port("result", "out", 1))
    if pred == CONFIGURED:   # the predicate's MLIR ordinal (a fabric unit's config field)
        ports += (Port("predicate", "in", clog2(len(floats.CMPF_NAMES)), plain=True),)
        relation, unordered = None, False
    else:
        relation, unordered = floats.CMPF_PREDICATES[pred]
    return UnitSpec("cmpf", "cmpf", f"loom_cmpf_{pred}_w{w}", dict(predicate=pred, w=w), ports,
                    False, dict(fmt, predicate=pred, relation=relation, unordered=unordered,
                                predicates=list(floats.CMPF_PREDICATES.values())))


@family(*FLOAT_SIGN_OPS)
def _float_sign(p: _Params) -> UnitSpec:
    fmt = _float_format(p)
    w = fmt["w"]
    ports = (Port("ins", "in", w), Port("outs", "out", w))
    return UnitSpec(p.family, "float_sign", f"loom_{p.family}_w{w}", dict(w=w), ports, False,
                    dict(fmt, op=p.family))


@family(*FLOAT_MINMAX_OPS)
def _float_minmax(p: _Params) -> UnitSpec:
    fmt = _float_format(p)
    w = fmt["w"]
    ports = (Port("lhs", "in", w), Port("rhs", "in", w), Port("result", "out", w))
    return UnitSpec(p.family, "float_minmax", f"loom_{p.family}_w{w}", dict(w=w), ports, False,
                    dict(fmt, op=p.family))


FLOAT_LATENCY = {"addf": (6, 7), "subf": (6, 7), "mulf": (2, 3), "divf": (15, 36),
                 "sqrt": (15, 36)}
"""Default latencies (binary32, binary64): the stage counts of the FloPoCo
configurations in EPFL Dynamatic's data/components.json whose critical path
is nearest 5 ns (a 200 MHz clock): addf 6 / 7 stages at 3.6 / 5.1 ns (the
64-bit one a hair over), mulf 2 / 3, divf 15 / 36. sqrt takes the
divider's (Dynamatic has none); the conversions take 5, Dynamatic's sitofp
and fptosi latency."""
FLOAT_CONVERT_LATENCY = 5


def float_latency(op: str, w: int) -> int:
    """The default latency of float op `op` (FLOAT_LATENCY's) on w bits (32 or 64)."""
    return FLOAT_LATENCY[op][w == 64]


@family(*FLOAT_ARITH_TEMPLATES)
def _float_arith(p: _Params) -> UnitSpec:
    """Pipelined IEEE arithmetic (templates/float_add, float_mul, float_div,
    float_sqrt): a combinational core, rounded once, then `latency` stages."""
    fmt = _float_format(p)
    w = fmt["w"]
    lat = p.int("latency", 0, 64, default=float_latency(p.family, w))
    unary = p.family == "sqrt"
    ports = (Port("ins", "in", w), Port("outs", "out", w)) if unary else \
        (Port("lhs", "in", w), Port("rhs", "in", w), Port("result", "out", w))
    return UnitSpec(p.family, FLOAT_ARITH_TEMPLATES[p.family], f"loom_{p.family}_w{w}_l{lat}",
                    dict(w=w, latency=lat), ports, lat > 0,
                    dict(fmt, op=p.family, latency=lat, xb=FLOAT_EXPONENT_BITS))


@family(*FLOAT_CONVERT_OPS)
def _float_convert(p: _Params) -> UnitSpec:
    """Conversions between the float formats and integers of 1 to 64 bits
    (templates/float_convert.sv.j2)."""
    op = p.family
    float_in, float_out = op in ("fptosi", "fptoui", "extf", "truncf"), \
        op in ("sitofp", "uitofp", "extf", "truncf")
    # an integer result has a sign bit and a magnitude bit at least
    wi, wo = p.int("w_in", 1, 64), p.int("w_out", 2 if op.startswith("fpto") else 1, 64)
    ctx: dict[str, Any] = dict(op=op, wi=wi, wo=wo, xb=FLOAT_EXPONENT_BITS)
    for side, width, is_float in (("i", wi, float_in), ("o", wo, float_out)):
        if is_float:
            if width not in floats.FORMATS:
                raise p.fail(f"parameter 'w_{'in' if side == 'i' else 'out'}' must be 32 or 64 "
                             f"(binary32, binary64), got {width}")
            ctx[f"e{side}"] = floats.fmt(width).exponent_bits
    if op == "extf" and not wo > wi or op == "truncf" and not wo < wi:
        raise p.fail(f"w_out ({wo}) must be {'wider' if op == 'extf' else 'narrower'} than w_in ({wi})")
    if float_out:
        ctx["nan"] = floats.fmt(wo).canonical_nan
    lat = p.int("latency", 0, 64, default=FLOAT_CONVERT_LATENCY)
    ctx["latency"] = lat
    ports = (Port("ins", "in", wi), Port("outs", "out", wo))
    return UnitSpec(op, "float_convert", f"loom_{op}_w{wi}_to{wo}_l{lat}",
                    dict(w_in=wi, w_out=wo, latency=lat), ports, lat > 0, ctx)


@family("select")
def _select(p: _Params) -> UnitSpec:
    w = p.int("w", 1, 4096)
    ports = (Port("cond", "in", 1), Port("true_value", "in", w), Port("false_value", "in", w),
             Port("result", "out", w))
    return UnitSpec("select", "select", f"loom_select_w{w}", dict(w=w), ports, False, dict(w=w))


@family(*CAST_OPS)
def _cast(p: _Params) -> UnitSpec:
    wi, wo = p.int("w_in", 1, 4096), p.int("w_out", 1, 4096)
    op = p.family
    if op in ("extsi", "extui") and wo <= wi:
        raise p.fail(f"w_out ({wo}) must be wider than w_in ({wi})")
    if op == "trunci" and wo >= wi:
        raise p.fail(f"w_out ({wo}) must be narrower than w_in ({wi})")
    if op == "bitcast" and wo != wi:   # a float's pattern as an integer, or back
        raise p.fail(f"w_out ({wo}) must equal w_in ({wi})")
    ports = (Port("ins", "in", wi), Port("outs", "out", wo))
    return UnitSpec(op, "cast", f"loom_{op}_w{wi}_to{wo}", dict(w_in=wi, w_out=wo), ports,
                    False, dict(op=op, wi=wi, wo=wo))


@family("muli")
def _pipelined(p: _Params) -> UnitSpec:
    w, lat = p.int("w", 1, 4096), p.int("latency", 0, 64, default=4)
    ports = (Port("lhs", "in", w), Port("rhs", "in", w), Port("result", "out", w))
    return UnitSpec(p.family, "arith_pipelined", f"loom_{p.family}_w{w}_l{lat}",
                    dict(w=w, latency=lat), ports, lat > 0, dict(op=p.family, w=w, latency=lat))


@family("compose", "decompose")
def _compose(p: _Params) -> UnitSpec:
    w, ex = p.int("w", 1, 4096), p.extras()
    if not ex:
        raise p.fail("needs at least one extra signal")
    total = w + sum(x for _, x in ex)
    if p.family == "compose":
        ports = (Port("ins", "in", w, None, ex), Port("outs", "out", total))
    else:
        ports = (Port("ins", "in", total), Port("outs", "out", w, None, ex))
    return UnitSpec(p.family, "compose", f"loom_{p.family}_w{w}{_xsuffix(ex)}",
                    dict(w=w, extras=ex), ports, False, dict(w=w, op=p.family))


@family("unbundle", "bundle")
def _bundle(p: _Params) -> UnitSpec:
    """unbundle: channel -> control token, data, one channel per extra signal
    (each its own handshake, served eagerly); bundle: the join back."""
    w, ex = p.int("w", 1, 4096), p.extras()
    parts = (Port("outs_ctrl" if p.family == "unbundle" else "ins_ctrl",
                  "out" if p.family == "unbundle" else "in", 0),)
    side = "out" if p.family == "unbundle" else "in"
    pre = "outs" if p.family == "unbundle" else "ins"
    parts += (Port(f"{pre}_data", side, w),)
    parts += tuple(Port(f"{pre}_x{n}", side, ew) for n, ew in ex)
    chan = (Port("ins", "in", w, None, ex),) if p.family == "unbundle" else (Port("outs", "out", w, None, ex),)
    ports = chan + parts if p.family == "unbundle" else parts + chan
    return UnitSpec(p.family, "bundle", f"loom_{p.family}_w{w}{_xsuffix(ex)}",
                    dict(w=w, extras=ex), ports, p.family == "unbundle",
                    dict(op=p.family, w=w, extras=ex, n=2 + len(ex),
                         names=["data"] + [f"x{n}" for n, _ in ex]))


# ---------------------------------------------------------------- dataflow

@family("stream")
def _stream(p: _Params) -> UnitSpec:
    step = p.choice("step_op", tuple(STEP_OPS))
    cont = p.choice("cont_cond", (*CONT_CONDS, CONFIGURED))
    w = p.int("w", 1, 4096, default=64)
    ports = (Port("start", "in", w), Port("step", "in", w), Port("bound", "in", w),
             Port("idx", "out", w), Port("cont", "out", 1))
    if cont == CONFIGURED:   # one bit per CONT_CONDS entry (LOOM's one-hot field)
        ports += (Port("cont_cond", "in", len(CONT_CONDS), plain=True),)
    cond = CONT_CONDS.get(cont, CONFIGURED)
    return UnitSpec("stream", "dataflow_stream", f"loom_stream_{STEP_OPS[step]}_{cond}_w{w}",
                    dict(step_op=step, cont_cond=cont, w=w), ports, True,
                    dict(step_name=STEP_OPS[step], cond_name=cond, w=w))


@family("gate")
def _gate(p: _Params) -> UnitSpec:
    w = p.int("w", 0, 4096)
    ports = (Port("before_value", "in", w), Port("before_cond", "in", 1),
             Port("after_value", "out", w), Port("after_cond", "out", 1))
    return UnitSpec("gate", "dataflow_gate", f"loom_gate_w{w}", dict(w=w), ports, True,
                    dict(w=w))


@family("carry")
def _carry(p: _Params) -> UnitSpec:
    w = p.int("w", 0, 4096)
    ports = (Port("d", "in", 1), Port("a", "in", w), Port("b", "in", w), Port("o", "out", w))
    return UnitSpec("carry", "dataflow_carry", f"loom_carry_w{w}", dict(w=w), ports, True,
                    dict(w=w))


@family("invariant")
def _invariant(p: _Params) -> UnitSpec:
    w = p.int("w", 0, 4096)
    ports = (Port("d", "in", 1), Port("a", "in", w), Port("o", "out", w))
    return UnitSpec("invariant", "dataflow_invariant", f"loom_invariant_w{w}", dict(w=w),
                    ports, True, dict(w=w))


# ---------------------------------------------------------------- memory side

@family("load", "store")
def _mem_port(p: _Params) -> UnitSpec:
    rank, aw, w = p.int("rank", 1, 8, default=1), p.int("aw", 1, 64, default=64), p.int("w", 1, 4096)
    if p.family == "load":
        ports = (Port("addr", "in", aw, rank), Port("data_from_mem", "in", w),
                 Port("ctrl", "in", 0),
                 Port("data_to_comp", "out", w), Port("addr_to_mem", "out", aw, rank))
    else:
        ports = (Port("addr", "in", aw, rank), Port("data", "in", w), Port("ctrl", "in", 0),
                 Port("data_to_mem", "out", w), Port("addr_to_mem", "out", aw, rank))
    # load rank 1 is a join plus a wire; everything else forks a joined token
    clocked = p.family == "store" or rank > 1
    return UnitSpec(p.family, f"mem_{p.family}", f"loom_{p.family}_r{rank}_a{aw}_w{w}",
                    dict(rank=rank, aw=aw, w=w), ports, clocked,
                    dict(rank=rank, aw=aw, w=w))


def _memory_ports(ld: int, st: int, rank: int, aw: int, w: int) -> tuple[Port, ...]:
    ports: list[Port] = []
    if st:
        ports += [Port("st_data", "in", w, st), Port("st_addr", "in", aw, st * rank)]
    if ld:
        ports += [Port("ld_addr", "in", aw, ld * rank), Port("ld_data", "out", w, ld)]
    if st:
        ports.append(Port("st_done", "out", 0, st))
    if ld:
        ports.append(Port("ld_done", "out", 0, ld))
    return tuple(ports)


def _strides(shape: tuple[int, ...]) -> list[int]:
    strides, acc = [], 1
    for d in reversed(shape):
        strides.insert(0, acc)
        acc *= d
    return strides


def _element_bits(p: _Params, depth: int, aw: int) -> int:
    """Bits of an element index of a `depth`-element array (at least 1), which
    the `aw`-bit addresses must hold."""
    if clog2(depth) > aw:
        raise p.fail(f"address width aw={aw} cannot index {depth} elements")
    return max(1, clog2(depth))


def _master_ports(dw: int, w: int) -> tuple[Port, ...]:
    """The master port of a unit in front of external memory (extmemory, lsq):
    a read and a write per beat; in-order responses; mem_idle: nothing in
    flight (the top's done waits for it)."""
    return (Port("mem_req", "out", 0, None, master_request_fields(dw, w)),
            Port("mem_resp", "in", w), Port("mem_idle", "out", 0, plain=True))


@family("memory", "extmemory")
def _memory(p: _Params) -> UnitSpec:
    ld, st = p.int("ld", 0, 64), p.int("st", 0, 64)
    shape = p.shape()
    w, aw = p.int("w", 1, 4096), p.int("aw", 1, 64, default=64)
    if ld + st == 0:
        raise p.fail("needs at least one load or store port")
    depth = prod(shape)
    init = p.values("init", depth, w) if p.family == "memory" else None
    if init is not None and st:
        raise p.fail("a memory with contents (init) is read-only: no store ports")
    if p.family == "memory" and st == 0 and init is None:
        raise p.fail("an on-chip memory without store ports or contents would never hold data")
    dw = _element_bits(p, depth, aw)
    rank = len(shape)
    ports = _memory_ports(ld, st, rank, aw, w)
    shape_s = "x".join(map(str, shape))
    ctx = dict(ld=ld, st=st, rank=rank, shape=shape, strides=_strides(shape),
               depth=depth, dw=dw, aw=aw, w=w, init=init)
    params = dict(ld=ld, st=st, shape=shape, w=w, aw=aw)
    module = f"loom_{p.family}_l{ld}_s{st}_d{shape_s}_a{aw}_w{w}"
    if init is not None:   # a ROM: its contents name the module (two tables, two modules)
        digest = hashlib.sha256(",".join(map(str, init)).encode()).hexdigest()[:10]
        params["init"] = f"<{depth} values, sha256 {digest}>"
        module += f"_rom{digest}"
    if p.family == "extmemory":
        ports += _master_ports(dw, w)
        # beats in flight: 2 keep one beat (a load and a store) per cycle
        # with a latency-1 memory (request slot, storage; the response
        # bypasses the queue and the credit it frees is reused in the same
        # cycle)
        k = p.int("k", 1, 64, default=EXTMEMORY_IN_FLIGHT)
        params["k"] = ctx["k"] = k
        module += f"_k{k}"
        _memory_latency(p, params)
    return UnitSpec(p.family, p.family, module, params, ports, True, ctx)


def _memory_latency(p: _Params, params: dict[str, Any]) -> None:
    """ExternalMemory.latency: a timing parameter (loom.rtl.timing), no RTL."""
    lat = p.int("mem_latency", 1, 1024, default=1)
    if lat != 1:
        params["mem_latency"] = lat


LSQ_KINDS = ("ld", "st")


def _lsq_groups(p: _Params) -> tuple[tuple[tuple[str, int], ...], ...]:
    """The allocation groups: each a non-empty sequence of (kind, port)."""
    p.used.add("groups")
    raw = p.params.get("groups")
    try:
        groups = tuple(tuple((str(kind), int(port)) for kind, port in g) for g in raw)  # type: ignore[union-attr]
    except (TypeError, ValueError):
        raise p.fail(f"parameter 'groups' must be lists of (kind, port), got {raw!r}") from None
    if not groups or not all(groups) or any(k not in LSQ_KINDS for g in groups for k, _ in g):
        raise p.fail("parameter 'groups' needs non-empty groups of ('ld' | 'st', port)")
    return groups


@family("lsq")
def _lsq(p: _Params) -> UnitSpec:
    """A load-store queue in front of external memory (templates/lsq.sv.j2)."""
    ld, st = p.int("ld", 1, 64), p.int("st", 1, 64)
    shape = p.shape()
    w, aw = p.int("w", 1, 4096), p.int("aw", 1, 64, default=64)
    groups = _lsq_groups(p)
    lq, sq = p.int("lq", 2, 256), p.int("sq", 2, 256)
    k = p.int("k", 1, 64, default=EXTMEMORY_IN_FLIGHT)
    for name, depth in (("lq", lq), ("sq", sq)):
        if depth & (depth - 1):
            raise p.fail(f"parameter '{name}' must be a power of two, got {depth}")
    for kind, n in (("ld", ld), ("st", st)):
        used = {port for g in groups for kd, port in g if kd == kind}
        if used != set(range(n)):
            raise p.fail(f"the groups must use each {kind} port 0..{n - 1} and no other")
    if max(sum(kd == "ld" for kd, _ in g) for g in groups) > lq \
            or max(sum(kd == "st" for kd, _ in g) for g in groups) > sq:
        raise p.fail("a group has more accesses than its queue has entries")
    depth = prod(shape)
    dw = _element_bits(p, depth, aw)
    rank = len(shape)
    ng = len(groups)
    ports = (Port("st_data", "in", w, st), Port("st_addr", "in", aw, st * rank),
             Port("ld_addr", "in", aw, ld * rank), Port("alloc", "in", 0, ng), Port("fence", "in", 0),
             Port("ld_data", "out", w, ld), Port("ack", "out", 0, ng), Port("fence_done", "out", 0),
             *_master_ports(dw, w))
    code = "_".join("".join(f"{kd[0]}{port}" for kd, port in g) for g in groups)
    shape_s = "x".join(map(str, shape))
    params = dict(ld=ld, st=st, shape=shape, w=w, aw=aw, groups=groups, lq=lq, sq=sq, k=k)
    _memory_latency(p, params)
    ctx = dict(params, rank=rank, strides=_strides(shape), dw=dw, depth=depth)
    module = f"loom_lsq_l{ld}_s{st}_d{shape_s}_a{aw}_w{w}_q{lq}x{sq}_k{k}_g{code}"
    return UnitSpec("lsq", "lsq", module, params, ports, True, ctx)


def master_signals(spec: UnitSpec) -> list[tuple[str, str, int]]:
    """(direction, signal, bits) of an extmemory's master port (mem_req,
    mem_resp, mem_idle), as its module declares them; none for other units."""
    return [s for p in spec.ports if p.name.startswith("mem_") for s in p.signals()]


def master_request_fields(addr_bits: int, w: int) -> tuple[tuple[str, int], ...]:
    """The fields of an extmemory master port's request beat beside
    valid/ready (templates/extmemory.sv.j2): one read (re, raddr) and one
    write (we, waddr, wdata), element addresses, as a simple dual-port
    memory takes them."""
    return (("re", 1), ("raddr", addr_bits), ("we", 1), ("waddr", addr_bits), ("wdata", w))


def unit_spec(family_name: str, loc: Location | None = None, **params: Any) -> UnitSpec:
    """The validated specification of one unit; LoomError on bad parameters."""
    builder = FAMILIES.get(family_name)
    if builder is None:
        raise LoomError(f"no RTL unit family '{family_name}'", loc)
    p = _Params(family_name, params, loc)
    spec = builder(p)
    p.done()
    return spec
