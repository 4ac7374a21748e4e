"""Test cases of every RTL unit family: stimulus plus golden expectation.

`cases_for(family)` returns one UnitCase per parameter set of the catalog
(loom.rtl.catalog). The expected streams always come from the golden op
classes in loom.golden.ops; this module only chooses inputs (and, where the
golden model needs it, the order in which tokens arrive).
"""

from __future__ import annotations

import random
from collections.abc import Callable
from typing import Any

from loom.golden.actor import Actor
from loom.golden.channel import Channel
from loom.golden.build import BINARY_CLASSES
from loom import floats
from loom.golden.ops import (arith, arith_float, compose, cond_br, constant, fork, join, load, lsq,
                             memory, merge, mux, sync)
from loom.golden.ops.buffer import Buffer
from loom.golden.ops.carry import Carry
from loom.golden.ops.gate import Gate
from loom.golden.ops.invariant import Invariant
from loom.golden.ops.stream import Stream
from loom.rtl.catalog import CATALOG
from loom.rtl.units import ALU_OPS, CMP_PREDICATES, CONFIGURED, UnitSpec, unit_spec
from tb.unit_runner import (Expected, Stimulus, UnitCase, actor_case, golden_stepwise,
                            golden_streams, rand_token, rand_value)

Params = dict[str, Any]

CAST_CLASSES: dict[str, type] = {
    "extsi": arith.ExtSI, "extui": arith.ExtUI, "trunci": arith.TruncI,
    "index_cast": arith.IndexCast, "bitcast": arith_float.Bitcast,
}


def _simple(family: str, make: Callable[[Params], Actor]) -> list[UnitCase]:
    return [actor_case(unit_spec(family, **p), lambda p=p: make(p)) for p in CATALOG[family]]


# ---------------------------------------------------------------- handshake

def _exclusive(family: str, params: Params) -> UnitCase:
    """Merges: token k (on a random input) is offered only after the unit
    emitted token k - 1, so inputs never compete (the golden contract)."""
    spec = unit_spec(family, **params)
    n, port = params["n"], spec.port("ins")
    make = merge.Merge if family == "merge" else merge.ControlMerge

    def stimulus(rng: random.Random, count: int) -> Stimulus:
        order = [rng.randrange(n) for _ in range(count)]
        inputs: list[list[Any]] = [[] for _ in range(n)]
        gates: dict[int, list[Any]] = {i: [] for i in range(n)}
        for k, i in enumerate(order):
            inputs[i].append(rand_token(rng, port))
            gates[i].append([("outs", k)] if k else None)
        return Stimulus(inputs, gates, {"order": order})

    def expected(stim: Stimulus) -> Expected:
        cursor = [0] * n
        batches = []
        for i in stim.meta["order"]:
            batches.append([(i, stim.inputs[i][cursor[i]])])
            cursor[i] += 1
        return Expected(*golden_stepwise(make(n), n, batches))

    return UnitCase(spec, stimulus, expected)


def _mux(params: Params) -> UnitCase:
    spec = unit_spec("mux", **params)
    n, port = params["n"], spec.port("ins")

    def stimulus(rng: random.Random, count: int) -> Stimulus:
        sel = [rng.randrange(n) for _ in range(count)]
        data = [[rand_token(rng, port) for _ in range(sel.count(i))] for i in range(n)]
        return Stimulus([sel, *data])

    return actor_case(spec, lambda: mux.Mux(n), stimulus)


def _source() -> UnitCase:
    spec = unit_spec("source")

    def expected(stim: Stimulus) -> Expected:
        # the golden source offers one token whenever its output is empty
        actor, out = constant.Source(), Channel("out")
        for _ in range(stim.meta["count"]):
            actor.fire([], [out])
            out.pop()
        return Expected([out.trace], [], prefix_only={0})

    return UnitCase(spec, lambda rng, n: Stimulus([], meta={"count": n}), expected)


# ---------------------------------------------------------------- arith

def _binary_stimulus(spec: UnitSpec, op: str) -> Callable[[random.Random, int], Stimulus]:
    w = spec.params["w"]

    def stimulus(rng: random.Random, count: int) -> Stimulus:
        lhs, rhs = [], []
        for _ in range(count):
            a, b = rand_value(rng, w), rand_value(rng, w)
            if op.startswith("sh") and rng.random() < 0.7:
                b = rng.randrange(w + 2) & ((1 << w) - 1)   # mostly in-range amounts
            elif op in ("cmpi", "minsi", "maxsi", "minui", "maxui") and rng.random() < 0.2:
                b = a                                       # ties and equality
            lhs.append(a)
            rhs.append(b)
        return Stimulus([lhs, rhs])

    return stimulus


def _binary(op: str) -> list[UnitCase]:
    out = []
    for p in CATALOG[op]:
        spec = unit_spec(op, **p)
        out.append(actor_case(spec, lambda w=p["w"]: BINARY_CLASSES[op](w),
                              _binary_stimulus(spec, op)))
    return out


def _tied(spec: UnitSpec, field: str, choices: tuple[str, ...],
          golden: Callable[[str], Actor], stimulus_op: Callable[[str], str]) -> list[UnitCase]:
    """A unit whose plain input `field` is a config field (a fabric unit's):
    an instance per choice, the field tied to the choice's index, against
    that choice's golden actor."""
    return [actor_case(spec, lambda c=c: golden(c), _binary_stimulus(spec, stimulus_op(c)),
                       ties={field: k}) for k, c in enumerate(choices)]


def configured(family: str, ops: tuple[str, ...], **params: Any) -> list[UnitCase]:
    """One unit of `family` that runs `ops` on one datapath, its plain input
    `op_sel` naming one: an instance per op, against that op's golden class."""
    spec = unit_spec(family, **params)
    w = spec.params["w"]
    return _tied(spec, "op_sel", ops, lambda op: BINARY_CLASSES[op](w), lambda op: op)


CONFIGURED_CMPI_WIDTHS = (8, 32)
"""Widths of the configured compare (a fabric unit's, its predicate a config
field), one instance per predicate, the field tied to its index."""


def _cmpi() -> list[UnitCase]:
    out = []
    for p in CATALOG["cmpi"]:
        spec = unit_spec("cmpi", **p)
        out.append(actor_case(spec, lambda p=p: arith.CmpI(p["predicate"], p["w"]),
                              _binary_stimulus(spec, "cmpi")))
    for w in CONFIGURED_CMPI_WIDTHS:
        out += _tied(unit_spec("cmpi", predicate=CONFIGURED, w=w), "predicate", CMP_PREDICATES,
                     lambda pred, w=w: arith.CmpI(pred, w), lambda _: "cmpi")
    return out


# ---------------------------------------------------------------- float

FLOAT_UNARY: dict[str, type] = {"negf": arith_float.NegF, "absf": arith_float.AbsF,
                                "sqrt": arith_float.SqrtF}
FLOAT_BINARY: dict[str, type] = {"minnumf": arith_float.MinNumF,
                                 "maxnumf": arith_float.MaxNumF, "addf": arith_float.AddF,
                                 "subf": arith_float.SubF, "mulf": arith_float.MulF,
                                 "divf": arith_float.DivF}
FLOAT_CONVERT: dict[str, type] = {"sitofp": arith_float.SIToFP, "uitofp": arith_float.UIToFP,
                                  "fptosi": arith_float.FPToSI, "fptoui": arith_float.FPToUI,
                                  "extf": arith_float.ConvertF, "truncf": arith_float.ConvertF}


def float_operand(rng: random.Random, w: int) -> int:
    """A pattern that is often a corner: +-0, a subnormal, an infinity, a NaN
    (quiet or signalling, either sign), +-1; else random bits or a small integer."""
    f = floats.fmt(w)
    m, top = f.mantissa_bits, ((1 << f.exponent_bits) - 1) << f.mantissa_bits
    sign = f.sign if rng.random() < 0.5 else 0
    match rng.randrange(8):
        case 0:
            return sign
        case 1:
            return sign | rng.randrange(1, 1 << m)               # subnormal
        case 2:
            return sign | top                                     # infinity
        case 3:
            return sign | top | rng.randrange(1, 1 << m)         # NaN
        case 4:
            return f.bits(f.dtype(rng.randrange(-8, 9)))
        case 5:   # an exponent at an edge: the least normals, 1, the greatest
            edge = rng.choice((1, 2, m, (1 << (f.exponent_bits - 1)) - 1,
                               (1 << f.exponent_bits) - 2 - rng.randrange(m)))
            return sign | edge << m | rng.getrandbits(m)
        case _:
            return rng.getrandbits(w)


def float_partner(rng: random.Random, w: int, a: int) -> int:
    """A second operand for `a` that makes arithmetic hard: equal or near
    magnitude (cancellation, ties), an exponent just inside or outside the
    alignment window, or an unrelated corner."""
    f = floats.fmt(w)
    m = f.mantissa_bits
    match rng.randrange(6):
        case 0:
            return a ^ f.sign if rng.random() < 0.5 else a
        case 1:
            return (a ^ rng.getrandbits(rng.randrange(1, m))) ^ (f.sign if rng.random() < 0.5 else 0)
        case 2:
            exponent = (a >> m) & ((1 << f.exponent_bits) - 1)
            shifted = min(max(exponent + rng.randrange(-m - 4, m + 5), 0), (1 << f.exponent_bits) - 2)
            return (a & ~(((1 << f.exponent_bits) - 1) << m)) | shifted << m | (
                rng.getrandbits(m) if rng.random() < 0.5 else a & ((1 << m) - 1))
        case _:
            return float_operand(rng, w)


def _float_stimulus(w: int, inputs: int) -> Callable[[random.Random, int], Stimulus]:
    def stimulus(rng: random.Random, count: int) -> Stimulus:
        lanes: list[list[int]] = [[] for _ in range(inputs)]
        for _ in range(count):
            a = float_operand(rng, w)
            row = [a] + [a if rng.random() < 0.2 else float_partner(rng, w, a)   # ties
                         for _ in range(inputs - 1)]
            if inputs == 2 and rng.random() < 0.1:
                row = [a & ~floats.fmt(w).sign, a | floats.fmt(w).sign][::rng.choice((1, -1))]
            for lane, v in zip(lanes, row):
                lane.append(v)
        return Stimulus(lanes)

    return stimulus


def _float(family: str) -> list[UnitCase]:
    out = []
    for p in CATALOG[family]:
        spec, w = unit_spec(family, **p), p["w"]
        if family == "cmpf":
            make: Callable[[], Actor] = lambda p=p: arith_float.CmpF(p["predicate"], p["w"])
        elif family in FLOAT_UNARY:
            make = lambda w=w: FLOAT_UNARY[family](w)
        else:
            make = lambda w=w: FLOAT_BINARY[family](w)
        out.append(actor_case(spec, make, _float_stimulus(w, 1 if family in FLOAT_UNARY else 2)))
    return out


def _float_convert(family: str) -> list[UnitCase]:
    """Integers from the integer stimulus (extremes included), floats from the
    corner-heavy one, and for fpto* values near the integer range's ends."""
    out = []
    for p in CATALOG[family]:
        spec, wi, wo = unit_spec(family, **p), p["w_in"], p["w_out"]

        def stimulus(rng: random.Random, count: int, wi: int = wi, wo: int = wo) -> Stimulus:
            if family in ("sitofp", "uitofp"):
                return Stimulus([[_rounding_tie(rng, wi, wo) if rng.random() < 0.2
                                  else rand_value(rng, wi) for _ in range(count)]])
            return Stimulus([[_near_int_range(rng, wi, wo, family == "fptosi")
                              if family.startswith("fpto") and rng.random() < 0.3
                              else float_operand(rng, wi) for _ in range(count)]])

        out.append(actor_case(spec, lambda wi=wi, wo=wo: FLOAT_CONVERT[family](wi, wo), stimulus))
    return out


def _rounding_tie(rng: random.Random, int_width: int, w: int) -> int:
    """An integer exactly halfway between two binary`w` values (or nearly),
    when the integer has more bits than the significand."""
    m = floats.fmt(w).mantissa_bits
    if int_width <= m + 2:
        return rng.getrandbits(int_width)
    tie = (rng.getrandbits(m + 1) << 1 | 1) << rng.randrange(int_width - m - 1)
    return (tie + rng.choice((-1, 0, 0, 1))) & ((1 << int_width) - 1)


def _near_int_range(rng: random.Random, w: int, int_width: int, is_signed: bool) -> int:
    """A float within a few units of an end of the integer type's range, or a
    fraction between -2 and 2 (truncation toward zero)."""
    f = floats.fmt(w)
    low, high = floats.int_range(int_width, is_signed)
    if rng.random() < 0.3:
        return f.bits(f.dtype(rng.uniform(-2.0, 2.0)))
    end = rng.choice((low, high)) + rng.randrange(-3, 4)
    return f.bits(f.dtype(float(end)) * f.dtype(rng.choice((1.0, 1.0000001, 0.9999999))))


def _cast(op: str) -> list[UnitCase]:
    return _simple(op, lambda p: CAST_CLASSES[op](p["w_in"], p["w_out"]))


def _compose(family: str) -> list[UnitCase]:
    cls = compose.Compose if family == "compose" else compose.Decompose
    return _simple(family, lambda p: cls([p["w"]] + [w for _, w in p["extras"]]))


# ---------------------------------------------------------------- dataflow

def _bursts(rng: random.Random, count: int, max_len: int = 12) -> list[int]:
    """Iteration counts of back-to-back loop bursts, about `count` tokens in
    all; zero-trip bursts included."""
    lens, total = [], 0
    while total < count:
        n = rng.choice([0, 1, 2, rng.randrange(max_len + 1)])
        lens.append(n)
        total += n + 1
    return lens


def _stream_triple(rng: random.Random, step_op: str, cont: str, w: int) -> tuple[int, int, int]:
    """A (start, step, bound) whose loop ends within a few dozen steps."""
    m = (1 << w) - 1
    half = 1 << (w - 1)
    small = lambda lo, hi: rng.randint(lo, hi) & m  # noqa: E731
    big = min(half - 1, 1 << 20)
    if step_op == "+=":
        start = rng.randint(-big, big) if w > 8 else rng.randrange(1 << w)
        return start & m, small(0 if w == 1 else 1, 4), (start + rng.randint(-3, 30)) & m
    if step_op == "-=":
        start = rng.randint(-big, big)
        return start & m, small(1, 4), (start - rng.randint(-3, 30)) & m
    if step_op == "*=":
        return small(1, 9), small(2, 4), small(-5, 1 << min(w - 2, 24))
    if step_op == "/=":
        return small(-5, min(half - 1, 1 << 30)), small(2, 5), small(0, 3)
    if step_op == "<<=":
        start = small(1, 7)
        return start, small(1, 3), (start << rng.randrange(0, 3 * 7)) & m
    return small(0, min(half - 1, 1 << 30)), small(1, 4), small(0, 3)   # >>=


def _stream(params: Params) -> UnitCase:
    spec = unit_spec("stream", **params)
    step_op, cont, w = params["step_op"], params["cont_cond"], params["w"]

    def terminates(triple: tuple[int, int, int]) -> bool:
        outs = golden_streams(Stream(step_op, cont, w), [[v] for v in triple], 64)[0]
        return bool(outs[1]) and outs[1][-1] == 0

    def stimulus(rng: random.Random, count: int) -> Stimulus:
        streams: list[list[int]] = [[], [], []]
        emitted = 0
        while emitted < count:
            triple = _stream_triple(rng, step_op, cont, w)
            if not terminates(triple):
                continue
            for s, v in zip(streams, triple):
                s.append(v)
            emitted += len(golden_streams(Stream(step_op, cont, w), [[v] for v in triple])[0][0])
        return Stimulus(streams)

    return actor_case(spec, lambda: Stream(step_op, cont, w), stimulus)


def _gate(params: Params) -> UnitCase:
    spec = unit_spec("gate", **params)

    def stimulus(rng: random.Random, count: int) -> Stimulus:
        values, conds = [], []
        for n in _bursts(rng, count):
            values += [rand_value(rng, params["w"]) for _ in range(n + 1)]
            conds += [1] * n + [0]
        return Stimulus([values, conds])

    return actor_case(spec, Gate, stimulus)


def _carry(params: Params) -> UnitCase:
    spec = unit_spec("carry", **params)
    w = params["w"]

    def stimulus(rng: random.Random, count: int) -> Stimulus:
        d, a, b = [], [], []
        for n in _bursts(rng, count // 2):
            a.append(rand_value(rng, w))
            b += [rand_value(rng, w) for _ in range(n)]
            d += [1] * n + [0]
        return Stimulus([d, a, b])

    return actor_case(spec, Carry, stimulus)


def _invariant(params: Params) -> UnitCase:
    spec = unit_spec("invariant", **params)
    w = params["w"]

    def stimulus(rng: random.Random, count: int) -> Stimulus:
        d, a = [], []
        for n in _bursts(rng, count):
            a.append(rand_value(rng, w))
            d += [1] * n + [0]
        return Stimulus([d, a])

    return actor_case(spec, Invariant, stimulus)


# ---------------------------------------------------------------- memory

def _memory_ins(ld: int, st: int, rank: int) -> list[str]:
    """Input channels in golden operand order (seed 000 packing: stores first)."""
    return ([c for s in range(st) for c in [f"st_data{s}"] + [f"st_addr{s * rank + k}" for k in range(rank)]]
            + [f"ld_addr{j * rank + k}" for j in range(ld) for k in range(rank)])


def _memory(family: str, params: Params) -> UnitCase:
    """A program of accesses ordered the way a ctrl-done chain orders them:
    a store, or a group of loads on distinct ports (read-after-read runs in
    parallel), each group offered only after every done token of the
    previous group has come out. Done means ordered (design.md): a done
    token comes at acceptance, so the next group enters while earlier ones
    are still in flight; half of the addresses hit two hot elements, so a
    store and loads of the same element are in flight together and the loaded
    values show whether the memory kept the acceptance order."""
    spec = unit_spec(family, **params)
    ld, st, shape, w = params["ld"], params["st"], tuple(params["shape"]), params["w"]
    rank = len(shape)
    ins = _memory_ins(ld, st, rank)
    n_in = len(ins)
    size = 1
    for d in shape:
        size *= d

    def stimulus(rng: random.Random, count: int) -> Stimulus:
        inputs: list[list[Any]] = [[] for _ in range(n_in)]
        gates: dict[int, list[Any]] = {k: [] for k in range(n_in)}
        done = {f"st_done{s}": 0 for s in range(st)} | {f"ld_done{j}": 0 for j in range(ld)}
        batches: list[list[tuple[int, Any]]] = []
        after: list[tuple[str, int]] | None = None
        hot = [[rng.randrange(e) for e in shape] for _ in range(2)]
        for _ in range(count):
            batch = []
            addr = lambda: (list(rng.choice(hot)) if rng.random() < 0.5  # noqa: E731
                            else [rng.randrange(e) for e in shape])
            if st and (not ld or rng.random() < 0.45):
                s = rng.randrange(st)
                base = s * (1 + rank)
                toks = [rand_value(rng, w)] + addr()
                ports, finished = range(base, base + 1 + rank), [f"st_done{s}"]
            else:
                js = rng.sample(range(ld), rng.randint(1, ld))
                toks, ports, finished = [], [], []
                for j in js:
                    base = st * (1 + rank) + j * rank
                    toks += addr()
                    ports += list(range(base, base + rank))
                    finished.append(f"ld_done{j}")
            for k, tok in zip(ports, toks):
                inputs[k].append(tok)
                gates[k].append(after)
                batch.append((k, tok))
            batches.append(batch)
            for ch in finished:
                done[ch] += 1
            after = [(ch, done[ch]) for ch in finished]
        meta: dict[str, Any] = {"batches": batches}
        if family == "extmemory":
            meta["memory"] = [rng.getrandbits(w) for _ in range(size)]
        return Stimulus(inputs, gates, meta)

    # on-chip contents survive the reset between episodes: each episode's
    # golden memory starts where the previous one ended (zeros at first, or
    # a constant table's contents as bit patterns)
    rom = [v & ((1 << w) - 1) for v in params["init"]] if "init" in params else None
    carried: dict[str, list[int] | None] = {"storage": rom}

    def expected(stim: Stimulus) -> Expected:
        initial = stim.meta["memory"] if family == "extmemory" else carried["storage"]
        actor = memory.Memory(ld, st, shape, w, initial)
        outs, consumed = golden_stepwise(actor, n_in, stim.meta["batches"])
        carried["storage"] = list(actor.storage)
        return Expected(outs, consumed, memory=actor.storage if family == "extmemory" else None)

    return UnitCase(spec, stimulus, expected, in_channels=ins, tokens_scale=0.5)


def memory_stream_cases(family: str, params: Params) -> list[UnitCase]:
    """Three throughput cases for one memory parameter set: a stream of
    loads on load port 0, a stream of stores on store port 0, and both at
    once (loads from the first half of the storage, stores to the second,
    so no access depends on another and the program orders none), each
    with no gate between accesses (one port serves its requests in order,
    so the golden streams need none). With nothing stalling, a pipelined
    interface takes one load and one store per cycle."""
    spec = unit_spec(family, **params)
    ld, st, shape, w = params["ld"], params["st"], tuple(params["shape"]), params["w"]
    rank = len(shape)
    n_in = st * (1 + rank) + ld * rank
    size = 1
    for d in shape:
        size *= d

    def case(kind: str) -> UnitCase:
        carried: dict[str, list[int] | None] = {"storage": None}

        def stimulus(rng: random.Random, count: int) -> Stimulus:
            inputs: list[list[Any]] = [[] for _ in range(n_in)]
            batches = []
            half = size // 2
            for _ in range(count):
                batch = []
                for part in (("store", "load") if kind == "both" else (kind,)):
                    flat = rng.randrange(size) if kind != "both" else \
                        rng.randrange(half) + (half if part == "store" else 0)
                    addr = _unflatten(flat, shape)
                    toks = ([rand_value(rng, w)] if part == "store" else []) + addr
                    base = 0 if part == "store" else st * (1 + rank)
                    batch += [(base + i, t) for i, t in enumerate(toks)]
                for k, t in batch:
                    inputs[k].append(t)
                batches.append(batch)
            meta: dict[str, Any] = {"batches": batches}
            if family == "extmemory":
                meta["memory"] = [rng.getrandbits(w) for _ in range(size)]
            return Stimulus(inputs, {}, meta)

        def expected(stim: Stimulus) -> Expected:
            initial = stim.meta["memory"] if family == "extmemory" else carried["storage"]
            actor = memory.Memory(ld, st, shape, w, initial)
            outs, consumed = golden_stepwise(actor, n_in, stim.meta["batches"])
            carried["storage"] = list(actor.storage)
            return Expected(outs, consumed, memory=actor.storage if family == "extmemory" else None)

        return UnitCase(spec, stimulus, expected, in_channels=_memory_ins(ld, st, rank))

    # both at once needs two halves of the storage
    both = ld and st and size >= 2
    return [case(kind) for kind, n in (("load", ld), ("store", st), ("both", both)) if n]


def _unflatten(flat: int, shape: tuple[int, ...]) -> list[int]:
    """The row-major index of element `flat` of an array of `shape`."""
    idx = []
    for e in reversed(shape):
        idx.append(flat % e)
        flat //= e
    return idx[::-1]


def lsq_ins(params: Params) -> list[str]:
    """A queue's input channels in golden operand order: the memory's, then
    one allocation per group, then the fence."""
    rank = len(params["shape"])
    return (_memory_ins(params["ld"], params["st"], rank)
            + [f"alloc{g}" for g in range(len(params["groups"]))] + ["fence"])


def lsq_outs(params: Params) -> list[str]:
    return ([f"ld_data{j}" for j in range(params["ld"])]
            + [f"ack{g}" for g in range(len(params["groups"]))] + ["fence_done"])


def _lsq(params: Params, hot_share: float = 0.6) -> UnitCase:
    """A program of allocations, each offered only after the previous one's
    ack (as the lowering's chain makes them), with the addresses of every
    access offered at once, ahead of their allocation, and a store's data
    only after the ack of an allocation up to `lag` later (as a loop's store
    waits for values computed from its loads while later iterations are
    allocated); a `hot_share` of the addresses hit two hot elements, so loads
    meet older stores to their element still in the queue (forwarding, or
    waiting for the data) and younger stores wait for older loads. The lag
    keeps what waits for a store's data within the queues (else the gate
    itself would deadlock). The fence
    comes after the last ack; the final memory is the program's."""
    spec = unit_spec("lsq", **params)
    ld, st, shape, w = params["ld"], params["st"], tuple(params["shape"]), params["w"]
    groups = params["groups"]
    rank = len(shape)
    ins = lsq_ins(params)
    # allocations n..n + lag fit in both queues while store n waits
    lag = max(0, min(params[q] // max(max(sum(k == kind for k, _ in g) for g in groups), 1)
                     for q, kind in (("sq", "st"), ("lq", "ld"))) - 1)
    at = {name: k for k, name in enumerate(ins)}
    size = 1
    for d in shape:
        size *= d

    def stimulus(rng: random.Random, count: int) -> Stimulus:
        inputs: list[list[Any]] = [[] for _ in ins]
        gates: dict[int, list[Any]] = {at[f"alloc{g}"]: [] for g in range(len(groups))}
        gates[at["fence"]] = []
        acks = [0] * len(groups)
        after: list[tuple[str, int]] | None = None
        hot = [[rng.randrange(e) for e in shape] for _ in range(2)]
        batches: list[list[tuple[int, Any]]] = []
        program = [rng.randrange(len(groups)) for _ in range(count)]
        ack_after: list[tuple[str, int]] = []   # the ack each allocation waits for
        for g in program:
            acks[g] += 1
            ack_after.append((f"ack{g}", acks[g]))
        for n, g in enumerate(program):
            batch = [(at[f"alloc{g}"], None)]
            gates[at[f"alloc{g}"]].append(after)
            for kind, port in groups[g]:
                addr = (list(rng.choice(hot)) if rng.random() < hot_share
                        else [rng.randrange(e) for e in shape])
                if kind == "st":
                    data = at[f"st_data{port}"]
                    batch.append((data, rand_value(rng, w)))
                    gates.setdefault(data, []).append(
                        [ack_after[min(n + rng.randrange(lag + 1), count - 1)]])
                batch += [(at[f"{kind}_addr{port * rank + r}"], a) for r, a in enumerate(addr)]
            for k, tok in batch[1:]:
                inputs[k].append(tok)
            inputs[at[f"alloc{g}"]].append(None)
            after = [ack_after[n]]
            batches.append(batch)
        inputs[at["fence"]].append(None)
        gates[at["fence"]].append(after)
        batches.append([(at["fence"], None)])
        meta = {"batches": batches, "memory": [rng.getrandbits(w) for _ in range(size)]}
        return Stimulus(inputs, gates, meta)

    def expected(stim: Stimulus) -> Expected:
        actor = lsq.LoadStoreQueue(ld, st, shape, w, groups, stim.meta["memory"])
        outs, consumed = golden_stepwise(actor, len(ins), stim.meta["batches"])
        return Expected(outs, consumed, memory=actor.storage)

    return UnitCase(spec, stimulus, expected, in_channels=ins, out_channels=lsq_outs(params),
                    tokens_scale=0.3)


# ---------------------------------------------------------------- registry

def cases_for(family: str) -> list[UnitCase]:
    if family in ("merge", "control_merge"):
        return [_exclusive(family, p) for p in CATALOG[family]]
    if family == "mux":
        return [_mux(p) for p in CATALOG["mux"]]
    if family == "source":
        return [_source()]
    if family in ("memory", "extmemory"):
        return [_memory(family, p) for p in CATALOG[family]]
    if family == "lsq":
        return [_lsq(p) for p in CATALOG["lsq"]]
    if family in BINARY_CLASSES:
        return _binary(family)
    if family in CAST_CLASSES:
        return _cast(family)
    if family in ("compose", "decompose"):
        return _compose(family)
    simple: dict[str, Callable[[Params], Actor]] = {
        "fork": lambda p: fork.Fork(p["n"]),
        "lazy_fork": lambda p: fork.LazyFork(p["n"]),
        "join": lambda p: join.Join(p["n"]),
        "sync": lambda p: sync.Sync(p["n"]),
        "cond_br": lambda p: cond_br.CondBr(),
        "constant": lambda p: constant.Constant(unit_spec("constant", **p).params["value"]),
        "sink": lambda p: constant.Sink(),
        "oehb": lambda p: Buffer(1, "seq"),
        "tehb": lambda p: Buffer(1, "seq"),
        "fifo": lambda p: Buffer(p["slots"], "fifo"),
        "select": lambda p: arith.Select(p["w"]),
        "load": lambda p: load.Load(p["rank"]),
        "unbundle": lambda p: compose.Unbundle(len(p.get("extras", ()))),
        "bundle": lambda p: compose.Bundle(len(p.get("extras", ()))),
        "store": lambda p: load.Store(p["rank"]),
    }
    if family in simple:
        cases = _simple(family, simple[family])
        for c in cases:
            c.valid_may_drop = family == "lazy_fork"
        return cases
    dataflow = {"stream": _stream, "gate": _gate, "carry": _carry, "invariant": _invariant}
    if family in dataflow:
        return [dataflow[family](p) for p in CATALOG[family]]
    if family == "cmpi":
        return _cmpi()
    if family == "alu":
        return [c for p in CATALOG["alu"] for c in configured("alu", ALU_OPS, **p)]
    if family == "cmpf" or family in FLOAT_UNARY or family in FLOAT_BINARY:
        return _float(family)
    if family in FLOAT_CONVERT:
        return _float_convert(family)
    raise KeyError(f"no test cases for unit family {family!r}")


SEED_BURSTS = 3   # a seed example back to back: the machine must reset after each false


def seed_case(family: str, params: dict, inputs: list[list], outputs: list[list]) -> UnitCase:
    """A seed's example, repeated SEED_BURSTS times, checked against the seed's
    own expected streams (not the golden model's)."""
    spec = unit_spec(family, **params)
    ins = [s * SEED_BURSTS for s in inputs]
    outs = [s * SEED_BURSTS for s in outputs]
    return UnitCase(spec, lambda rng, n: Stimulus(ins),
                    lambda stim: Expected(outs, [len(s) for s in ins]))
