"""The throughput model of a mapping: each loop's recurrence bound on the
fabric, its critical recurrence with the routes it takes, and a lower bound
on a run's kernel cycles.

A mapped kernel runs the DFG's own units (a function unit's body is built
from the direct flow's unit templates, so loom.rtl.timing's arcs hold for
it) with the fabric's own registers between them (loom.fabric.rtl.latency):
each DFG edge's route adds the buffers it passes (the producer's PE output
buffer, the link buffers AdgView.link_buffer places, fabric.fifo nodes not
bypassed). Switches, tag ops, a memory's result queues (empty, they pass
a result at once) and its store pairing registers (a lane's address and
data that come together pass at once) are combinational. The loops and
their bounds are then those of loom.rtl.timing on the same channel graph
as the direct RTL (maximum cycle ratio per strongly connected component,
loop entries cut), so a loop's fabric II and its direct II compare one to
one. The fabric's graph adds one more kind of arc: a route's slots, from
its consumer's result back to its producer (_capacity_edges), so a
reconvergence whose short side holds fewer tokens than its long side takes
cycles bounds the loop too.

A loop is named by its condition, `<loop>_raw_will_continue` (the
lowering's names: for0, while1, ...). Its bound is a lower bound on a run
where its critical recurrence turns once an iteration: within an
activation, a recurrence of L cycles and m tokens lets token k + m of any
of its channels come no earlier than L cycles after token k, so a channel
with n tokens in the activation takes at least (n - m) L / m cycles, and
activations of one loop follow one another (the carry takes its next
initial value after the last condition). A recurrence through one branch
of an if turns only on the iterations that take it; the golden run's token
counts tell: the channels of a recurrence that turns every iteration carry
the same count up to one token an activation (a carry's initial value).
Recurrences that do not are left out of the bound.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field
from fractions import Fraction
from typing import TYPE_CHECKING

from xdsl.ir import Operation

from loom.diagnostics import LoomError
from loom.dialects import fabric_syntax as fs
from loom.dialects import handshake as hs
from loom.fabric.adg_view import AdgView
from loom.fabric.rtl import latency
from loom.golden.loop_report import RAW_SUFFIX
from loom.mapper.adg_graph import AdgGraph
from loom.mapper.dfg_graph import DfgGraph
from loom.rtl.netlist import Channel, Netlist, unit_netlist
from loom.rtl.timing import (Arc, ChannelGraph, Edge, LoopBound, channel_graph,
                             combinational_cycles, decided_bound, decided_channels, loop_bounds)
from loom.rtl.units import BINARY_OPS, CAST_OPS, FLOAT_MINMAX_OPS, FLOAT_SIGN_OPS
from loom.scc import strongly_connected

if TYPE_CHECKING:
    from loom.mapper.mapping import Mapping

Bound = Fraction | float
RECURRENCE_WEIGHT = 3.0
"""What a register on a one-token recurrence costs placement, in route
hops beyond the edge's own: every register there is a cycle per iteration."""
AFTER_SUFFIX = "_after_cond"
"""A loop's gated condition (seed 002: `<loop>_after_cond`)."""


@dataclass(frozen=True)
class RouteTiming:
    """The fabric registers one DFG edge's route passes."""

    channel: str
    """The DFG channel (loom.dfg_names), as the traces name it."""
    latency: int
    nodes: tuple[str, ...]
    """The hardware it crosses: producer, routing nodes, consumer."""
    registers: tuple[str, ...]
    """Where its cycles are spent: `<node> out`, `<node> link`, `<fifo>`."""
    ready_registered: bool = False
    """Whether one of them registers ready too (every buffer of two slots or
    more does; a one-slot fifo, our oehb, passes ready through)."""
    slots: int = 0
    """Tokens its buffers hold at most, bypassed fifos included (bypassing
    keeps a fifo's slots and its registered ready: docs/fabric/fifo.md)."""
    ready_stages: int = 0
    """Its buffers that register ready: a slot freed at the consumer reaches
    the producer a cycle for each."""

    def text(self) -> str:
        regs = ", ".join(self.registers) or "none"
        return (f"{self.channel}: {self.nodes[0]} -> {self.nodes[-1]}, {len(self.nodes) - 2} "
                f"routing node(s), {self.latency} cycle(s) ({regs})")


@dataclass(frozen=True)
class LoopThroughput:
    loop: str
    ii: Bound
    """The loop's recurrence bound on the fabric: its expected II."""
    direct_ii: Bound
    """The same loop's bound in the kernel's direct RTL."""
    latency: int
    tokens: int
    """The critical recurrence: cycles around it and the tokens it holds."""
    cycle: tuple[str, ...]
    """The critical recurrence's channels."""
    routes: tuple[RouteTiming, ...]
    """The routes of its channels that hold a register (in the cycle's order)."""
    short_sides: tuple[RouteTiming, ...] = ()
    """The routes whose slots close its critical recurrence (_capacity_edges)."""

    def line(self) -> str:
        """One line: `loop for0: expected II 14 (direct 1), critical recurrence ...`."""
        return (f"loop {self.loop}: expected II {fmt_bound(self.ii)} "
                f"(direct RTL {fmt_bound(self.direct_ii)}), critical recurrence "
                f"{self.latency} cycle(s) / {self.tokens} token(s): " + " > ".join(self.cycle)
                + self._slots())

    def limit(self) -> str:
        """One line: the loop's bound beside its direct one, and the fabric's
        registers on its critical recurrence by kind."""
        kinds: dict[str, list[str]] = {}
        for route in self.routes:
            for reg in route.registers:
                node, _, what = reg.partition(" ")
                kind = {"link": "link register", "out": "PE output buffer"}.get(what, what or "fifo")
                kinds.setdefault(kind, []).append(node)
        regs = "; ".join(f"{len(nodes)} {kind}(s): {', '.join(nodes)}"
                         for kind, nodes in kinds.items())
        cycles = sum(r.latency for r in self.routes)
        return (f"loop {self.loop}: expected II {fmt_bound(self.ii)} "
                f"(direct RTL {fmt_bound(self.direct_ii)}); {cycles} of its critical "
                f"recurrence's {self.latency} cycle(s) / {self.tokens} token(s) on fabric "
                "registers" + (f" ({regs})" if regs else "") + self._slots())

    def _slots(self) -> str:
        """`; the slots of a route ...` when a short side's slots close the recurrence."""
        if not self.short_sides:
            return ""
        return "; it closes through the slots of " + ", ".join(
            f"{r.channel}'s route ({r.slots}, {r.nodes[0]} -> {r.nodes[-1]})"
            for r in self.short_sides)

    def row(self) -> dict:
        """map.json's entry."""
        return {"loop": self.loop, "expected_ii": _num(self.ii),
                "direct_ii": _num(self.direct_ii), "latency": self.latency,
                "tokens": self.tokens, "cycle": list(self.cycle),
                "routes": [{"channel": r.channel, "latency": r.latency, "nodes": list(r.nodes),
                            "registers": list(r.registers)} for r in self.routes],
                "short_sides": [{"channel": r.channel, "slots": r.slots, "nodes": list(r.nodes)}
                                for r in self.short_sides]}


def fmt_bound(v: Bound) -> str:
    """A bound as printed: `inf`, else its shortest decimal form."""
    return "inf" if v == math.inf else f"{float(v):g}"


def _num(v: Bound) -> float | None:
    """A bound in JSON: a number, null for a loop without tokens (never runs)."""
    return None if v == math.inf else round(float(v), 4)


@dataclass(frozen=True)
class Throughput:
    loops: tuple[LoopThroughput, ...]
    """Per loop, in the order of its condition in the DFG."""
    unavailable: str | None = None
    """Why there is no model (an op without a timing model, a memory
    without a static shape): the map is written all the same."""

    def slowest(self) -> LoopThroughput:
        """The loop the fabric slows most against its direct RTL (the first of equals)."""
        return max(self.loops, key=lambda lp: lp.ii / max(lp.direct_ii, Fraction(1, 10**6)))

    @property
    def expected_ii(self) -> Bound:
        """The largest loop bound (0 without loops)."""
        return max((lp.ii for lp in self.loops), default=Fraction(0))

    def lines(self) -> list[str]:
        """What `loom map` prints and map.txt holds: a loop a line, then the
        routes of each critical recurrence that hold registers."""
        if self.unavailable is not None:
            return [f"no throughput model: {self.unavailable}"]
        out = []
        for lp in self.loops:
            out.append(lp.line())
            out += [f"  route {r.text()}" for r in lp.routes]
        return out or ["no loops"]

    def summary(self) -> dict:
        """map.json's `throughput` section."""
        if self.unavailable is not None:
            return {"available": False, "reason": self.unavailable}
        return {"available": True, "expected_ii": _num(self.expected_ii),
                "loops": [lp.row() for lp in self.loops]}

    def min_cycles(self, counts: dict[str, int], activations: dict[str, list[int]]) -> int:
        """A lower bound on a run's kernel cycles from the golden run's token
        `counts` per channel and each loop's `activations` (module
        docstring); the largest over the loops whose critical recurrence
        turns with every iteration."""
        best = 0
        for lp in self.loops:
            if lp.ii == math.inf or not lp.tokens or any(c not in counts for c in lp.cycle):
                continue
            on_cycle = [counts[c] for c in lp.cycle]
            times = len(activations.get(lp.loop, []))
            if max(on_cycle) - min(on_cycle) > times:
                continue   # a branch of an if inside the loop: not every iteration turns it
            chained = max(0, min(on_cycle) - times * lp.tokens)
            best = max(best, math.floor(chained * Fraction(lp.latency, lp.tokens)))
        return best

    def predicted_cycles(self, activations: dict[str, list[int]]) -> int:
        """The kernel's cycles if every loop ran at its bound: the largest
        over the loops of (iterations x II)."""
        return max((math.ceil(sum(activations.get(lp.loop, [])) * Fraction(lp.ii))
                    for lp in self.loops if lp.ii != math.inf), default=0)


def throughput(m: Mapping, view: AdgView) -> Throughput:
    """The throughput model of a routed mapping (module docstring), with the
    fifos it bypasses (Mapping.bypassed)."""
    timing = FabricTiming.of(m, view)
    return timing.model(m.bypassed) if isinstance(timing, FabricTiming) else Throughput((), timing)


@dataclass(frozen=True)
class FabricTiming:
    """What the model of one routed mapping reads once: the DFG's unbuffered
    netlist and its channel graph, and each channel's DFG edge; the fabric's
    graph then follows from which fifos are bypassed."""

    m: Mapping
    view: AdgView
    net: Netlist
    direct: ChannelGraph
    edges: dict[int, int]
    """Channel index -> the DFG edge that ends on it (channel_edges)."""
    memo: dict[tuple[int, frozenset[str]], RouteTiming] = field(
        default_factory=dict, init=False, compare=False, repr=False)
    """Routes already timed, by channel and the bypassed fifos on the route:
    bufferization asks for every route once per fifo it tries, and one fifo
    changes only the routes through it."""
    fifos: dict[int, frozenset[str]] = field(default_factory=dict, init=False, compare=False,
                                             repr=False)
    """Channel index -> the fifos on its route, filled as routes are timed."""

    @staticmethod
    def of(m: Mapping, view: AdgView) -> FabricTiming | str:
        """The timing of `m`, or why there is none."""
        func = _func(m)
        if func is None:
            return "the DFG has no ops"
        try:
            net = unit_netlist(func, "<dfg>")
        except (LoomError, KeyError) as err:   # the units' own refusal, or no timing for one
            return str(err).splitlines()[0]
        return FabricTiming(m, view, net, channel_graph(net), channel_edges(net, m.sw))

    def routes(self, bypassed: frozenset[str]) -> dict[int, RouteTiming]:
        """Channel index -> the route of the DFG edge it ends on."""
        out: dict[int, RouteTiming] = {}
        for index, edge in self.edges.items():
            path = self.m.paths[edge]
            if path is None or len(path) < 2 or path[0] == path[-1]:
                continue
            if index not in self.fifos:
                self.fifos[index] = frozenset(route_fifos(path, self.m.adg))
            key = (index, bypassed & self.fifos[index])
            if key not in self.memo:
                self.memo[key] = _route(self.net.channels[index].name, path, self.m.adg,
                                        self.view, bypassed)
            out[index] = self.memo[key]
        return out

    def model(self, bypassed: frozenset[str]) -> Throughput:
        routes = self.routes(bypassed)
        fabric = _fabric_graph(self.direct, routes)
        capacity = _capacity_edges(fabric, routes)   # the bound only: no combinational arc
        fabric.edges += [e for e, _ in capacity]
        name = {c.index: (c.copy_of or c).name for c in self.net.channels}   # as cycles name them
        slots = {(name[e.src], name[e.dst]): r for e, r in capacity}
        loops = []
        for ch in self.net.channels:
            if not ch.name.endswith(RAW_SUFFIX) or ch.copy_of is not None:
                continue
            loop = ch.name.removesuffix(RAW_SUFFIX)
            bound = _loop_bound(self.net, loop, fabric)
            if bound is not None:
                loops.append(_loop(loop, bound, _loop_bound(self.net, loop, self.direct),
                                   fabric, routes, slots))
        return Throughput(tuple(loops))

    def combinational(self, bypassed: frozenset[str]) -> dict[str, list[str]]:
        """A ring of the configured fabric whose valid or ready passes no
        register, per kind (timing.combinational_cycles); empty when every
        ring the mapping uses keeps one."""
        return combinational_cycles(self.net, _fabric_graph(self.direct, self.routes(bypassed)))


def critical_edges(model: Throughput, timing: FabricTiming) -> list[int]:
    """The DFG edges of every loop's critical recurrence, for the loops the
    fabric runs slower than their direct RTL, in loop then cycle order."""
    index = {c.name: c.index for c in timing.net.channels if c.copy_of is None}
    out: list[int] = []
    for lp in model.loops:
        if lp.ii <= lp.direct_ii:
            continue
        for name in lp.cycle:
            e = timing.edges.get(index.get(name, -1))
            if e is not None and e not in out:
                out.append(e)
    return out


def _loop_bound(net: Netlist, loop: str, g: ChannelGraph) -> LoopBound | None:
    """The largest bound over the recurrences the loop's two conditions
    decide: raw_will_continue (the carries' conditions) and after_cond (the
    gates' outputs: the memory-control carries of seed 002's lowering)."""
    found = [b for d in (RAW_SUFFIX, AFTER_SUFFIX)
             if (b := decided_bound(net, loop + d, g)) is not None]
    return max(found, key=lambda b: b.value, default=None)


def _func(m: Mapping) -> hs.FuncOp | None:
    op = next((n.op for n in m.sw.nodes if n.op is not None), None)
    parent = op.parent_op() if op is not None else None
    return parent if isinstance(parent, hs.FuncOp) else None


def _loop(name: str, bound: LoopBound, plain: LoopBound | None, g: ChannelGraph,
          routes: dict[int, RouteTiming],
          slots: dict[tuple[str, str], RouteTiming]) -> LoopThroughput:
    by_name = {c.name: c.index for c in g.net.channels if c.copy_of is None}
    crossed = tuple(routes[by_name[c]] for c in bound.cycle
                    if c in by_name and by_name[c] in routes and routes[by_name[c]].latency)
    steps = zip(bound.cycle, [*bound.cycle[1:], *bound.cycle[:1]])
    short = tuple(slots[step] for step in steps if step in slots)
    return LoopThroughput(name, bound.value, plain.value if plain else Fraction(0),
                          bound.latency, bound.tokens, tuple(bound.cycle), crossed, short)


# ---------------------------------------------------------------- the fabric's graph

def _fabric_graph(direct: ChannelGraph, routes: dict[int, RouteTiming]) -> ChannelGraph:
    """The direct RTL's channel graph with the fabric's registers: a route's
    on the arcs leaving the channel it ends on."""
    g = ChannelGraph(direct.net, [], dict(direct.self_ii))
    for e in direct.edges:
        route = routes.get(e.src)
        extra = route.latency if route else 0
        # a fabric register cuts valid; ready where the route's buffer registers it
        ready_cut = route is not None and route.ready_registered
        # constructed, not dataclasses.replace: bufferization builds this
        # graph for every fifo it tries, and replace's field walk took seconds
        a = e.arc
        g.edges.append(Edge(e.src, e.dst, e.inst,
                            Arc(a.src, a.dst, latency=a.latency + extra, tokens=a.tokens,
                                valid_comb=False, ready_comb=a.ready_comb and not ready_cut,
                                entry=a.entry, flow=a.flow))
                       if extra else e)
    return g


TAKES_AS_IT_GIVES = frozenset((*BINARY_OPS, *CAST_OPS, *FLOAT_SIGN_OPS, *FLOAT_MINMAX_OPS,
                               "cmpi", "cmpf", "select"))
"""Units that take their operands in the cycle their result leaves, one
result a firing: the time of result k is the time operand k's slot frees.
So does a cond_br on a loop's condition, on its true side: every firing of
an activation but the last goes there (_continues)."""


def _capacity_edges(g: ChannelGraph, routes: dict[int, RouteTiming]
                    ) -> list[tuple[Edge, RouteTiming]]:
    """A route's slots bound how far its producer runs ahead of its consumer:
    the producer's token k + S (S the route's slots) waits until the consumer
    took token k and the freed slot came back through the route's buffers,
    a cycle for each that registers ready (R). When the consumer takes as it
    gives (TAKES_AS_IT_GIVES), that is the time of its result k, so an arc
    from the result back to the producer (through the forks a fabric
    broadcast stands for) with S tokens and latency R: a reconvergence
    whose long side takes longer than the short side's slots cover then
    bounds the loop (fir's multiply-add on a `-f` preset). Only within one
    loop (both ends in recurrences its condition decides: _loop_of): the
    bound is one activation's. Flow arcs for the cycle ratio, neither valid
    nor ready combinational; each with the route whose slots it stands for."""
    fork_in = {e.dst: e.src for e in g.edges if e.inst.spec.family in ("fork", "lazy_fork")}
    arcs = [e for e in g.flow_edges if not e.arc.entry]
    succ: dict[int, list[int]] = {}
    for e in arcs:
        succ.setdefault(e.src, []).append(e.dst)
    loop_of = _loop_of(g, arcs, succ)

    def origin(ch: int) -> int:
        while ch in fork_in:
            ch = fork_in[ch]
        return ch

    cond_of = {id(e.inst): e.src for e in g.edges if e.inst.spec.family == "cond_br"
               and e.arc.src[0] == "cond"}
    out = []
    for e in arcs:
        route = routes.get(e.src)
        takes = e.inst.spec.family in TAKES_AS_IT_GIVES or (
            e.inst.spec.family == "cond_br" and e.arc.dst[0] == "true_out"
            and _continues(g.net.channels[origin(cond_of[id(e.inst)])].name))
        if route is None or not takes or e.arc.tokens or e.arc.latency != route.latency:
            continue   # not a combinational take, or a unit of its own latency
        producer = origin(e.src)
        if not loop_of.get(producer, set()) & loop_of.get(e.dst, set()):
            continue
        out.append((Edge(e.dst, producer, e.inst,
                         Arc(e.arc.dst, e.arc.src, latency=route.ready_stages,
                             tokens=max(1, route.slots), valid_comb=False, ready_comb=False)),
                    route))
    return out


def _loop_of(g: ChannelGraph, arcs: list[Edge], succ: dict[int, list[int]]
             ) -> dict[int, set[str]]:
    """Channel -> the loops (their deciders' names) whose recurrences hold
    it: the strongly connected components of `arcs` (loop entries cut) that
    hold the condition or a unit it decides (timing.decided_channels, along
    `arcs`: a condition deciding an inner loop's entry does not make that
    loop its own)."""
    nodes = sorted(succ.keys() | {e.dst for e in arcs})
    comps = [c for c in strongly_connected(nodes, succ)
             if len(c) > 1 or c[0] in succ.get(c[0], ())]
    comp_of = {v: k for k, c in enumerate(comps) for v in c}
    loops: dict[int, set[str]] = {}
    for ch in g.net.channels:
        if ch.copy_of is not None or not _continues(ch.name):
            continue
        reached, decided = decided_channels(arcs, [ch.index])
        for k in {comp_of[c] for c in reached | decided if c in comp_of}:
            loops.setdefault(k, set()).add(ch.name)
    return {v: loops.get(k, set()) for v, k in comp_of.items()}


def _continues(decider: str) -> bool:
    """Whether a cond_br on channel `decider` is a loop's: true while it runs."""
    return decider.endswith((RAW_SUFFIX, AFTER_SUFFIX))


def channel_edges(net: Netlist, sw: DfgGraph) -> dict[int, int]:
    """Channel index -> the DFG edge (mapper numbering) that ends on it.
    Channels into a fork have none: the fork is routing, its outputs' edges
    are the routes."""
    node_of: dict[Operation, int] = {n.op: n.id for n in sw.nodes if n.op is not None}
    edge_of = {(e.dst, e.dst_index): e.id for e in sw.edges}
    out_node = {n.index: n.id for n in sw.nodes if n.kind == "output"}
    out: dict[int, int] = {}
    for ch in net.channels:
        key = _edge_key(ch, node_of, out_node, net)
        if key is not None and key in edge_of:
            out[ch.index] = edge_of[key]
    return out


def recurrence_weights(func: hs.FuncOp, sw: DfgGraph) -> list[float]:
    """Per DFG edge, how much placement weighs its route estimate: 1, and
    1 + RECURRENCE_WEIGHT / t on a loop recurrence whose critical cycle holds
    t tokens (each register on it lengthens that loop's II by 1 / t). All 1
    when the DFG has no timing model."""
    weights = [1.0] * len(sw.edges)
    try:
        net = unit_netlist(func, "<dfg>")
    except (LoomError, KeyError):
        return weights
    edges = channel_edges(net, sw)
    for bound in loop_bounds(net, channel_graph(net)):
        if not bound.tokens:
            continue
        for ch in bound.channels:
            if ch in edges:
                e = edges[ch]
                weights[e] = max(weights[e], 1.0 + RECURRENCE_WEIGHT / bound.tokens)
    return weights


def _edge_key(ch: Channel, node_of: dict[Operation, int], out_node: dict[int, int],
              net: Netlist) -> tuple[int, int] | None:
    if ch.top_output is not None:
        k = next((i for i, p in enumerate(net.outputs) if p.channel is ch), None)
        return (out_node[k], 0) if k in out_node else None
    if ch.sink is None or ch.value is None:
        return None
    op = ch.sink[0].op
    if op is None or op not in node_of:
        return None   # a fork: routing
    return node_of[op], list(op.operands).index(ch.value)


def route_fifos(path: list[int], adg: AdgGraph) -> list[str]:
    """The fifos `path` passes, in route order: the only names of `bypassed`
    _route reads."""
    return [hw.name for port in path[1::2]
            if (hw := adg.nodes[adg.ports[port].node]).kind == "fifo"]


def _route(channel: str, path: list[int], adg: AdgGraph, view: AdgView,
           bypassed: frozenset[str]) -> RouteTiming:
    """The registers on `path` ([src out, in, out, ..., dst in]), the fifos
    named in `bypassed` taking no cycle."""
    ports, nodes = adg.ports, adg.nodes
    src = nodes[ports[path[0]].node]
    names = [src.pe or src.name]
    regs: list[str] = []
    total = slots = stages = 0
    ready = False
    if src.pe and path[1] not in adg.unbuffered:
        total += latency.buffer_latency(latency.OUTPUT_BUFFER_SLOTS)
        slots += latency.OUTPUT_BUFFER_SLOTS
        stages += 1
        regs.append(f"{src.pe} out")
        ready = True
    for k in range(1, len(path), 2):
        hw = nodes[ports[path[k]].node]
        names.append(hw.pe or hw.name)
        if path[k] in adg.registered:
            total += latency.buffer_latency(latency.LINK_BUFFER_SLOTS)
            slots += latency.LINK_BUFFER_SLOTS
            stages += 1
            regs.append(f"{names[-1]} link")
            ready = True
        if hw.kind == "fifo":
            depth = fs.int_param(view.node(hw.name).definition, "depth", 1) or 1
            slots += depth
            stages += depth > 1
            if hw.name not in bypassed:
                total += latency.buffer_latency(depth)
                regs.append(hw.name)
                ready = ready or depth > 1
    return RouteTiming(channel, total, tuple(names), tuple(regs), ready, slots, stages)


__all__ = ["FabricTiming", "LoopThroughput", "RouteTiming", "Throughput", "critical_edges",
           "fmt_bound", "route_fifos", "throughput"]
