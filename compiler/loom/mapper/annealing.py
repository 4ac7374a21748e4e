"""Simulated-annealing refinement of a placement (LOOM's SA stage: T0 = 100
scaled to the cost, geometric cooling), with the route estimate as cost.

A move picks a node (seeded) and one of its options, drawn within a window
around the node's site that shrinks as the temperature falls (to LOOM's
move radius 3). A free resource is
taken; a resource held by another node is swapped when that node has an
option on the mover's old resource (an unplaced mover pushes the holder
onto a free resource of its own), else the move is void. A move that
lowers the cost is kept; one that raises it by d is kept with probability
exp(-d / T). The budget is an iteration count, never the clock, and all
randomness comes from the caller's random.Random: the same inputs and seed
give the same placement.
"""

from __future__ import annotations

import math
import random
from collections.abc import Callable
from dataclasses import dataclass

from loom.mapper.placement import Option, Placement, Problem, edge_cost, node_cost, total_cost
from loom.progress import Tick, quiet

ITERATIONS_PER_NODE = 200
MIN_ITERATIONS = 2000
FINAL_TEMPERATURE = 0.05
DESCENT_PASSES = 4
MOVE_RADIUS = 3
"""LOOM's SA move radius (hops): the window the coldest moves stay within."""
TICK_EVERY = 1024
"""Moves between two status updates."""
DRAWS = 8
"""Draws of an option inside the window before a far one is taken."""


def _local_cost(problem: Problem, placement: Placement, nodes: tuple[int, ...],
                incident: dict[int, list[int]]) -> float:
    edges = {e for n in nodes for e in incident.get(n, [])}
    return (sum(edge_cost(problem, placement, e) for e in edges)
            + sum(node_cost(problem, placement, n) for n in nodes))


def anneal(problem: Problem, placement: Placement, rng: random.Random,
           iterations: int | None = None, heat: float = 1.0, tick: Tick = quiet) -> Placement:
    """Refine `placement` in place; returns the best placement seen. `heat`
    scales the starting temperature (1: about one edge's estimate); `tick`
    hears how far it got."""
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
    temperature = heat * max(1.0, wires / max(1, len(problem.sw.edges)))
    cooling = (FINAL_TEMPERATURE / temperature) ** (1.0 / budget)
    # hot moves reach a few edge lengths; the window shrinks with the
    # temperature to LOOM's radius, so cold moves are local refinements
    # instead of far jumps the temperature no longer accepts
    start, widest = temperature, 2 * temperature + 10
    for i in range(budget):
        if i % TICK_EVERY == 0:
            tick(f"annealing, move {i:,} of {budget:,}")
        radius = max(MOVE_RADIUS, widest * temperature / start)
        delta = _try_move(problem, placement, rng, movable, incident, temperature, radius)
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
    order: settles the ties annealing leaves (preferences). A unit tries the
    other bindings of its own PE (swapped operands, other join inputs, another
    unit of the PE); a boundary node every module port (first-fit order)."""
    for _ in range(passes):
        improved = False
        for node in problem.placeable:
            current = placement.chosen[node]
            options = problem.options[node]
            if current is not None and current.candidate is not None:
                options = problem.by_resource(node).get(current.resource, [])
            for option in options:
                improved = _improve(problem, placement, incident, node, option) or improved
        if not improved:
            return


@dataclass(frozen=True)
class _Move:
    """`node` onto `option`; the node holding that resource, if any, onto `back`."""

    node: int
    option: Option
    other: int | None
    back: Option | None

    @property
    def nodes(self) -> tuple[int, ...]:
        return (self.node,) if self.other is None else (self.node, self.other)


def _move_to(problem: Problem, placement: Placement, node: int, option: Option,
             pick: Callable[[list[Option]], Option]) -> _Move | None:
    """The move of `node` onto `option` (a swap when its resource is held), or
    None when void; `pick` chooses the holder's way back."""
    current = placement.chosen[node]
    if option is current:
        return None
    holders = {placement.holder.get(key) for key in option.resources} - {None, node}
    if not holders:  # free, or another unit of the node's own PE
        return _Move(node, option, None, None)
    other = placement.holder.get(option.resource)
    if len(holders) > 1 or other is None or option.shares or (current and current.shares):
        return None  # a shared memory's lanes move only onto free lanes
    if current is None:  # an unplaced node pushes the holder onto a free resource
        back = [o for o in problem.options[other] if placement.free(o)]
    else:
        back = [o for o in problem.by_resource(other).get(current.resource, []) if not o.shares]
    return _Move(node, option, other, pick(back)) if back else None


def _apply(problem: Problem, placement: Placement, move: _Move,
           incident: dict[int, list[int]]) -> tuple[float, dict[int, Option | None]]:
    """Make the move; (cost change, what to restore)."""
    before = _local_cost(problem, placement, move.nodes, incident)
    previous = {n: placement.chosen[n] for n in move.nodes}
    for n in move.nodes:
        placement.assign(n, None)
    if move.other is not None:
        placement.assign(move.other, move.back)
    placement.assign(move.node, move.option)
    return _local_cost(problem, placement, move.nodes, incident) - before, previous


def _undo(placement: Placement, previous: dict[int, Option | None]) -> None:
    for n in previous:
        placement.assign(n, None)
    for n, o in previous.items():
        placement.assign(n, o)


def _improve(problem: Problem, placement: Placement, incident: dict[int, list[int]],
             node: int, option: Option) -> bool:
    move = _move_to(problem, placement, node, option, lambda back: back[0])
    if move is None:
        return False
    delta, previous = _apply(problem, placement, move, incident)
    if delta < -1e-9:
        return True
    _undo(placement, previous)
    return False


def _nearby(problem: Problem, placement: Placement, node: int, rng: random.Random,
            radius: float) -> Option:
    """A random option of `node` within `radius` hops of its site (its own PE
    included) when one turns up in DRAWS draws, else the last drawn."""
    options = problem.options[node]
    current = placement.chosen[node]
    if current is None:
        return rng.choice(options)
    for _ in range(DRAWS):
        o = rng.choice(options)
        if problem.distances.between(current.site, o.site) <= radius or o.site == current.site:
            return o
    return o


def _try_move(problem: Problem, placement: Placement, rng: random.Random, movable: list[int],
              incident: dict[int, list[int]], temperature: float, radius: float) -> float | None:
    """One move; the cost change when kept, None when void or rejected."""
    node = rng.choice(movable)
    move = _move_to(problem, placement, node, _nearby(problem, placement, node, rng, radius),
                    rng.choice)
    if move is None:
        return None
    delta, previous = _apply(problem, placement, move, incident)
    if delta <= 0 or rng.random() < math.exp(-delta / temperature):
        return delta
    _undo(placement, previous)
    return None


__all__ = ["anneal"]
