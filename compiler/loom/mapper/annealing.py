"""Simulated-annealing refinement of a placement (LOOM's SA stage: T0 = 100
scaled to the cost, geometric cooling), with the route estimate as cost.

A move picks a node (seeded) and one of its options. A free resource is
taken; a resource held by another node is swapped when that node has an
option on the mover's old resource, else the move is void. A move that
lowers the cost is kept; one that raises it by d is kept with probability
exp(-d / T). The budget is an iteration count, never the clock, and all
randomness comes from the caller's random.Random: the same inputs and seed
give the same placement.
"""

from __future__ import annotations

import math
import random

from loom.mapper.placement import Option, Placement, Problem, edge_cost, node_cost, total_cost

ITERATIONS_PER_NODE = 200
MIN_ITERATIONS = 2000
FINAL_TEMPERATURE = 0.05
DESCENT_PASSES = 4


def _local_cost(problem: Problem, placement: Placement, nodes: tuple[int, ...],
                incident: dict[int, list[int]]) -> float:
    edges = {e for n in nodes for e in incident.get(n, [])}
    return (sum(edge_cost(problem, placement, e) for e in edges)
            + sum(node_cost(problem, placement, n) for n in nodes))


def anneal(problem: Problem, placement: Placement, rng: random.Random,
           iterations: int | None = None) -> Placement:
    """Refine `placement` in place; returns the best placement seen."""
    movable = [n for n in problem.placeable if len(problem.options[n]) > 1
               or placement.chosen[n] is None and problem.options[n]]
    if not movable:
        return placement
    incident: dict[int, list[int]] = {}
    for e in problem.sw.edges:
        incident.setdefault(e.src, []).append(e.id)
        incident.setdefault(e.dst, []).append(e.id)
    budget = iterations if iterations is not None else max(
        MIN_ITERATIONS, ITERATIONS_PER_NODE * len(movable))
    cost = total_cost(problem, placement)
    best_cost, best = cost, list(placement.chosen)
    wires = sum(edge_cost(problem, placement, e.id) for e in problem.sw.edges)
    temperature = max(1.0, wires / max(1, len(problem.sw.edges)))  # about one edge's estimate
    cooling = (FINAL_TEMPERATURE / temperature) ** (1.0 / budget)
    for _ in range(budget):
        delta = _try_move(problem, placement, rng, movable, incident, temperature)
        if delta is not None:
            cost += delta
            if cost < best_cost - 1e-9:
                best_cost, best = cost, list(placement.chosen)
        temperature *= cooling
    result = Placement.empty(len(best))
    for n, o in enumerate(best):
        result.assign(n, o)
    descend(problem, result, incident)
    return result


def descend(problem: Problem, placement: Placement, incident: dict[int, list[int]],
            passes: int = DESCENT_PASSES) -> None:
    """Greedy moves and swaps that strictly lower the cost, nodes and options in
    order: settles the ties annealing leaves (preferences)."""
    for _ in range(passes):
        improved = False
        for node in problem.placeable:
            for option in problem.options[node]:
                improved = _improve(problem, placement, incident, node, option) or improved
        if not improved:
            return


def _improve(problem: Problem, placement: Placement, incident: dict[int, list[int]],
             node: int, option: Option) -> bool:
    current = placement.chosen[node]
    if option is current:
        return False
    other = placement.holder.get(option.resource)
    if other == node:
        other = None
    back = None
    if other is not None:
        if current is None:
            return False
        back = next((o for o in problem.options[other] if o.resource == current.resource), None)
        if back is None:
            return False
    nodes = (node,) if other is None else (node, other)
    previous = {n: placement.chosen[n] for n in nodes}
    before = _local_cost(problem, placement, nodes, incident)
    for n in nodes:
        placement.assign(n, None)
    if other is not None:
        placement.assign(other, back)
    placement.assign(node, option)
    if _local_cost(problem, placement, nodes, incident) < before - 1e-9:
        return True
    for n in nodes:
        placement.assign(n, None)
    for n in nodes:
        placement.assign(n, previous[n])
    return False


def _try_move(problem: Problem, placement: Placement, rng: random.Random, movable: list[int],
              incident: dict[int, list[int]], temperature: float) -> float | None:
    """One move; the cost change when kept, None when void or rejected."""
    node = rng.choice(movable)
    old = placement.chosen[node]
    new = rng.choice(problem.options[node])
    if new is old:
        return None
    other = placement.holder.get(new.resource)
    if other == node:
        other = None  # another option inside the node's own PE
    swap = None
    if other is not None:
        if old is None:
            return None
        back = [o for o in problem.options[other] if o.resource == old.resource]
        if not back:
            return None
        swap = rng.choice(back)
    nodes = (node,) if other is None else (node, other)
    before = _local_cost(problem, placement, nodes, incident)
    previous = {n: placement.chosen[n] for n in nodes}
    placement.assign(node, None)
    if other is not None:
        placement.assign(other, None)
        placement.assign(other, swap)
    placement.assign(node, new)
    delta = _local_cost(problem, placement, nodes, incident) - before
    if delta <= 0 or rng.random() < math.exp(-delta / temperature):
        return delta
    for n in nodes:
        placement.assign(n, None)
    for n in nodes:
        placement.assign(n, previous[n])
    return None


__all__ = ["anneal"]
