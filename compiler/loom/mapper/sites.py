"""Distances between placement sites of the flattened ADG: the route
estimate placement minimizes (LOOM places by Manhattan distance on the
`pe_<r>_<c>` grid; hops on the graph need no naming convention and see
walls, one-way links and boundary sides as routing does).

A site is where a DFG node sits: a spatial PE (every unit of a PE shares its
ports), a memory, or a module input or output. dist(a, b) is the cost of
the cheapest directed path from an output of a to an input of b that passes
only through routing nodes, as a route must (nothing transits a unit or a
memory). A wire costs 1 plus the congestion of its two ports: with none,
dist counts ADG edges (hops); after a routing round that left ports shared,
the congestion is where the router's nets crowded (mapping.py), so that
placement sees those links as long. Distances from a site are computed on
first use.
"""

from __future__ import annotations

import heapq
from collections.abc import Sequence
from dataclasses import dataclass, field

from loom.mapper.adg_graph import AdgGraph

UNREACHABLE = 1000
"""The estimate of a route that cannot exist (keeps costs finite and ordered)."""


def site_of(graph: AdgGraph, node: int) -> str:
    n = graph.nodes[node]
    return f"pe:{n.pe}" if n.pe else f"node:{node}"


@dataclass
class SiteDistances:
    graph: AdgGraph
    succ: dict[str, list[tuple[str, float]]] = field(default_factory=dict)
    """Site -> (next site, the cheapest wire's cost), in ADG edge order."""
    routing: set[str] = field(default_factory=set)
    cache: dict[str, dict[str, float]] = field(default_factory=dict)
    unit: bool = False
    """Every wire costs 1."""

    @classmethod
    def of(cls, graph: AdgGraph, congestion: Sequence[float] = ()) -> SiteDistances:
        """`congestion`: per port, what crossing it adds to a wire's cost of 1
        (empty: none)."""
        d = cls(graph)
        cost: dict[tuple[str, str], float] = {}
        for e in graph.edges:
            a = site_of(graph, graph.ports[e.src].node)
            b = site_of(graph, graph.ports[e.dst].node)
            w = 1.0 + (congestion[e.src] + congestion[e.dst] if congestion else 0.0)
            cost[(a, b)] = min(w, cost.get((a, b), w))
        for (a, b), w in cost.items():
            d.succ.setdefault(a, []).append((b, w))
        d.unit = all(w == 1.0 for w in cost.values())
        d.routing = {site_of(graph, n.id) for n in graph.nodes
                     if n.resource_class == "routing"}
        return d

    def _from(self, a: str) -> dict[str, float]:
        """Dijkstra from `a`; ties pop in site-name order (deterministic).
        Breadth-first where every wire costs 1 (no congestion yet): the same
        distances, without a heap."""
        if a in self.cache:
            return self.cache[a]
        if self.unit:
            self.cache[a] = self._hops_from(a)
            return self.cache[a]
        dist: dict[str, float] = {}
        work = [(w, b) for b, w in self.succ.get(a, [])]
        heapq.heapify(work)
        while work:
            d, b = heapq.heappop(work)
            if b in dist:
                continue
            dist[b] = d
            if b in self.routing:
                for c, w in self.succ.get(b, []):
                    if c not in dist:
                        heapq.heappush(work, (d + w, c))
        self.cache[a] = dist
        return dist

    def _hops_from(self, a: str) -> dict[str, float]:
        dist: dict[str, float] = {}
        level = [b for b, _ in self.succ.get(a, [])]
        d = 1.0
        while level:
            nxt = []
            for b in level:
                if b in dist:
                    continue
                dist[b] = d
                if b in self.routing:
                    nxt += [c for c, _ in self.succ.get(b, []) if c not in dist]
            level, d = nxt, d + 1.0
        return dist

    def between(self, a: str, b: str) -> float:
        # the cache first: annealing asks this hundreds of thousands of times
        dist = self.cache.get(a)
        return (dist if dist is not None else self._from(a)).get(b, UNREACHABLE)


__all__ = ["SiteDistances", "UNREACHABLE", "site_of"]
