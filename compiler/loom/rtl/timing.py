"""Timing model of the RTL units as the templates implement them, and the II
bound of a netlist's loops.

For each unit family, `unit_timing` says, per (input lane, output lane) pair
that a token flows through: the latency in cycles from the input token to
the output token, the initial tokens on that pair (a carry's `b` and `d`,
an invariant's `d`: their output for iteration k+1 uses the input of
iteration k, the initial value went ahead), whether the output's valid
depends combinationally on the input's valid (forward), and whether the
input's ready depends combinationally on the output's ready (backward).
Read from templates/*.sv.j2:

- combinational units (arith_binary, cmpi, select, cast, constant, cond_br,
  mux, join, merge, lazy_fork, compose, bundle) and the done-bit units
  (fork, sync, unbundle, control_merge, gate, mem_load, mem_store):
  latency 0, valid and ready combinational;
- arith_pipelined (muli) with latency L > 0: valid registered (its last
  stage), ready combinational (the advance chain), latency L; arith_divider
  (the divisions) the same with L = its `latency` (w/L quotient bits a stage);
  the float arithmetic and conversions (pipeline_macros) the same with L =
  their `latency`, combinational when L = 0;
- carry: valid combinational from a, b and d (fast path); a and b ready
  combinational on o's ready, d's ready registered (`in_cond`);
- invariant: valid combinational from a and d, both readies combinational;
- stream: outputs registered (latency 1 from its operands), operand ready
  independent of the outputs, one (idx, cont) per cycle at best;
- tehb: valid transparent, ready registered; oehb: valid and data
  registered (latency 1), ready combinational; fifo: ready registered,
  valid registered (latency 1) unless transparent;
- memory: request to done/data latency 1, accept combinational on the
  results' ready; extmemory with the harness's latency-1 memory: registered
  both ways; one access in flight per port (request to results 3 cycles,
  busy until the results are taken: 4 cycles a port) or, the pipelined
  bridge (parameter k), done one cycle after acceptance, data after 2
  (request slot, storage, bypass), one beat a cycle for the whole bridge
  (one load and one store); its inputs' readies depend in the same cycle on every load data
  output's ready (a credit freed is reused at once): arcs for ready only,
  no token flows along them.

The II bound of a loop is the maximum over the cycles of that loop of
(sum of latencies around the cycle) / (initial tokens on it), where a cycle
without a registered unit still needs one register (design.md section 5),
so its latency counts as at least 1. Loops are the strongly connected
components of the channel graph once loop entries (carry/invariant `a`,
stream operands) are cut: an outer loop's cycles through an inner loop run
once per activation, not once per iteration, and would mix the two rates.
Buffers already in the netlist count as wires: the bound is the DFG's.
"""

from __future__ import annotations

import math
from collections import deque
from dataclasses import dataclass, field
from fractions import Fraction

from loom.dialects import handshake as hs
from loom.rtl.netlist import Channel, Instance, Netlist, build_netlist
from loom.rtl.units import (BINARY_OPS, CAST_OPS, DIV_OPS, FIFO_KINDS, FLOAT_MINMAX_OPS,
                            FLOAT_PIPELINED, FLOAT_SIGN_OPS, UnitSpec)
from loom.scc import strongly_connected

Lane = tuple[str, int | None]

COMBINATIONAL = frozenset((*BINARY_OPS, *CAST_OPS, *FLOAT_SIGN_OPS, *FLOAT_MINMAX_OPS,
                           "alu", "cmpi", "cmpf", "select", "constant", "cond_br",
                           "mux", "join", "merge", "lazy_fork", "compose", "decompose",
                           "bundle", "sink", "source", "fork", "sync", "unbundle",
                           "control_merge", "gate", "load", "store"))
EXTMEM_RESULT_LATENCY = 3    # accept -> request slot -> storage (latency 1) -> result register
EXTMEM_PORT_II = 4           # one access in flight per port: busy until its results are taken
EXTMEM_DONE_LATENCY = 1      # pipelined bridge: done offered the cycle after acceptance
EXTMEM_DATA_LATENCY = 2      # pipelined bridge: request slot, storage, bypass to the port


@dataclass(frozen=True)
class Arc:
    """One input lane to one output lane of a unit."""
    src: Lane
    dst: Lane
    latency: int = 0
    tokens: int = 0
    valid_comb: bool = True
    ready_comb: bool = True
    entry: bool = False      # a loop entry: the initial value or a stream operand
    flow: bool = True        # False: a ready dependence only, no token flows


@dataclass(frozen=True)
class UnitTiming:
    arcs: tuple[Arc, ...]
    holds: frozenset[Lane] = frozenset()   # outputs whose token sits in a register
    self_ii: int = 0                       # the unit's own recurrence (cycles per firing)


def _lanes(spec: UnitSpec, direction: str, names: tuple[str, ...] | None = None) -> list[Lane]:
    out = []
    for p in spec.ports:
        if p.direction != direction or (names is not None and p.name not in names):
            continue
        if p.name in ("mem_req", "mem_resp"):
            continue
        out += [(p.name, None)] if p.count is None else [(p.name, i) for i in range(p.count)]
    return out


def _all_to_all(spec: UnitSpec, **kw) -> tuple[Arc, ...]:
    return tuple(Arc(i, o, **kw) for i in _lanes(spec, "in") for o in _lanes(spec, "out"))


def _group(ins: list[Lane], outs: list[Lane], **kw) -> list[Arc]:
    return [Arc(i, o, **kw) for i in ins for o in outs]


def _memory_timing(spec: UnitSpec) -> UnitTiming:
    st, ld, rank = spec.params["st"], spec.params["ld"], len(spec.params["shape"])
    ext = spec.family == "extmemory"
    piped = ext and "k" in spec.params
    arcs: list[Arc] = []
    outs: list[Lane] = []
    for s in range(st):
        ins = [("st_data", s)] + [("st_addr", s * rank + k) for k in range(rank)]
        done = ("st_done", s)
        lat = EXTMEM_DONE_LATENCY if piped else EXTMEM_RESULT_LATENCY if ext else 1
        arcs += _group(ins, [done], latency=lat, valid_comb=False, ready_comb=not ext)
        outs.append(done)
    slower = spec.params.get("mem_latency", 1) - 1   # than the harness's memory
    for j in range(ld):
        ins = [("ld_addr", j * rank + k) for k in range(rank)]
        data_lat = EXTMEM_DATA_LATENCY + slower if piped else EXTMEM_RESULT_LATENCY if ext else 1
        done_lat = EXTMEM_DONE_LATENCY if piped else data_lat
        arcs += _group(ins, [("ld_data", j)], latency=data_lat, valid_comb=False,
                       ready_comb=not ext)
        arcs += _group(ins, [("ld_done", j)], latency=done_lat, valid_comb=False,
                       ready_comb=not ext)
        outs += [("ld_data", j), ("ld_done", j)]
    if piped:    # a load's credit freed by its data taken is reused in that cycle
        arcs += [Arc(i, ("ld_data", j), valid_comb=False, flow=False)
                 for i in _lanes(spec, "in") for j in range(ld)]
    # the bridge sends one beat a cycle: one of its load ports and one of
    # its store ports together
    self_ii = max(st, ld, 1 if piped else EXTMEM_PORT_II) if ext else 1
    return UnitTiming(tuple(arcs), frozenset(outs), self_ii)


LSQ_DATA_LATENCY = EXTMEM_DATA_LATENCY + 1   # the address enters its entry, then the bridge's path


def _queue_timing(spec: UnitSpec) -> UnitTiming:
    """A load-store queue (templates/lsq.sv.j2) without collisions: an
    allocation's ack a cycle later (its ready on the ack's), a load's data
    LSQ_DATA_LATENCY after its address, the fence through at once. A load
    that meets an older store to its element waits for that store's data:
    a dependence of the data, not of the graph, so no arc models it."""
    ld, st, rank = spec.params["ld"], spec.params["st"], len(spec.params["shape"])
    arcs: list[Arc] = []
    for j in range(ld):
        ins = [("ld_addr", j * rank + k) for k in range(rank)]
        arcs += _group(ins, [("ld_data", j)],
                       latency=LSQ_DATA_LATENCY + spec.params.get("mem_latency", 1) - 1,
                       valid_comb=False, ready_comb=False)
    for g in range(len(spec.params["groups"])):
        arcs.append(Arc(("alloc", g), ("ack", g), latency=1, valid_comb=False))
    arcs.append(Arc(("fence", None), ("fence_done", None)))
    holds = frozenset([("ld_data", j) for j in range(ld)]
                      + [("ack", g) for g in range(len(spec.params["groups"]))])
    return UnitTiming(tuple(arcs), holds, max(st, ld))


def unit_timing(spec: UnitSpec) -> UnitTiming:
    """The timing of one unit as its template implements it (module docstring)."""
    f = spec.family
    if f in ("carry", "invariant"):
        arcs = [Arc(("a", None), ("o", None), entry=True),
                Arc(("d", None), ("o", None), tokens=1, ready_comb=f == "invariant")]
        if f == "carry":
            arcs.append(Arc(("b", None), ("o", None), tokens=1))
        return UnitTiming(tuple(arcs))
    if f == "stream":
        return UnitTiming(_all_to_all(spec, latency=1, valid_comb=False, ready_comb=False,
                                      entry=True),
                          frozenset(_lanes(spec, "out")), self_ii=1)
    if f in ("muli", "divrem") or f in DIV_OPS or f in FLOAT_PIPELINED:
        lat = spec.params["latency"]
        return UnitTiming(_all_to_all(spec, latency=lat, valid_comb=lat == 0),
                          frozenset(_lanes(spec, "out")) if lat else frozenset())
    if f == "tehb":
        return UnitTiming(_all_to_all(spec, ready_comb=False))
    if f == "oehb":
        return UnitTiming(_all_to_all(spec, latency=1, valid_comb=False),
                          frozenset(_lanes(spec, "out")))
    if f == "fifo":
        t = spec.params["transparent"]
        return UnitTiming(_all_to_all(spec, latency=0 if t else 1, valid_comb=t,
                                      ready_comb=False),
                          frozenset() if t else frozenset(_lanes(spec, "out")))
    if f in ("memory", "extmemory"):
        return _memory_timing(spec)
    if f == "lsq":
        return _queue_timing(spec)
    if f == "load":
        ins = _lanes(spec, "in", ("addr", "ctrl"))
        arcs = _group(ins, _lanes(spec, "out", ("addr_to_mem",)))
        arcs += _group([("data_from_mem", None)], [("data_to_comp", None)])
        return UnitTiming(tuple(arcs))
    if f in COMBINATIONAL:
        return UnitTiming(_all_to_all(spec))
    raise KeyError(f"no timing model for unit family '{f}'")


# ---------------------------------------------------------------- channel graph

@dataclass(frozen=True)
class Edge:
    """Channel `src` feeds channel `dst` through unit `inst`."""
    src: int
    dst: int
    inst: Instance
    arc: Arc


@dataclass
class ChannelGraph:
    """Nodes: the netlist's channels (by index); edges: the units' arcs."""
    net: Netlist
    edges: list[Edge] = field(default_factory=list)
    self_ii: dict[int, int] = field(default_factory=dict)   # channel -> its driver's own II

    @property
    def flow_edges(self) -> list[Edge]:
        """The edges tokens flow along (not the ready-only ones)."""
        return [e for e in self.edges if e.arc.flow]


def channel_graph(net: Netlist) -> ChannelGraph:
    g = ChannelGraph(net)
    ins: dict[tuple[int, Lane], Channel] = {}
    outs: dict[tuple[int, Lane], Channel] = {}
    for ch in net.channels:
        if ch.sink is not None:
            ins[id(ch.sink[0]), (ch.sink[1], ch.sink[2])] = ch
        if ch.driver is not None:
            outs[id(ch.driver[0]), (ch.driver[1], ch.driver[2])] = ch
    for inst in net.instances:
        timing = unit_timing(inst.spec)
        for arc in timing.arcs:
            a, b = ins.get((id(inst), arc.src)), outs.get((id(inst), arc.dst))
            if a is not None and b is not None:
                g.edges.append(Edge(a.index, b.index, inst, arc))
        if timing.self_ii:
            for lane in _lanes(inst.spec, "out"):
                ch = outs.get((id(inst), lane))
                if ch is not None:
                    g.self_ii[ch.index] = timing.self_ii
    return g


def _latency(e: Edge, buffers_as_wires: bool = True) -> int:
    """The DFG's latency: buffers already placed count as wires unless asked."""
    return 0 if buffers_as_wires and e.inst.spec.family in FIFO_KINDS else e.arc.latency


# ---------------------------------------------------------------- cycle ratio

WArc = tuple[int, int, int, int]   # (u, v, latency, tokens)


def _positive_cycle(nodes: list[int], arcs: list[WArc], lam: Fraction) -> list[WArc] | None:
    """A cycle with latency - lam * tokens > 0 (Bellman-Ford, longest paths), or None."""
    p, q = lam.numerator, lam.denominator
    dist = {v: 0 for v in nodes}
    pred: dict[int, WArc] = {}
    for _ in range(len(nodes) + 1):
        changed = False
        for a in arcs:
            u, v, lat, tok = a
            d = dist[u] + q * lat - p * tok
            if d > dist[v]:
                dist[v], pred[v] = d, a
                changed = True
        if not changed:
            return None
        cycle = _pred_cycle(nodes, pred)
        if cycle is not None:
            return cycle
    return _pred_cycle(nodes, pred)


def _pred_cycle(nodes: list[int], pred: dict[int, WArc]) -> list[WArc] | None:
    """A cycle of the predecessor graph (positive by Bellman-Ford's invariant)."""
    state: dict[int, int] = {}
    for start in nodes:
        v, path = start, []
        while v in pred and v not in state:
            state[v] = start
            path.append(v)
            v = pred[v][0]
        if v in pred and state.get(v) == start:   # closed a cycle on this walk
            cycle, w = [], v
            while True:
                a = pred[w]
                cycle.append(a)
                w = a[0]
                if w == v:
                    return cycle[::-1]
    return None


def _min_tokens(nodes: list[int], arcs: list[WArc]) -> tuple[int, list[WArc]]:
    """The fewest tokens on any cycle (0-1 BFS from each token arc back to its source)."""
    succ: dict[int, list[WArc]] = {}
    for a in arcs:
        succ.setdefault(a[0], []).append(a)
    best: tuple[int, list[WArc]] = (math.inf, [])   # type: ignore[assignment]
    for first in (a for a in arcs if a[3] > 0):
        dist = {first[1]: first[3]}
        pred: dict[int, WArc] = {}
        dq = deque([first[1]])
        while dq:
            v = dq.popleft()
            for a in succ.get(v, ()):
                d = dist[v] + a[3]
                if d < dist.get(a[1], math.inf):
                    dist[a[1]], pred[a[1]] = d, a
                    (dq.appendleft if a[3] == 0 else dq.append)(a[1])
        if first[0] in dist and dist[first[0]] < best[0]:
            path, w = [], first[0]
            while w != first[1]:
                path.append(pred[w])
                w = pred[w][0]
            best = (dist[first[0]], [first] + path[::-1])
    return best


@dataclass
class LoopBound:
    value: Fraction | float            # cycles per iteration; math.inf: a cycle without tokens
    cycle: list[str]                   # the critical cycle, as DFG channel names
    channels: list[int]                # the loop's channels (indices)
    latency: int = 0                   # cycles around the critical cycle
    tokens: int = 0                    # tokens it holds (value = latency / tokens)


def _names(net: Netlist, cycle: list[WArc]) -> list[str]:
    out = []
    for a in cycle:
        ch = net.channels[a[0]]
        out.append((ch.copy_of or ch).name)
    return list(dict.fromkeys(out))


def loop_bounds(net: Netlist, graph: ChannelGraph | None = None,
                buffers_as_wires: bool = True) -> list[LoopBound]:
    """The II bound of every loop (module docstring), largest first; with
    buffers_as_wires False, the buffers placed count with their latency."""
    g = graph or channel_graph(net)
    arcs = [(e.src, e.dst, _latency(e, buffers_as_wires), e.arc.tokens)
            for e in g.flow_edges if not e.arc.entry]
    succ: dict[int, list[int]] = {}
    for u, v, _, _ in arcs:
        succ.setdefault(u, []).append(v)
    nodes = sorted({u for u, _, _, _ in arcs} | {v for _, v, _, _ in arcs})
    bounds = []
    for comp in strongly_connected(nodes, succ):
        members = set(comp)
        inner = [a for a in arcs if a[0] in members and a[1] in members]
        if not inner:
            continue
        bounds.append(_loop_bound(g, comp, inner))
    bounds.sort(key=lambda b: (-b.value, b.cycle))
    return bounds


def _loop_bound(g: ChannelGraph, comp: list[int], arcs: list[WArc]) -> LoopBound:
    lam, crit = Fraction(0), []
    while True:
        cyc = _positive_cycle(comp, arcs, lam)
        if cyc is None:
            break
        lat, tok = sum(a[2] for a in cyc), sum(a[3] for a in cyc)
        crit = cyc
        if tok == 0:
            return LoopBound(math.inf, _names(g.net, cyc), comp)
        lam = Fraction(lat, tok)
    tmin, tcyc = _min_tokens(comp, arcs)
    if tmin == 0 or tmin is math.inf:     # every cycle of a loop holds a token
        return LoopBound(math.inf if tmin == 0 else lam, _names(g.net, tcyc or crit), comp)
    value, cycle = lam, crit
    lat, tok = sum(a[2] for a in crit), sum(a[3] for a in crit)
    if Fraction(1, tmin) > value:          # a cycle of registers-free units still needs one
        value, cycle, lat, tok = Fraction(1, tmin), tcyc, 1, tmin
    for ch in comp:                        # a unit's own recurrence (stream, memory port)
        if g.self_ii.get(ch, 0) > value:
            value, cycle = Fraction(g.self_ii[ch]), [(ch, ch, g.self_ii[ch], 1)]
            lat, tok = g.self_ii[ch], 1
    return LoopBound(value, _names(g.net, cycle), comp, lat, tok)


def ii_bound(net: Netlist | hs.FuncOp, filename: str = "<dfg>") -> tuple[Fraction | float, list[str]]:
    """The largest II bound over the loops of a netlist (or of a DFG function's
    netlist) and its critical cycle as channel names; (0, []) without loops."""
    if isinstance(net, hs.FuncOp):
        net = build_netlist(net, filename)
    bounds = loop_bounds(net)
    if not bounds:
        return Fraction(0), []
    return bounds[0].value, bounds[0].cycle


def loop_bound(net: Netlist, decider: str,
               graph: ChannelGraph | None = None) -> Fraction | float:
    """The II bound of the loop whose condition is the DFG channel `decider`
    (its raw_will_continue); 0 when it decides none (`decided_bound`)."""
    bound = decided_bound(net, decider, graph)
    return Fraction(0) if bound is None else bound.value


def decided_channels(edges: list[Edge], start: list[int]) -> tuple[set[int], set[int]]:
    """What a condition on channels `start` reaches along `edges`: the
    channels it passes through forks and buffers (`start` included), and the
    outputs of the units it decides (the first other unit on each way)."""
    out_edges: dict[int, list[Edge]] = {}
    for e in edges:
        out_edges.setdefault(e.src, []).append(e)
    todo, seen, decided = list(start), set(start), set()
    while todo:
        for e in out_edges.get(todo.pop(), []):
            if e.inst.spec.family == "fork" or e.inst.spec.family in FIFO_KINDS:
                if e.dst not in seen:
                    seen.add(e.dst)
                    todo.append(e.dst)
            else:
                decided.add(e.dst)
    return seen, decided


def decided_bound(net: Netlist, decider: str,
                  graph: ChannelGraph | None = None) -> LoopBound | None:
    """The critical recurrence of the loop whose condition is the DFG
    channel `decider`: the largest bound over the recurrences it decides (the
    carries, invariants and gates it reaches through forks and buffers) and
    the own II of the unit driving it; None when it decides none. The one
    bound a per-iteration count of that loop compares with: the largest over
    all loops may belong to a loop that iterates less. `graph`: the channel
    graph to bound (default: the netlist's units as they are)."""
    g = graph or channel_graph(net)
    start = [c.index for c in net.channels if (c.copy_of or c).name == decider]
    seen, decided = decided_channels(g.flow_edges, start)
    bounds = [b for b in loop_bounds(net, g) if decided & set(b.channels)]
    bounds += [LoopBound(Fraction(g.self_ii[c]), [net.channels[c].name], [c], g.self_ii[c], 1)
               for c in sorted(seen) if c in g.self_ii]
    return max(bounds, key=lambda b: b.value, default=None)


def combinational_cycles(net: Netlist, graph: ChannelGraph | None = None
                         ) -> dict[str, list[str]]:
    """A cycle of channels whose valid (forward) or ready (backward) passes
    no register, per kind; empty when design.md section 5 holds. `graph`:
    the channel graph to search (default: the netlist's units as they are)."""
    g = graph or channel_graph(net)
    found: dict[str, list[str]] = {}
    for kind in ("valid", "ready"):
        succ: dict[int, list[int]] = {}
        for e in g.edges:
            if kind == "valid" and e.arc.valid_comb:
                succ.setdefault(e.src, []).append(e.dst)
            if kind == "ready" and e.arc.ready_comb:
                succ.setdefault(e.dst, []).append(e.src)
        nodes = sorted(succ.keys() | {v for vs in succ.values() for v in vs})
        for comp in strongly_connected(nodes, succ):
            members = set(comp)
            if len(comp) > 1 or comp[0] in succ.get(comp[0], ()):
                found[kind] = [net.channels[c].name for c in comp if c in members]
                break
    return found
