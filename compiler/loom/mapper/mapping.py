"""Map a DFG onto an ADG: place (constructive, then annealing), route
(negotiated congestion), and record the port-level route of every DFG edge
(loom-fabric-notes.md section 3.4's pipeline, without LOOM's repair stages).

When routing leaves edges unrouted or ports shared, the estimate of those
edges is weighted up and the placement annealed again, for a fixed number
of rounds (iteration budgets, no clock). A repair round can end worse than
an earlier one: the result is the round that left the least to repair,
with the placement that round routed (LOOM keeps its best checkpoint). A
memref edge is bound, not routed: its path is LOOM's synthetic [p, p] on
the hardware memref port.
A route to or from a tagged memory lane ends at the lane's bridge and is
continued through it to the memory port (bridges.py).
"""

from __future__ import annotations

import random
from dataclasses import dataclass

from xdsl.ir import Block, Operation

from loom.mapper.adg_graph import AdgGraph, flatten
from loom.mapper.annealing import anneal
from loom.mapper.placement import Option, Placement, Problem, build_problem, construct
from loom.mapper.router import PASSES, Net, Routes, route, searcher
from loom.mapper.sw_graph import SwGraph, sw_graph

ROUTE_ROUNDS = 4
"""Placement-and-routing rounds before the result is kept as it is."""
REWEIGHT = 2.0
"""Factor on the estimate of an edge that failed to route in a round."""
REPAIR_ITERATIONS_PER_NODE = 50


@dataclass
class Mapping:
    sw: SwGraph
    adg: AdgGraph
    problem: Problem
    placement: Placement
    paths: list[list[int] | None]
    """Per DFG edge: [src out, in, out, ..., dst in]; [p, p] for a memref; None: unrouted."""
    overused: list[int]
    """Ports left carrying several nets."""
    seed: int
    rounds: int
    """The routing round this mapping is (1: the first placement's)."""

    @property
    def ok(self) -> bool:
        return not self.overused and all(
            self.placement.chosen[n] is not None for n in self.problem.placeable) and all(
            p is not None for p in self.paths)


def edge_nets(problem: Problem, placement: Placement
              ) -> tuple[list[Net], dict[int, tuple[int, int]], dict[int, list[int]]]:
    """The router's nets: one per produced value (its hardware source port) with
    one sink per edge; edge -> (net, sink position); memref edges -> [p, p]."""
    nets: list[Net] = []
    where: dict[int, tuple[int, int]] = {}
    bound: dict[int, list[int]] = {}
    by_source: dict[int, list[tuple[int, int]]] = {}
    order: list[int] = []
    for e in problem.sw.edges:
        a, b = placement.chosen[e.src], placement.chosen[e.dst]
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
        if src not in by_source:
            by_source[src] = []
            order.append(src)
        by_source[src].append((e.id, dst))
    for src in order:
        for k, (edge, _) in enumerate(by_source[src]):
            where[edge] = (len(nets), k)
        nets.append(Net(src, tuple(dst for _, dst in by_source[src])))
    return nets, where, bound


def _edge_paths(problem: Problem, placement: Placement, routes: Routes,
                where: dict[int, tuple[int, int]], bound: dict[int, list[int]]
                ) -> list[list[int] | None]:
    paths: list[list[int] | None] = []
    for e in problem.sw.edges:
        if e.id in bound:
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
    """Whether some DFG node has no host at all, or the ops outnumber the PEs."""
    ops = sum(1 for n in problem.sw.nodes if n.kind == "op")
    pes = len({n.pe for n in problem.adg.nodes if n.pe})
    return ops > pes or not all(problem.options[n] for n in problem.placeable)


def map_dfg(body: Block, module: Operation, seed: int = 0) -> Mapping:
    """Place and route the handshake.func body `body` onto the ADG `module`."""
    sw = sw_graph(body)
    adg = flatten(module)
    problem = build_problem(sw, adg, module)
    rng = random.Random(seed)
    placement = construct(problem, rng)
    # a node without any host, or more ops than PEs, cannot be repaired by
    # annealing or rerouting: the constructive placement and one routing
    # pass, for the partial map
    hopeless = unhostable(problem)
    if not hopeless:
        placement = anneal(problem, placement, rng)
    best: Mapping | None = None
    rounds = 1 if hopeless else ROUTE_ROUNDS
    search = searcher(adg)
    for round_index in range(1, rounds + 1):
        nets, where, bound = edge_nets(problem, placement)
        routes = route(adg, nets, passes=1 if hopeless else PASSES, search=search)
        paths = _edge_paths(problem, placement, routes, where, bound)
        result = Mapping(sw, adg, problem, placement, paths, routes.overused, seed, round_index)
        if best is None or _left(result) < _left(best):
            best = result  # an earlier round wins a tie: the result depends on nothing else
        failed = _failed_edges(paths, routes.overused, problem)
        if result.ok or not failed or round_index == rounds:
            break
        for e in failed:
            problem.weights[e] *= REWEIGHT
        # on a copy: annealing moves nodes in the placement it is given, and
        # this round's mapping keeps the placement it routed
        placement = anneal(problem, placement.copy(), rng,
                           REPAIR_ITERATIONS_PER_NODE * max(1, len(problem.placeable)))
    assert best is not None
    return best


__all__ = ["Mapping", "edge_nets", "map_dfg"]
