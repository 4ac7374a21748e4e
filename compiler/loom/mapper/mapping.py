"""Map a DFG onto an ADG: place (constructive, then annealing), route
(negotiated congestion), and record the port-level route of every DFG edge
(docs/loom-fabric-notes.md section 3.4's pipeline, without LOOM's repair stages).

When routing leaves edges unrouted or ports shared, the placement is
repaired over more rounds (REPAIRS, up to ROUNDS rounds in all or the
caller's budget; iteration budgets, no clock): the
estimate of the failed edges is weighted up and the placement annealed
again, first from the full temperature; if that does not fit, from the
first round's placement again, cool, with the wires through the ports
where the router's nets crowded made longer (sites.py). A repair round can
end worse than an earlier one: the result is the round that left the least
to repair, with the placement that round routed (LOOM keeps its best
checkpoint). Once a round fits, throughput rounds re-place around the
critical recurrences and keep a fit with lower loop bounds (_tune). A
memref edge is bound, not routed: its path is LOOM's
synthetic [p, p] on the hardware memref port. A route to or from a tagged
memory lane ends at the lane's bridge and is continued through it to the
memory port (bridges.py).
"""

from __future__ import annotations

import random
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field, replace

from xdsl.ir import Block

from loom.dialects import handshake as hs
from loom.fabric.adg_view import AdgView
from loom.mapper.adg_graph import AdgEdge, AdgGraph, flatten
from loom.mapper.annealing import anneal
from loom.mapper.bufferization import bufferize
from loom.mapper.placement import Option, Placement, Problem, build_problem, construct
from loom.mapper.router import PASSES, Net, Routes, route, searcher
from loom.mapper.router import Searcher
from loom.mapper.sites import SiteDistances
from loom.mapper.snapshots import Checkpoint, no_checkpoint
from loom.mapper.temporal_registers import register_edges
from loom.mapper.dfg_graph import DfgGraph, dfg_graph
from loom.mapper.wires import step_wires
from loom.mapper.throughput import FabricTiming, Throughput, critical_edges, recurrence_weights
from loom.progress import Tick, quiet

REWEIGHT = 2.0
"""Factor on the estimate of an edge that failed to route in a round."""
MAX_WEIGHT = 8.0
"""No edge counts more than this (three failed rounds): doubled without
bound, the edges that keep failing outweigh the rest of the placement
cost and a long repair diverges (gesummv on chess-16x16-ext6x6s3: 41 to
57 shared ports in rounds 1 to 5, 302 by round 40; capped, it fits in
round 12)."""
REPAIR_ITERATIONS_PER_NODE = 50
TUNE_ROUNDS = 4
"""Throughput rounds after a fit (_tune), beyond the `rounds` budget: they
only ever keep a mapping that fits."""
TUNE_REWEIGHT = 2.0
TUNE_MAX_WEIGHT = 32.0
"""A critical edge's weight, doubled each throughput round it stays
critical, up to this: past a one-token recurrence's own weight
(1 + RECURRENCE_WEIGHT), so that a few registers on it outweigh a longer
detour of the edges off every recurrence."""
TUNE_HEAT = 1.0
"""The first repair's heat: the cool repair's (0.2) left recurrences in
place more often (model geomean 2.60 against 2.57 over 17 kernels and three
seeds, before the lane estimate)."""


@dataclass(frozen=True)
class Repair:
    """A way to repair what the first routing round left: up to `rounds` more
    rounds, each after reweighting the failed edges and annealing the last
    placement again from `heat` times the first anneal's temperature; with
    `congestion`, what a port shared through every negotiation pass of a
    round adds to the cost of a wire through it in the next rounds' route
    estimate (sites.py)."""

    rounds: int
    heat: float
    congestion: float = 0.0


REPAIRS = (Repair(rounds=3, heat=1.0), Repair(rounds=11, heat=0.2, congestion=4.0))
"""Tried in order, each from what the first round left (its placement, the
edge weights, the random state), so neither depends on how the other went.
A full reheat first: it re-places broadly and fixes most kernels that miss
in the first round within a round or two. Then cool, congestion-guided
rounds: they keep the rest of a placement that mostly routed (a reheat
scatters it) and see the links the router could not share out as long, not
only the failed edges' own lengths, so they move routes off a few crowded
switches that re-placing only moves elsewhere; small steps, so more rounds
(11: with the folded constants, mask_compact on chess-8x8-ext6x4s2 at
seed 0 fits in round 13)."""

ROUNDS = 1 + sum(r.rounds for r in REPAIRS)
"""Routing rounds a map takes at most by default (`loom map --rounds`). A
larger budget stretches the last repair: and_or on chess-16x16-ext6x6s3
left 58, 24, 40 ... 80 shared ports in rounds 1 to 11, then 52 ... 14, 2,
12, 6 and fit in round 27 (MAX_WEIGHT). The first rounds do not depend on the
budget: a kernel that fits within the default maps the same with any
larger one."""


def repairs(rounds: int) -> list[Repair]:
    """REPAIRS cut to `rounds` routing rounds in all (the first included), or
    the last one stretched to them."""
    left, stages = rounds - 1, []
    for k, r in enumerate(REPAIRS):
        take = left if k == len(REPAIRS) - 1 else min(r.rounds, left)
        if take > 0:
            stages.append(replace(r, rounds=take))
        left -= take
    return stages


@dataclass
class Mapping:
    sw: DfgGraph
    """The DFG (reports); placement and routing saw `problem.sw`, its
    contracted view, whose folded nodes `problem.host_of` places."""
    adg: AdgGraph
    problem: Problem
    placement: Placement
    paths: list[list[int] | None]
    """Per DFG edge: [src out, in, out, ..., dst in]; [p, p] for a memref; []
    inside a compound unit (contraction.py); None: unrouted."""
    overused: list[int]
    """Ports left carrying several nets."""
    seed: int
    rounds: int
    """The routing round this mapping is (1: the first placement's; the
    repairs' rounds are numbered on in REPAIRS order)."""
    bypassed: frozenset[str] = frozenset()
    """The fifos the configuration bypasses (bufferization.py)."""

    _wires: tuple[tuple, dict[tuple[int, int], AdgEdge]] | None = field(
        default=None, init=False, repr=False, compare=False)
    """The paths the wires were chosen for, and the wires."""

    @property
    def wires(self) -> dict[tuple[int, int], AdgEdge]:
        """(output port, input port) of every routed step -> its ADG wire
        (wires.py), chosen once for the paths as they stand: the checks, the
        config and map.json read the same, and a caller that edits a path
        gets them chosen again."""
        paths = tuple(tuple(p) if p is not None else None for p in self.paths)
        if self._wires is None or self._wires[0] != paths:
            self._wires = (paths, step_wires(self))
        return self._wires[1]

    def option_of(self, node: int) -> Option | None:
        """The option that places DFG node `node`: its own, or its host's when
        the contracted view folds it (contraction.py)."""
        return self.placement.chosen[self.problem.host_of(node)]

    @property
    def ok(self) -> bool:
        return not self.overused and all(
            self.placement.chosen[n] is not None for n in self.problem.placeable) and all(
            p is not None for p in self.paths)


def edge_nets(problem: Problem, placement: Placement
              ) -> tuple[list[Net], dict[int, tuple[int, int]], dict[int, list[int]]]:
    """The router's nets: one per produced value (its hardware source port) with
    one sink per edge; edge -> (net, sink position); memref edges -> [p, p],
    temporal_reg edges -> []."""
    nets: list[Net] = []
    where: dict[int, tuple[int, int]] = {}
    bound: dict[int, list[int]] = {}
    # one net a DFG value: the slots sharing a temporal PE's unit share its
    # output ports, each with its own values
    by_source: dict[tuple[int, int, int], list[tuple[int, int]]] = {}
    order: list[tuple[int, int, int]] = []
    registers = register_edges(problem, placement)
    for e in problem.sw.edges:
        a, b = placement.chosen[e.src], placement.chosen[e.dst]
        if e.internal:
            continue
        if e.id in registers:   # between two slots of a temporal PE: nothing to route
            bound[e.id] = []
            continue
        if e.is_memref:
            port = b.in_port(e.dst_index) if b is not None else None
            if port is not None:
                bound[e.id] = [port, port]
            continue
        if a is None or b is None:
            continue
        src, dst = a.out_port(e.src_index), b.in_port(e.dst_index)
        if src is None or dst is None:
            continue
        key = (src, e.src, e.src_index)
        if key not in by_source:
            by_source[key] = []
            order.append(key)
        by_source[key].append((e.id, dst))
    for key in order:
        for k, (edge, _) in enumerate(by_source[key]):
            where[edge] = (len(nets), k)
        nets.append(Net(key[0], tuple(dst for _, dst in by_source[key])))
    return nets, where, bound


def _edge_paths(problem: Problem, placement: Placement, routes: Routes,
                where: dict[int, tuple[int, int]], bound: dict[int, list[int]]
                ) -> list[list[int] | None]:
    paths: list[list[int] | None] = []
    for e in problem.sw.edges:
        if e.internal:
            paths.append([])   # inside a compound unit: nothing to route
        elif e.id in bound:
            paths.append(bound[e.id])
        elif e.id in where:
            net, k = where[e.id]
            paths.append(_with_bridges(routes.paths[net][k], placement.chosen[e.src],
                                       placement.chosen[e.dst]))
        else:
            paths.append(None)
    return paths


def _with_bridges(path: list[int] | None, src: Option | None, dst: Option | None
                  ) -> list[int] | None:
    """A route that ends or starts at a memory lane, continued through the lane's
    fixed bridge to the memory port (LOOM's bridge-expanded export path)."""
    if path is None:
        return None
    before = dict(src.bridges).get(path[0], (path[0],)) if src is not None else (path[0],)
    after = dict(dst.bridges).get(path[-1], (path[-1],)) if dst is not None else (path[-1],)
    return [*before[:-1], *path, *after[1:]]


def _failed_edges(paths: list[list[int] | None], overused: list[int], problem: Problem) -> list[int]:
    shared = set(overused)
    return [e.id for e in problem.sw.edges if not e.is_memref and (
        paths[e.id] is None or shared.intersection(paths[e.id] or []))]


def _left(m: Mapping) -> tuple[int, int]:
    """What a round leaves to repair: unrouted edges, then ports carrying several nets."""
    return sum(p is None for p in m.paths), len(m.overused)


def unhostable(problem: Problem) -> bool:
    """Whether some DFG node has no host at all, or the ops outnumber what
    the PEs can host (AdgGraph.op_hosts)."""
    return problem.contraction.ops > problem.adg.op_hosts() or not all(
        problem.options[n] for n in problem.placeable)


LANES = 3
"""Seeds a near miss is mapped with at most (LOOM's mapper lanes,
spec-mapper.md: several seeds, the best deterministic winner by what is
left, then the lane index), one lane after another on our 2 cores: seed,
seed + 1, ... A heuristic's seed sometimes leaves one crowded port where
the next seed fits (mixed_types on chess-8x8-ext4x4s2 at seed 0, once
extensions became wires)."""

NEAR_MISS = 4
"""A map that routed every edge and left at most this many ports carrying
several nets is a near miss: worth another lane. A farther miss (a preset
too small, as `--adg auto` meets them) takes one lane's time only."""


def map_dfg(body: Block, view: AdgView, seed: int = 0, rounds: int = ROUNDS,
            tick: Tick = quiet, checkpoint: Checkpoint = no_checkpoint,
            lanes: int = LANES) -> Mapping:
    """Place and route the handshake.func body `body` onto the ADG `view`,
    in at most `rounds` routing rounds; `tick` hears the round and its stage,
    `checkpoint` the best mapping after each routing, repair and throughput
    round (mapper/snapshots.py). The contracted view (contraction.py) is
    mapped first; when it does not fit, the DFG without folds is too (LOOM's
    conservative fallback: a fold pins its op to the PEs whose units hold a
    constant, which a crowded kernel may not afford), and the one that left
    less to repair is the lane's result. A near miss is mapped again with the
    next seed, up to `lanes` seeds; the mapping says its seed."""
    sw = dfg_graph(body)
    adg = flatten(view)
    func = body.parent_op()
    weights = recurrence_weights(func, sw) if isinstance(func, hs.FuncOp) else []
    best = _lane(sw, adg, view, weights, seed, rounds, tick, checkpoint)
    for lane in range(1, lanes):
        if best.ok or not _near_miss(best):
            break
        m = _lane(sw, adg, view, weights, seed + lane, rounds,
                  lambda text, s=seed + lane: tick(f"seed {s}: {text}"), checkpoint)
        if _left(m) < _left(best):
            best = m
    return best


def _near_miss(m: Mapping) -> bool:
    unrouted, shared = _left(m)
    return unrouted == 0 and shared <= NEAR_MISS


def _lane(sw: DfgGraph, adg: AdgGraph, view: AdgView, weights: list[float], seed: int,
          rounds: int, tick: Tick, checkpoint: Checkpoint) -> Mapping:
    """One seed's map: the contracted view, then the fallback view if it missed."""
    problem = build_problem(sw, adg, view)
    problem.weights = list(weights) or problem.weights
    m = _map_problem(problem, view, seed, rounds, tick, checkpoint)
    if m.ok or not problem.contraction.host:
        return m
    fallback = build_problem(sw, adg, view, fold=False)
    if unhostable(fallback):
        return m
    fallback.weights = list(weights) or fallback.weights
    f = _map_problem(fallback, view, seed, rounds,
                     lambda text: tick(f"fallback view (no constant folded): {text}"), checkpoint)
    return f if _left(f) < _left(m) else m


def _map_problem(problem: Problem, view: AdgView, seed: int, rounds: int, tick: Tick,
                 checkpoint: Checkpoint) -> Mapping:
    """Place and route `problem` (map_dfg's rounds)."""
    adg = problem.adg
    rng = random.Random(seed)
    placement = construct(problem, rng)
    # a node without any host, or more ops than PEs, cannot be repaired by
    # annealing or rerouting: the constructive placement and one routing
    # pass, for the partial map
    hopeless = unhostable(problem)
    if not hopeless:
        placement = anneal(problem, placement, rng, tick=_in_round(tick, 1, rounds))
    search = searcher(adg)
    first, routes = _route_round(problem, placement, search, 1 if hopeless else PASSES, seed, 1,
                                 _in_round(tick, 1, rounds))
    checkpoint("route-round", first)
    if hopeless:
        first.bypassed = bufferize(first, view)
        return first
    best, done = first, 1
    start = rng.getstate(), list(problem.weights)
    for repair in repairs(rounds):
        rng.setstate(start[0])
        problem.weights, problem.estimate = list(start[1]), problem.distances
        for m in _repair(problem, repair, first, routes, rng, search, done,
                         lambda k: _in_round(tick, k, rounds)):
            done = m.rounds
            if _left(m) < _left(best):
                best = m  # an earlier round wins a tie: the result depends on nothing else
            checkpoint("repair-round", best)
        if best.ok:
            break
    best.bypassed = bufferize(best, view)
    return _tune(problem, best, view, search, rng, tick, checkpoint) if best.ok else best


def _tune(problem: Problem, fit: Mapping, view: AdgView, search: Searcher,
          rng: random.Random, tick: Tick, checkpoint: Checkpoint = no_checkpoint) -> Mapping:
    """Up to TUNE_ROUNDS throughput rounds after a fit: the edges of each
    critical recurrence that the fabric lengthens past its loop's direct II
    weigh TUNE_REWEIGHT times more, the best placement so far is annealed
    again (at TUNE_HEAT) and routed; a round that fits with lower loop
    bounds (largest first) becomes the best, and the first round that does
    not fit ends them. The fit's own weights come back afterwards, so the
    result depends on nothing but the fit and the seed. Over 17 kernels and
    three seeds on chess-8x8-ext2-f, stopping at the first round that does
    not lower the bounds kept a model geomean of 2.09 against 1.93 for all
    four rounds."""
    timing = FabricTiming.of(fit, view)
    if not isinstance(timing, FabricTiming):
        return fit
    weights = list(problem.weights)
    best, score = fit, _score(timing, fit)
    for k in range(1, TUNE_ROUNDS + 1):
        late = critical_edges(_model(timing, best), timing)
        if not late:
            break
        for e in late:
            problem.weights[e] = min(TUNE_MAX_WEIGHT, problem.weights[e] * TUNE_REWEIGHT)
        ticks = _in_round(tick, fit.rounds + k, fit.rounds + TUNE_ROUNDS)
        placement = anneal(problem, best.placement.copy(), rng,
                           REPAIR_ITERATIONS_PER_NODE * max(1, len(problem.placeable)),
                           heat=TUNE_HEAT, tick=ticks)
        m, _ = _route_round(problem, placement, search, PASSES, fit.seed, fit.rounds + k, ticks)
        if not m.ok:   # heavier weights only crowd it more
            break
        m.bypassed = bufferize(m, view)
        if (s := _score(timing, m)) < score:
            best, score = m, s
        checkpoint("throughput-round", best)
    problem.weights = weights
    return best


def _model(timing: FabricTiming, m: Mapping) -> Throughput:
    """The model of `m` (`timing` read the DFG once, for the fit)."""
    return replace(timing, m=m).model(m.bypassed)


def _score(timing: FabricTiming, m: Mapping) -> tuple[float, ...]:
    """A mapping's loop bounds, largest first: what tuning lowers."""
    return tuple(sorted((float(lp.ii) for lp in _model(timing, m).loops), reverse=True))


def _in_round(tick: Tick, index: int, rounds: int) -> Tick:
    return lambda text: tick(f"round {index} of at most {rounds}: {text}")


def _repair(problem: Problem, repair: Repair, first: Mapping, routes: Routes,
            rng: random.Random, search: Searcher, done: int,
            ticks: Callable[[int], Tick]) -> Iterator[Mapping]:
    """The rounds of `repair` after `first` (routed as `routes`), numbered on
    from round `done`; they end at a mapping that fits, or one whose failure
    has no edge to reweight."""
    congestion = [0.0] * len(problem.adg.ports)
    last = first
    for index in range(done + 1, done + 1 + repair.rounds):
        failed = _failed_edges(last.paths, last.overused, problem)
        if last.ok or not failed:
            return
        for e in failed:
            problem.weights[e] = min(MAX_WEIGHT, problem.weights[e] * REWEIGHT)
        if repair.congestion:
            for p, h in enumerate(routes.history):
                congestion[p] += repair.congestion * h / routes.passes
            problem.estimate = SiteDistances.of(problem.adg, congestion)
        # on a copy: annealing moves nodes in the placement it is given, and
        # each round's mapping keeps the placement it routed
        placement = anneal(problem, last.placement.copy(), rng,
                           REPAIR_ITERATIONS_PER_NODE * max(1, len(problem.placeable)),
                           heat=repair.heat, tick=ticks(index))
        last, routes = _route_round(problem, placement, search, PASSES, first.seed, index,
                                    ticks(index))
        yield last


def _route_round(problem: Problem, placement: Placement, search: Searcher, passes: int,
                 seed: int, index: int, tick: Tick) -> tuple[Mapping, Routes]:
    """Route `placement`: round `index`'s mapping, and the router's result."""
    nets, where, bound = edge_nets(problem, placement)
    routes = route(problem.adg, nets, passes=passes, search=search, tick=tick)
    paths = _edge_paths(problem, placement, routes, where, bound)
    return Mapping(problem.dfg, problem.adg, problem, placement, paths, routes.overused, seed,
                   index), routes


__all__ = ["REPAIRS", "ROUNDS", "Mapping", "Repair", "edge_nets", "map_dfg", "repairs"]
