"""Hop distances between placement sites of the flattened ADG: the route
estimate placement minimizes (LOOM places by Manhattan distance on the
`pe_<r>_<c>` grid; hops on the graph need no naming convention and see
walls, one-way links and boundary sides as routing does).

A site is where a DFG node sits: a spatial PE (every unit of a PE shares its
ports), a memory, or a module input or output. dist(a, b) counts the ADG
edges of the shortest directed path from an output of a to an input of b
that passes only through routing nodes, as a route must (nothing transits
a unit or a memory). Distances from a site are computed on first use.
"""

from __future__ import annotations

from collections import deque
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
    succ: dict[str, list[str]] = field(default_factory=dict)
    routing: set[str] = field(default_factory=set)
    cache: dict[str, dict[str, int]] = field(default_factory=dict)

    @classmethod
    def of(cls, graph: AdgGraph) -> SiteDistances:
        d = cls(graph)
        seen: set[tuple[str, str]] = set()
        for e in graph.edges:
            a = site_of(graph, graph.ports[e.src].node)
            b = site_of(graph, graph.ports[e.dst].node)
            if (a, b) not in seen:
                seen.add((a, b))
                d.succ.setdefault(a, []).append(b)
        d.routing = {site_of(graph, n.id) for n in graph.nodes
                     if n.resource_class == "routing"}
        return d

    def _from(self, a: str) -> dict[str, int]:
        if a in self.cache:
            return self.cache[a]
        dist: dict[str, int] = {}
        work = deque((b, 1) for b in self.succ.get(a, []))
        while work:
            b, d = work.popleft()
            if b in dist:
                continue
            dist[b] = d
            if b in self.routing:
                work.extend((c, d + 1) for c in self.succ.get(b, []) if c not in dist)
        self.cache[a] = dist
        return dist

    def between(self, a: str, b: str) -> int:
        return self._from(a).get(b, UNREACHABLE)


__all__ = ["SiteDistances", "UNREACHABLE", "site_of"]
