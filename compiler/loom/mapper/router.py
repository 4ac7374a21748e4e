"""Routing by negotiated congestion (PathFinder) over the flattened ADG's ports
(docs/loom-fabric-notes.md section 3.4).

A net is one DFG value: a source output port and the input ports of its
consumers. Each sink is reached by a least-cost search (A*, estimated by
the step count back from the sink) from the net's tree so far, so a net
is one broadcast tree. Moves: an output port to the
input ports its wires reach; a routing node's input to the outputs its
connectivity allows. Only routing nodes fan out (LOOM's C11): a source that
is not a routing output (module input, unit, memory) starts the tree, and
later sinks branch only at input ports of routing nodes already in the tree
(the spec's rule: fanout happens at a switch input, which then drives
several switch outputs; a PE input mux never broadcasts).

Capacity (C4): a port carries one net; a temporal PE's unit port carries
one a slot that uses the unit (their tags keep them apart). Entering port p costs
(1 + history[p]) * (1 + present * users[p]) where users counts the other
nets on p. Each pass rips up and reroutes one net at a time against the
others' current routes; after it every overused port's history grows and
the present factor is multiplied, until no port is shared or the pass budget
ends (or STALL_PASSES passes bring no fewer overused ports). Ties break
on the port id, so the result depends on nothing but the
inputs: the same inputs give the same routes.
"""

from __future__ import annotations

import heapq
from collections import deque
from collections.abc import Sequence
from dataclasses import dataclass, field

from loom.mapper.adg_graph import AdgGraph
from loom.progress import Tick, quiet

PASSES = 40
STALL_PASSES = 12
"""Passes without fewer overused ports before negotiation gives up."""
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
    history: list[float] = field(default_factory=list)
    """Per port: the history cost negotiation left on it (HISTORY_FACTOR per
    pass that ended with the port shared): where the nets crowded."""

    @property
    def ok(self) -> bool:
        return not self.overused and all(p is not None for net in self.paths for p in net)


UNREACHED = -1
"""A port's step count to a sink it cannot reach."""


class Searcher:
    """The port graph in flat lists, and per sink the step counts back to it
    (the A* estimate: every step costs at least 1, so it never overestimates;
    a port with no count cannot reach the sink and is never expanded)."""

    def __init__(self, graph: AdgGraph):
        self.graph = graph
        count = len(graph.ports)
        routing = {n.id for n in graph.nodes if n.resource_class == "routing"}
        self.input = [p.direction == "in" for p in graph.ports]
        self.routing = [p.node in routing for p in graph.ports]
        # a temporal PE's unit ports: the unit's slots share them, one tag each
        # (checks.py's C4 and C5 judge the tags once routed)
        self.shared = [graph.nodes[p.node].slots > 0 for p in graph.ports]
        self.succ: list[list[int]] = [[] for _ in range(count)]
        self.pred: list[list[int]] = [[] for _ in range(count)]
        for e in graph.edges:
            if e.dst not in self.succ[e.src]:
                self.succ[e.src].append(e.dst)
                self.pred[e.dst].append(e.src)
        for i, outs in graph.hops.items():
            for o in outs:
                self.succ[i].append(o)
                self.pred[o].append(i)
        self.to_sink: dict[int, list[int]] = {}
        self.to_feeders: dict[tuple[int, ...], list[int]] = {}

    def next_ports(self, port: int) -> list[int]:
        return self.succ[port]

    def is_input(self, port: int) -> bool:
        return self.input[port]

    def is_routing(self, port: int) -> bool:
        return self.routing[port]

    def steps_to(self, sink: int) -> list[int]:
        """Per port, the fewest steps to `sink` (through routing nodes only),
        UNREACHED where it cannot reach it (a list: a 16x16's ports number
        tens of thousands, and a BFS per sink filling a dict cost seconds)."""
        if sink in self.to_sink:
            return self.to_sink[sink]
        if self.routing[sink]:
            dist = self._steps_from([sink], 0)
        else:
            # a unit's or a memory's input: nothing routes through it, so its
            # counts are its feeders' plus one, and the units one PE input
            # feeds share them (half the searches of a 16x16 map)
            feeders = tuple(sorted(self.pred[sink]))
            if (base := self.to_feeders.get(feeders)) is None:
                base = self.to_feeders[feeders] = self._steps_from(list(feeders), 1)
            dist = list(base)
            if dist[sink] != UNREACHED:   # the sink feeds itself: not shared
                dist = self._steps_from([sink], 0)
            dist[sink] = 0
        self.to_sink[sink] = dist
        return dist

    def _steps_from(self, starts: list[int], step: int) -> list[int]:
        """Breadth-first back from `starts` (at `step` steps); a start is
        expanded when it is a routing port or the search's sink (step 0)."""
        dist = [UNREACHED] * len(self.succ)
        for port in starts:
            dist[port] = step
        work = deque(starts)
        pred, routing = self.pred, self.routing
        while work:
            port = work.popleft()
            if not routing[port] and dist[port]:
                continue  # a source: nothing transits a unit or a memory
            further = dist[port] + 1
            for prev in pred[port]:
                if dist[prev] == UNREACHED:
                    dist[prev] = further
                    work.append(prev)
        return dist


def searcher(graph: AdgGraph) -> Searcher:
    """The search tables of `graph`, to share between route calls on it."""
    return Searcher(graph)


def route(graph: AdgGraph, nets: Sequence[Net], passes: int = PASSES,
          search: Searcher | None = None, tick: Tick = quiet) -> Routes:
    """Route every net; negotiated congestion for at most `passes` passes
    (`tick` hears which pass and net)."""
    search = search or Searcher(graph)
    history = [0.0] * len(graph.ports)
    present = PRESENT_FACTOR
    users: list[set[int]] = [set() for _ in graph.ports]
    result = Routes([])
    fewest, since = len(graph.ports) + 1, 0
    held: list[list[list[int] | None]] = [[] for _ in nets]
    for n in range(1, passes + 1):
        shared = f", {len(result.overused)} shared ports after the last" if n > 1 else ""
        result = Routes([], passes=n, history=history)
        for index, net in enumerate(nets):
            tick(f"routing pass {n} (at most {passes}), net {index + 1} of {len(nets)}{shared}")
            # rip up this net alone: it negotiates against every other net's
            # current route (PathFinder), not against an emptied fabric
            for path in held[index]:
                for p in path or []:
                    users[p].discard(index)
            held[index] = _route_net(search, net, index, users, history, present)
            result.paths.append(held[index])
        result.overused = [p for p, s in enumerate(users) if len(s) > 1]
        if result.ok:
            return result
        fewest, since = (len(result.overused), 0) if len(result.overused) < fewest else \
            (fewest, since + 1)
        if since >= STALL_PASSES:
            return result  # negotiation has stopped making progress
        for p in result.overused:
            history[p] += HISTORY_FACTOR
        present *= PRESENT_GROWTH
    return result


def _route_net(search: Searcher, net: Net, index: int, users: list[set[int]],
               history: list[float], present: float) -> list[list[int] | None]:
    parent: dict[int, int | None] = {net.source: None}
    if not search.shared[net.source]:
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
            if not search.shared[port]:
                users[port].add(index)
        paths.append(_path_to(parent, sink))
    return paths


def _search(search: Searcher, starts: list[int], sink: int, tree: dict[int, int | None],
            index: int, users: list[set[int]], history: list[float],
            present: float) -> dict[int, int] | None:
    """Least-cost path from the tree to `sink` (A*); returns the new ports' parents."""
    estimate = search.steps_to(sink)
    frontier = [(float(estimate[p]), 0.0, p) for p in sorted(starts)
                if estimate[p] != UNREACHED]
    heapq.heapify(frontier)
    best: dict[int, float] = {p: 0.0 for p in starts}
    came: dict[int, int] = {}
    while frontier:
        _, cost, port = heapq.heappop(frontier)
        if cost > best.get(port, float("inf")):
            continue
        if port == sink:
            new: dict[int, int] = {}
            while port not in tree:
                new[port] = came[port]
                port = came[port]
            return new
        for nxt in search.next_ports(port):
            if nxt in tree or estimate[nxt] == UNREACHED:
                continue  # a tree never re-enters itself; nxt cannot reach the sink
            others = len(users[nxt]) - (index in users[nxt])
            total = cost + (1.0 + history[nxt]) * (1.0 + present * others)
            if total < best.get(nxt, float("inf")):
                best[nxt] = total
                came[nxt] = port
                heapq.heappush(frontier, (total + estimate[nxt], total, nxt))
    return None


def _path_to(parent: dict[int, int | None], sink: int) -> list[int]:
    path = [sink]
    while (prev := parent[path[-1]]) is not None:
        path.append(prev)
    return path[::-1]


__all__ = ["Net", "Routes", "Searcher", "route", "searcher"]
