"""Routing by negotiated congestion (PathFinder) over the flattened ADG's ports
(loom-fabric-notes.md section 3.4).

A net is one DFG value: a source output port and the input ports of its
consumers. Each sink is reached by a least-cost search (Dijkstra: the
flattened graph has no coordinates for an A* estimate yet) from the net's
tree so far, so a net is one broadcast tree. Moves: an output port to the
input ports its wires reach; a routing node's input to the outputs its
connectivity allows. Only routing nodes fan out (LOOM's C11): a source that
is not a routing output (module input, unit, memory) starts the tree, and
later sinks branch only at input ports of routing nodes already in the tree
(the spec's rule: fanout happens at a switch input, which then drives
several switch outputs; a PE input mux never broadcasts).

Capacity (C4): a port carries one net. Entering port p costs
(1 + history[p]) * (1 + present * users[p]) where users counts the other
nets on p; after each pass every overused port's history grows and the
present factor is multiplied, until no port is shared or the pass budget
ends. Ties break on the port id, so the result depends on nothing but the
inputs: the same inputs give the same routes.
"""

from __future__ import annotations

import heapq
from collections.abc import Sequence
from dataclasses import dataclass, field

from loom.mapper.adg_graph import AdgGraph

PASSES = 12
HISTORY_FACTOR = 1.0
PRESENT_FACTOR = 1.0
PRESENT_GROWTH = 1.5


@dataclass(frozen=True)
class Net:
    source: int
    """An output port."""
    sinks: tuple[int, ...]
    """Input ports."""


@dataclass
class Routes:
    paths: list[list[list[int] | None]]
    """Per net, per sink: [source, in, out, ..., sink], or None when unreached."""
    overused: list[int] = field(default_factory=list)
    """Ports carrying more than one net after the last pass."""
    passes: int = 0

    @property
    def ok(self) -> bool:
        return not self.overused and all(p is not None for net in self.paths for p in net)


class _Searcher:
    def __init__(self, graph: AdgGraph):
        self.graph = graph
        self.wires: dict[int, list[int]] = {}
        for e in graph.edges:
            self.wires.setdefault(e.src, []).append(e.dst)
        self.routing = {n.id for n in graph.nodes if n.resource_class == "routing"}

    def next_ports(self, port: int) -> list[int]:
        if self.graph.ports[port].direction == "out":
            return self.wires.get(port, [])
        return self.graph.hops.get(port, [])

    def is_input(self, port: int) -> bool:
        return self.graph.ports[port].direction == "in"

    def is_routing(self, port: int) -> bool:
        return self.graph.ports[port].node in self.routing


def route(graph: AdgGraph, nets: Sequence[Net], passes: int = PASSES) -> Routes:
    """Route every net; negotiated congestion for at most `passes` passes."""
    search = _Searcher(graph)
    history = [0.0] * len(graph.ports)
    present = PRESENT_FACTOR
    users: list[set[int]] = [set() for _ in graph.ports]
    result = Routes([])
    for n in range(1, passes + 1):
        for s in users:
            s.clear()
        result = Routes([], passes=n)
        for index, net in enumerate(nets):
            result.paths.append(_route_net(search, net, index, users, history, present))
        result.overused = [p for p, s in enumerate(users) if len(s) > 1]
        if result.ok:
            return result
        for p in result.overused:
            history[p] += HISTORY_FACTOR
        present *= PRESENT_GROWTH
    return result


def _route_net(search: _Searcher, net: Net, index: int, users: list[set[int]],
               history: list[float], present: float) -> list[list[int] | None]:
    parent: dict[int, int | None] = {net.source: None}
    users[net.source].add(index)
    paths: list[list[int] | None] = []
    for sink in net.sinks:
        # the tree's branch points: the inputs of its routing nodes (a switch
        # broadcasts; a wire from an output, even a switch output into a PE's
        # input muxes, feeds one consumer), or the source alone at first
        starts = [p for p in parent if search.is_routing(p) and search.is_input(p)] \
            if len(parent) > 1 else [net.source]
        reached = _search(search, starts, sink, parent, index, users, history, present)
        if reached is None:
            paths.append(None)
            continue
        for port, prev in reached.items():
            parent[port] = prev
            users[port].add(index)
        paths.append(_path_to(parent, sink))
    return paths


def _search(search: _Searcher, starts: list[int], sink: int, tree: dict[int, int | None],
            index: int, users: list[set[int]], history: list[float],
            present: float) -> dict[int, int] | None:
    """Least-cost path from the tree to `sink`; returns the new ports' parents."""
    frontier = [(0.0, p) for p in sorted(starts)]
    heapq.heapify(frontier)
    best: dict[int, float] = {p: 0.0 for p in starts}
    came: dict[int, int] = {}
    while frontier:
        cost, port = heapq.heappop(frontier)
        if cost > best.get(port, float("inf")):
            continue
        if port == sink:
            new: dict[int, int] = {}
            while port not in tree:
                new[port] = came[port]
                port = came[port]
            return new
        for nxt in search.next_ports(port):
            if nxt in tree:
                continue  # a tree never re-enters itself
            is_in = search.graph.ports[nxt].direction == "in"
            if is_in and nxt != sink and not search.is_routing(nxt):
                continue  # a dead end: nothing transits a unit or a memory
            others = len(users[nxt] - {index})
            step = (1.0 + history[nxt]) * (1.0 + present * others)
            total = cost + step
            if total < best.get(nxt, float("inf")):
                best[nxt] = total
                came[nxt] = port
                heapq.heappush(frontier, (total, nxt))
    return None


def _path_to(parent: dict[int, int | None], sink: int) -> list[int]:
    path = [sink]
    while (prev := parent[path[-1]]) is not None:
        path.append(prev)
    return path[::-1]


__all__ = ["Net", "Routes", "route"]
