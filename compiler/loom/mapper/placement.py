"""Placement: where each DFG node sits, and its constructive first guess.

Every DFG node (dfg_graph.py) has options, each a hardware node plus the
port binding that hosts it: an op a function unit (matching.candidates,
commutative swaps and join masks included), a memory a hardware memory of
its kind (the software/hardware family order bridged), a scalar argument a
module input and a result a module output (LOOM's fit rule: the software
width fits the port's; tagged ports carry no scalars). An option occupies
a resource: a whole spatial PE for an op (LOOM's C8: one active unit per
PE), the node itself otherwise.

The constructive placement visits nodes in topological order (cycles
broken at the lowest node id) and gives each the free option nearest its
placed neighbours (sites.py's hop estimate); ties go to a seeded random
pick. annealing.py refines the result. Nothing here reads the clock or
global random state: the same inputs and seed give the same placement.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from dataclasses import dataclass, field, replace

from xdsl.ir import Attribute, Operation

from loom.fabric.adg_view import AdgView
from loom.mapper.adg_graph import AdgGraph, AdgNode
from loom.mapper.bridges import Lane, families, port_links, request_lanes, response_lanes
from loom.mapper.contraction import FOLDED, Contraction, contract, identity
from loom.mapper.sites import UNREACHABLE, SiteDistances, site_of
from loom.mapper.dfg_graph import DfgGraph, DfgNode
from loom.mapper.dfg_ops import attr_int
from loom.mapper.inventory import HwMemory, hw_memories, hw_units
from loom.mapper.matching import Candidate, UnitKinds
from loom.mapper.memory_binding import memory_candidates
from loom.mapper.port_types import boundary_fits

UNPLACED = 10 * UNREACHABLE
"""Cost of a node left without a host: worse than any placement."""
PREFERENCE = 1e-3


@dataclass(frozen=True)
class Option:
    """One way to host a DFG node."""

    hw_node: int
    resource: str
    """What the option occupies exclusively (a PE or the node; a shared
    memory's first lane)."""
    site: str
    in_ports: tuple[tuple[int, int], ...]
    """(software operand, hardware input port); memref operands included."""
    out_ports: tuple[tuple[int, int], ...]
    """(software result, hardware output port)."""
    candidate: Candidate | None = None
    """An op's unit binding and payload fields."""
    bridges: tuple[tuple[int, tuple[int, ...]], ...] = ()
    """A memory's fabric-side lane port -> its fixed bridge path (bridges.py)."""
    preference: float = 0.0
    """A tie-break far below one hop: LOOM's choice among equals (first-fit
    boundary binding in argument order; a unit's first binding: unswapped,
    the lowest join inputs)."""
    in_sites: tuple[str, ...] = ()
    out_sites: tuple[str, ...] = ()
    """A memory's site per software operand and result: where the lane's routes
    end or start (its add_tag or del_tag when bridged: the lanes of one memory
    enter the fabric at different switches); empty: `site` for every port."""
    shares: tuple[str, ...] = ()
    """More that it occupies with `resource`: the further lanes and a region
    slot of a memory with several regions (its software memories share it
    lane by lane, one region each)."""
    lanes: tuple[int, int] = (0, 0)
    """A memory's lanes [first, end): its region's lane range."""
    slot: int = -1
    """A temporal PE's instruction slot the op takes (-1: a spatial PE's
    op, which takes the whole PE)."""

    @property
    def resources(self) -> tuple[str, ...]:
        return (self.resource, *self.shares)

    def in_site(self, operand: int) -> str:
        return self.in_sites[operand] if self.in_sites else self.site

    def out_site(self, result: int) -> str:
        return self.out_sites[result] if self.out_sites else self.site

    def in_port(self, operand: int) -> int | None:
        return dict(self.in_ports).get(operand)

    def out_port(self, result: int) -> int | None:
        return dict(self.out_ports).get(result)


@dataclass
class Problem:
    """What placement works on: the DFG, the ADG and each node's options."""

    sw: DfgGraph
    """The contracted view placement and routing work on (contraction.py)."""
    adg: AdgGraph
    options: list[list[Option]]
    """Per DFG node; empty for memref arguments (bound, not placed) and
    folded constants (placed with their host)."""
    distances: SiteDistances
    """Hops between sites: the window annealing draws its moves in."""
    contraction: Contraction
    """The view's folds and the DFG it was made from (`sw` is its graph)."""
    unit_definitions: dict[tuple[str, int], Operation] = field(default_factory=dict)
    """(PE, opcode) -> the function_unit definition."""
    weights: list[float] = field(default_factory=list)
    """Per DFG edge: how much its route estimate counts (routing raises it)."""
    estimate: SiteDistances = field(init=False)
    """The route estimate between sites: `distances` until a routing round
    leaves ports shared, then weighted by where its nets crowded (mapping.py)."""

    def __post_init__(self) -> None:
        if not self.weights:
            self.weights = [1.0] * len(self.sw.edges)
        self.estimate = self.distances
        self._by_resource: dict[int, dict[str, list[Option]]] = {}

    def by_resource(self, node: int) -> dict[str, list[Option]]:
        """A node's options grouped by the resource they occupy (built on first use)."""
        if node not in self._by_resource:
            groups: dict[str, list[Option]] = {}
            for o in self.options[node]:
                groups.setdefault(o.resource, []).append(o)
            self._by_resource[node] = groups
        return self._by_resource[node]

    @property
    def placeable(self) -> list[int]:
        return [n.id for n in self.sw.nodes if not n.is_memref_input and n.kind != FOLDED]

    @property
    def dfg(self) -> DfgGraph:
        """The DFG as dfg_graph numbers it (reports read this, not the view)."""
        return self.contraction.dfg

    def host_of(self, node: int) -> int:
        """The node whose option places DFG node `node` (itself unless folded)."""
        return self.contraction.host_of(node)


# --- options --------------------------------------------------------------------------


def _module_port_types(view: AdgView) -> tuple[list[Attribute], list[Attribute]]:
    return [a.type for a in view.args], [v.type for v in view.results]


def _boundary_options(node: DfgNode, adg: AdgGraph, taken: set[int],
                      types: tuple[list[Attribute], list[Attribute]]) -> list[Option]:
    """Module ports for a scalar argument (or result); LOOM binds first-fit in
    order, so the first free fitting port (added to `taken`) is preferred."""
    assert node.value is not None
    kind = "module_in" if node.kind == "input" else "module_out"
    ports = [n for n in adg.nodes if n.kind == kind and boundary_fits(
        node.value.type, (types[0] if kind == "module_in" else types[1])[n.index])]
    first = next((n.id for n in ports if n.id not in taken), None)
    if first is not None:
        taken.add(first)
    found: list[Option] = []
    for n in ports:
        pref = 0.0 if n.id == first else PREFERENCE * (1 + abs(n.id - (first or 0)))
        if kind == "module_in":
            found.append(Option(n.id, f"node:{n.id}", site_of(adg, n.id), (),
                                ((0, n.outputs[0]),), preference=pref))
        else:
            found.append(Option(n.id, f"node:{n.id}", site_of(adg, n.id), ((0, n.inputs[0]),),
                                (), preference=pref))
    return found


def _unit_options(found_candidates: list[Candidate], adg: AdgGraph,
                  fu_node: dict[tuple[str, int], AdgNode], repeats: bool) -> list[Option]:
    """A node's options on the units of its candidates; `repeats`: the op
    may fire more than once an invocation (_repeating), so it takes a
    temporal PE's unit alone."""
    found: list[Option] = []
    rank: dict[int, int] = {}
    for c in found_candidates:
        n = fu_node[(c.pe, c.opcode)]
        ins = tuple((sw, n.inputs[k]) for k, sw in enumerate(c.inputs) if sw is not None)
        outs = tuple((sw, n.outputs[k]) for k, sw in enumerate(c.outputs) if sw is not None)
        rank[n.id] = rank.get(n.id, -1) + 1
        if not n.slots:
            found.append(Option(n.id, f"pe:{c.pe}", site_of(adg, n.id), ins, outs, c,
                                preference=PREFERENCE * rank[n.id]))
            continue
        # a temporal PE: one op a slot, lower slots first (LOOM's order); a
        # unit with runtime config (a predicate, a constant) hosts one op, as
        # the slots share its payload (LOOM's C9), the others one a slot.
        # An op that repeats takes its unit alone too: a unit is busy until
        # its result left, so a slot running ahead of one that shares its unit
        # (its results waiting for a consumer that waits for the other slot's)
        # would hold the unit for good (docs/fabric/temporal_pe.md, "Mapping")
        shares = (f"pe:{c.pe}#fu{c.opcode}",) if c.fields or repeats else ()
        found += [Option(n.id, f"pe:{c.pe}#slot{s}", site_of(adg, n.id), ins, outs, c,
                         preference=PREFERENCE * (rank[n.id] + s), shares=shares, slot=s)
                  for s in range(n.slots)]
    return found


def memory_lanes(op: Operation) -> tuple[int, int]:
    return attr_int(op, "ld_count") or 0, attr_int(op, "st_count") or 0


def _memory_options(op: Operation, adg: AdgGraph, memories: Sequence[HwMemory],
                    feeders: dict[int, list[int]], sinks: dict[int, list[int]]) -> list[Option]:
    """A software memory on a hardware memory of its kind with enough lanes per
    family (bridges.py): operands [memref], (st_data, st_addr) per store,
    ld_addr per load; results ld_data per load, st_done per store, ld_done
    per load. Hardware families: [memref], ld_addr, st_addr, st_data;
    ld_data, ld_done, st_done (docs/loom-fabric-notes.md 1.3). Software lane k
    takes hardware lane first + k: first is 0 on a memory of one region; on
    one of several (LOOM's numRegion), software memories share it, each on
    lanes [first, first + max(ld, st)) of every family and in one region
    slot, an option per first lane and slot, which occupies them."""
    ld, st = memory_lanes(op)
    width = max(ld, st, 1)
    by_name = {n.name: n for n in adg.nodes if n.resource_class == "memory"}
    found = []
    for hw in memory_candidates(op, memories):
        n = by_name.get(hw.name)
        if n is None:
            continue
        memref = [p for p in n.inputs if adg.ports[p].is_memref]
        data_in = [p for p in n.inputs if not adg.ports[p].is_memref]
        names_in, names_out = families(hw.ld_count > 0, hw.st_count > 0)
        fam_in = {f: request_lanes(adg, p, feeders) for f, p in zip(names_in, data_in)}
        fam_out = {f: response_lanes(adg, p, sinks) for f, p in zip(names_out, n.outputs)}
        lanes = {**fam_in, **fam_out}
        if hw.num_region == 1:
            option = _memory_option(op, adg, n.id, lanes, 0, memref, feeders, sinks)
            if option is not None:
                found.append(replace(option, resource=f"node:{n.id}", shares=()))
            continue
        # several regions: an option per first lane and region slot, so that no
        # more software memories than regions share it, on lanes of their own
        for first in range(max(hw.ld_count, hw.st_count) - width + 1):
            option = _memory_option(op, adg, n.id, lanes, first, memref, feeders, sinks)
            if option is not None:
                found += [replace(option, shares=(*option.shares, f"node:{n.id}:region{r}"))
                          for r in range(hw.num_region)]
    return found


def _memory_option(op: Operation, adg: AdgGraph, node: int, lanes: dict[str, list[Lane]],
                   first: int, memref: list[int], feeders: dict[int, list[int]],
                   sinks: dict[int, list[int]]) -> Option | None:
    """The option of software memory `op` on lanes from `first` of hardware
    memory `node`, or None when some family lacks a lane."""
    ld, st = memory_lanes(op)
    operands = ([("memref", 0)] if op.name == "handshake.extmemory" else []) + [
        x for s_ in range(st) for x in (("st_data", s_), ("st_addr", s_))] + [
        ("ld_addr", k) for k in range(ld)]
    results = [("ld_data", k) for k in range(ld)] + [("st_done", k) for k in range(st)] + [
        ("ld_done", k) for k in range(ld)]
    if any(first + k >= len(lanes.get(f, [])) for f, k in [*operands, *results] if f != "memref"):
        return None  # not enough lanes in some family
    ins = tuple((j, memref[0] if f == "memref" else lanes[f][first + k].port)
                for j, (f, k) in enumerate(operands))
    outs = tuple((r, lanes[f][first + k].port) for r, (f, k) in enumerate(results))
    bridges = tuple((lane.port, lane.bridge) for f, k in [*operands, *results]
                    if f != "memref" and len((lane := lanes[f][first + k]).bridge) > 1)
    end = first + max(ld, st, 1)
    keys = [f"node:{node}:lane{t}" for t in range(first, end)]
    return Option(node, keys[0], site_of(adg, node), ins, outs, bridges=bridges,
                  in_sites=_port_sites(adg, ins, feeders), out_sites=_port_sites(adg, outs, sinks),
                  shares=tuple(keys[1:]), lanes=(first, end))


def _port_sites(adg: AdgGraph, ports: tuple[tuple[int, int], ...],
                links: dict[int, list[int]]) -> tuple[str, ...]:
    """The site of each (software index, port) in index order: where a route
    to or from that lane ends. A bridged lane's port is its add_tag or
    del_tag's; a memory's own port, the routing node its one wire reaches
    (the memory as a whole is one site, but its lanes sit on different
    boundary switches: dot's load lane on chess-8x8-ext2-f is four rows from
    the memory's nearest port, which the estimate saw as three hops)."""
    sites = []
    for _, p in sorted(ports):
        node = adg.ports[p].node
        ends = links.get(p, [])
        if adg.nodes[node].resource_class == "memory" and len(ends) == 1 and \
                adg.nodes[adg.ports[ends[0]].node].resource_class == "routing":
            node = adg.ports[ends[0]].node
        sites.append(site_of(adg, node))
    return tuple(sites)


def _repeating(sw: DfgGraph) -> set[int]:
    """The nodes that may fire more than once an invocation: those a
    dataflow op (a loop's stream, carry, gate or invariant) reaches."""
    work = [n.id for n in sw.nodes if n.op is not None and n.op_name.startswith("dataflow.")]
    seen = set(work)
    while work:
        for e in sw.out_edges(work.pop()):
            if e.dst not in seen:
                seen.add(e.dst)
                work.append(e.dst)
    return seen


def build_problem(dfg: DfgGraph, adg: AdgGraph, view: AdgView, fold: bool = True) -> Problem:
    """Each node's options on the contracted view of `dfg` (without `fold`: the DFG itself)."""
    units = hw_units(view)
    kinds = UnitKinds.of(units)
    contraction = contract(dfg, kinds) if fold else identity(dfg, fallback=True)
    sw = contraction.graph
    memories = hw_memories(view)
    types = _module_port_types(view)
    options: list[list[Option]] = []
    taken: set[int] = set()
    feeders, sinks = port_links(adg)
    fu_node = {(n.pe, n.opcode): n for n in adg.nodes if n.kind == "fu"}
    repeating = _repeating(sw)
    for node in sw.nodes:
        if node.is_memref_input or node.kind == FOLDED:
            options.append([])
        elif node.kind in ("input", "output"):
            options.append(_boundary_options(node, adg, taken, types))
        elif node.kind == "memory":
            assert node.op is not None
            options.append(_memory_options(node.op, adg, memories, feeders, sinks))
        else:
            assert node.op is not None
            options.append(_unit_options(contraction.candidates(node, kinds), adg, fu_node,
                                         node.id in repeating))
    return Problem(sw, adg, options, SiteDistances.of(adg), contraction,
                   {(u.pe, u.opcode): u.definition for u in units})


# --- state and cost -------------------------------------------------------------------


@dataclass
class Placement:
    """A node -> option assignment (None: unplaced) and the resources it holds."""

    chosen: list[Option | None]
    holder: dict[str, int] = field(default_factory=dict)
    """Resource -> the node holding it."""

    @classmethod
    def empty(cls, n: int) -> Placement:
        return cls([None] * n)

    def copy(self) -> Placement:
        return Placement(list(self.chosen), dict(self.holder))

    def assign(self, node: int, option: Option | None) -> None:
        old = self.chosen[node]
        if old is not None:
            for key in old.resources:
                if self.holder.get(key) == node:
                    del self.holder[key]
        self.chosen[node] = option
        if option is not None:
            for key in option.resources:
                self.holder[key] = node

    def free(self, option: Option) -> bool:
        """Whether nothing holds what `option` occupies."""
        return all(key not in self.holder for key in option.resources)


def edge_cost(problem: Problem, placement: Placement, edge: int) -> float:
    e = problem.sw.edges[edge]
    a, b = placement.chosen[e.src], placement.chosen[e.dst]
    if e.is_memref or e.internal or a is None or b is None:
        return 0.0
    return problem.weights[edge] * problem.estimate.between(a.out_site(e.src_index),
                                                            b.in_site(e.dst_index))


def node_cost(problem: Problem, placement: Placement, node: int) -> float:
    chosen = placement.chosen[node]
    if chosen is None:
        n = problem.sw.nodes[node]
        return 0.0 if n.is_memref_input or n.kind == FOLDED else UNPLACED
    return chosen.preference


def total_cost(problem: Problem, placement: Placement) -> float:
    return (sum(edge_cost(problem, placement, e.id) for e in problem.sw.edges)
            + sum(node_cost(problem, placement, n) for n in range(len(problem.sw.nodes))))


# --- constructive -----------------------------------------------------------------------


def topological_order(sw: DfgGraph) -> list[int]:
    """Kahn's order, lowest id first; a cycle is entered at its lowest id."""
    preds = {n.id: {e.src for e in sw.edges if e.dst == n.id and e.src != n.id}
             for n in sw.nodes}
    done: set[int] = set()
    order: list[int] = []
    while len(order) < len(sw.nodes):
        ready = [n for n in preds if n not in done and preds[n] <= done]
        pick = min(ready) if ready else min(n for n in preds if n not in done)
        done.add(pick)
        order.append(pick)
    return order


def construct(problem: Problem, rng: random.Random) -> Placement:
    placement = Placement.empty(len(problem.sw.nodes))
    neighbours: dict[int, list[tuple[int, int]]] = {}
    for e in problem.sw.edges:
        neighbours.setdefault(e.src, []).append((e.dst, e.id))
        neighbours.setdefault(e.dst, []).append((e.src, e.id))
    for node in topological_order(problem.sw):
        free = [o for o in problem.options[node] if placement.free(o)]
        if not free:
            continue
        best: list[Option] = []
        best_cost = float("inf")
        for o in free:
            placement.chosen[node] = o
            cost = o.preference + sum(edge_cost(problem, placement, e)
                                      for _, e in neighbours.get(node, []))
            if cost < best_cost:
                best, best_cost = [o], cost
            elif cost == best_cost:
                best.append(o)
        placement.chosen[node] = None
        placement.assign(node, best[0] if len(best) == 1 else rng.choice(best))
    return placement


__all__ = ["Option", "Placement", "Problem", "build_problem", "construct", "edge_cost",
           "memory_lanes", "node_cost", "topological_order", "total_cost", "UNPLACED"]
