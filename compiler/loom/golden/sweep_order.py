"""The order of a graph's sweep: blocks of nodes, upstream blocks first.

A block is a strongly connected component of the graph (a loop's recurrence,
a memory with its loads) or a run of acyclic nodes; blocks come in
topological order, so one sweep carries tokens from the graph's inputs to
its outputs, and inside a block nodes come in depth-first order (a loop body
before its back edge). golden/codegen.py repeats a block while its back
edges feed it, and skips a block no token reached.
"""

from __future__ import annotations

from loom.golden.graph import Graph
from loom.scc import strongly_connected

#: most acyclic nodes in one block: a block no token reached costs one test
RUN = 8


def successors(graph: Graph) -> list[list[int]]:
    """Per node (by position): the positions of the consumers of its outputs."""
    index = {id(n): i for i, n in enumerate(graph.nodes)}
    return [[index[id(ch.consumer)] for ch in n.outs if ch.consumer is not None]
            for n in graph.nodes]


def _postorder(succ: list[list[int]]) -> list[int]:
    """Depth-first postorder over all nodes, roots in program order."""
    seen = [False] * len(succ)
    order: list[int] = []
    for root in range(len(succ)):
        if seen[root]:
            continue
        seen[root] = True
        stack = [(root, iter(succ[root]))]
        while stack:
            v, it = stack[-1]
            for w in it:
                if not seen[w]:
                    seen[w] = True
                    stack.append((w, iter(succ[w])))
                    break
            else:
                stack.pop()
                order.append(v)
    return order


def blocks(graph: Graph) -> list[list[int]]:
    """The sweep's blocks of node positions (see the module docstring)."""
    succ = successors(graph)
    rank = {v: r for r, v in enumerate(reversed(_postorder(succ)))}
    out: list[list[int]] = []
    run: list[int] = []
    for comp in reversed(strongly_connected(list(range(len(succ))), dict(enumerate(succ)))):
        if len(comp) == 1 and comp[0] not in succ[comp[0]]:
            run.append(comp[0])
            if len(run) == RUN:
                out.append(run)
                run = []
            continue
        if run:
            out.append(run)
            run = []
        out.append(sorted(comp, key=rank.__getitem__))
    if run:
        out.append(run)
    return out
