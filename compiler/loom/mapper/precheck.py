"""Necessary resources: whether a DFG can fit an ADG at all, counted before
any placement (`--adg auto` skips the presets that fail it in milliseconds).

What any mapping needs, and nothing more (so an ADG the full mapper would
accept always passes; the placement's own rules are stricter):

- ops: every op that needs a function unit occupies a whole spatial PE
  (LOOM's C8: one active unit per PE; placement gives an op no other kind
  of host) or one slot of a temporal PE (a temporal PE counts as that many
  hosts), and only PEs of the kinds (PE definitions) holding a unit that
  tech-maps it (matching.candidates, the placement's own options) can host
  it. So ops must match to PE instances; by Hall's theorem a set of kinds
  with fewer instances than the ops that can use nothing else blocks it.
  The ops are those of the view that folds constants into their ops'
  units, or of the one that folds none when those do not fit (the mapper
  tries both).
- memories: a DFG memory binds to one hardware memory of its kind with
  enough load and store lanes and element width (memory_candidates, the
  placement's options), and a hardware memory holds at most numRegion of
  them (the placement allows one; numRegion >= 1 only weakens the check).
- boundary: a scalar argument or result needs its own module port that
  fits its type (the placement's first-fit rule, port_types.boundary_fits).
- join fan-in: the DFG is compiled for the ADG's largest join, and a wider
  join has no candidate: the op count above covers it.

A Capacity comes from a built module or, for the presets, straight from
the builder's model (only the PE definitions are parsed, once per set of
definitions), which is what makes the check fast.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass, replace

from xdsl.dialects.builtin import MemRefType
from xdsl.ir import Attribute
from xdsl.parser import Parser

from loom.diagnostics import counted
from loom.dialects.fabric_types import TaggedType
from loom.fabric.adg_view import AdgView, FunctionUnit, ViewNode, pe_units, sym_name
from loom.fabric.builder import AdgBuilder, PEDef
from loom.fabric.emit import pe_definition
from loom.ir import make_context, parse
from loom.mapper.contraction import Contraction, contract, identity
from loom.mapper.dfg_graph import DfgGraph, DfgNode
from loom.mapper.dfg_ops import describe
from loom.mapper.inventory import HwMemory, hw_memories, memref_elements
from loom.mapper.matching import UnitKinds
from loom.mapper.memory_binding import memory_candidates
from loom.mapper.port_types import boundary_fits, kind_width


@dataclass(frozen=True)
class PeKind:
    """The instances of one PE definition."""

    name: str
    count: int
    units: tuple[FunctionUnit, ...]
    """One instance's units (every instance has the same)."""


@dataclass(frozen=True)
class Capacity:
    """What an ADG offers, counted."""

    pe_kinds: tuple[PeKind, ...]
    memories: tuple[HwMemory, ...]
    inputs: tuple[Attribute, ...]
    """Scalar module input types (memrefs are bound, not ports)."""
    outputs: tuple[Attribute, ...]

    @property
    def max_join_fanin(self) -> int:
        return max((len(op.operands) for k in self.pe_kinds for u in k.units
                    for op in u.definition.regions[0].block.ops
                    if op.name == "handshake.join"), default=0)


def module_capacity(view: AdgView) -> Capacity:
    """The capacity of a built ADG."""
    kinds: dict[int, PeKind] = {}
    for node in view.of_kind("spatial_pe", "temporal_pe"):
        key = id(node.definition)
        if key not in kinds:
            name = sym_name(node.definition)
            kinds[key] = PeKind(name, 0, pe_units(name, node.definition))
        kinds[key] = replace(kinds[key], count=kinds[key].count + _ops_hosted(node))
    return Capacity(tuple(kinds.values()), tuple(hw_memories(view)), view.scalar_in_types,
                    tuple(v.type for v in view.results))


def _ops_hosted(node: ViewNode) -> int:
    """Ops one PE can host: a spatial PE one; a temporal PE one a slot."""
    return node.temporal_shape().slots if node.kind == "temporal_pe" else 1


class PeDefinitions:
    """Parsed PE definitions, each parsed once: the presets share theirs."""

    def __init__(self) -> None:
        self.units: dict[PEDef, tuple[FunctionUnit, ...]] = {}
        self.types: dict[str, Attribute] = {}

    def of(self, pe: PEDef) -> tuple[FunctionUnit, ...]:
        if pe not in self.units:
            text = "\n".join(["module {", *pe_definition(pe), "}", ""])
            parsed = parse(text, f"{pe.name}.fabric.mlir").module
            definition = next(op for op in parsed.walk()
                              if op.name in ("fabric.spatial_pe", "fabric.temporal_pe"))
            self.units[pe] = pe_units(pe.name, definition)
        return self.units[pe]

    def type(self, text: str) -> Attribute:
        if text not in self.types:
            self.types[text] = Parser(make_context(), text).parse_type()
        return self.types[text]


def builder_capacity(b: AdgBuilder, parsed: PeDefinitions) -> Capacity:
    """The capacity of the ADG `b` describes, without emitting or parsing all of it."""
    count: Counter[PEDef] = Counter(n.definition for n in b.nodes.values()
                                    if isinstance(n.definition, PEDef))
    kinds = tuple(PeKind(pe.name, n * (pe.temporal.num_instruction if pe.temporal else 1),
                         parsed.of(pe)) for pe, n in count.items())
    memories = []
    for n in b.nodes.values():
        if n.kind not in ("memory", "extmemory"):
            continue
        memref = parsed.type(str(n.params["memrefType"]))
        elem = kind_width(memref.element_type) if isinstance(memref, MemRefType) else None
        tagged = any(isinstance(parsed.type(t), TaggedType) for t in (*n.inputs, *n.outputs)
                     if not t.startswith("memref<"))
        memories.append(HwMemory(n.name, n.kind, int(n.params["ldCount"]),  # type: ignore[call-overload]
                                 int(n.params["stCount"]),  # type: ignore[call-overload]
                                 int(n.params["numRegion"]),  # type: ignore[call-overload]
                                 elem[1] if elem else None, tagged,
                                 memref_elements(memref) if n.kind == "memory" else None))
    return Capacity(kinds, tuple(memories),
                    tuple(parsed.type(p.type) for p in b.inputs if not p.is_memref),
                    tuple(parsed.type(p.type) for p in b.outputs))


@dataclass(frozen=True)
class Shortfall:
    """The first necessary resource the ADG lacks."""

    node: DfgNode
    message: str
    """One line, LOOM's Cn label first."""


def shortfall(sw: DfgGraph, cap: Capacity, adg: str) -> Shortfall | None:
    """The resource `adg` lacks for every mapping of `sw`, or None when it has
    all of them (which does not mean the mapping succeeds)."""
    return _ops(sw, cap, adg) or _memories(sw, cap, adg) or _boundary(sw, cap, adg)


def _ops(sw: DfgGraph, cap: Capacity, adg: str) -> Shortfall | None:
    """The ops of the contracted view (a constant folded into its op's
    compound unit needs no PE), each onto a PE kind that hosts it; or,
    when they do not fit, of the view that folds nothing (the mapper's
    fallback, mapping._lane: a fold pins its op to the PEs whose units take
    a constant, which a temporal PE's do not). The contracted view's
    shortfall is the one reported."""
    folded = _view_ops(contract(sw, UnitKinds.of([u for kind in cap.pe_kinds
                                                   for u in kind.units])), cap, adg)
    if folded is None or _view_ops(identity(sw), cap, adg) is None:
        return None
    return folded


def _view_ops(view: Contraction, cap: Capacity, adg: str) -> Shortfall | None:
    ops = [n for n in view.graph.nodes if n.kind == "op" and n.op is not None]
    kinds = [UnitKinds.of(kind.units) for kind in cap.pe_kinds]
    wants = [[k for k, units in enumerate(kinds) if view.candidates(n, units)]
             for n in ops]
    return _hosts(ops, wants, [k.count for k in cap.pe_kinds], adg, "function unit",
                  ("PE", "PEs"))


def _memories(sw: DfgGraph, cap: Capacity, adg: str) -> Shortfall | None:
    mems = [n for n in sw.nodes if n.kind == "memory" and n.op is not None]
    index = {id(h): k for k, h in enumerate(cap.memories)}
    wants = [[index[id(h)] for h in memory_candidates(n.op, cap.memories)]  # type: ignore[arg-type]
             for n in mems]
    regions = any(h.num_region > 1 for h in cap.memories)
    return _hosts(mems, wants, [h.num_region for h in cap.memories], adg, "memory",
                  ("memory region", "memory regions") if regions else ("memory", "memories"))


def _hosts(nodes: list[DfgNode], wants: list[list[int]], capacity: list[int], adg: str,
           host: str, noun: tuple[str, str]) -> Shortfall | None:
    """Each node onto one unit of a host it wants: the first node without any
    host, or Hall's witness (the nodes that want only some hosts outnumber them)."""
    for n, want in zip(nodes, wants):
        if not want:
            return Shortfall(n, f"C1: no {host} in {adg} can host {describe(n.op)}")  # type: ignore[arg-type]
    witness = hall_witness(wants, capacity)
    if witness is None:
        return None
    item, only, need = witness
    have = sum(capacity[r] for r in only)
    hosts = counted(have, *noun)
    what = describe(nodes[item].op)  # type: ignore[arg-type]
    return Shortfall(nodes[item], f"C1: {what}: {adg} has {hosts} "
                     f"that can host it and the kernel has {need} ops that need one of them")


def _boundary(sw: DfgGraph, cap: Capacity, adg: str) -> Shortfall | None:
    for kind, ports in (("input", cap.inputs), ("output", cap.outputs)):
        nodes = [n for n in sw.nodes if n.kind == kind and not n.is_memref_input
                 and n.value is not None]
        wants = [[p for p, t in enumerate(ports) if boundary_fits(n.value.type, t)]
                 for n in nodes]  # type: ignore[union-attr]
        blocked = _unassignable(wants, [1] * len(ports))
        if blocked is not None:
            item, fit = blocked
            what = "argument" if kind == "input" else "result"
            return Shortfall(nodes[item], f"C1: {what} {nodes[item].index} "
                             f"({nodes[item].value.type}): {adg} has {len(fit)} module "  # type: ignore[union-attr]
                             f"{kind}s that fit it and the kernel needs more")
    return None


def hall_witness(wants: Sequence[Sequence[int]], capacity: Sequence[int]
                 ) -> tuple[int, set[int], int] | None:
    """None when every item gets a unit of a resource it wants; else (an
    item that cannot, the resources its alternating paths reach, the items
    that want only those): more items than those resources have units."""
    blocked = _unassignable(wants, capacity)
    if blocked is None:
        return None
    item, only = blocked
    return item, only, sum(1 for w in wants if set(w) <= only)


def _unassignable(wants: Sequence[Sequence[int]], capacity: Sequence[int]
                  ) -> tuple[int, set[int]] | None:
    """Give each item one unit of a resource it wants (resource r has capacity[r]
    units), by augmenting paths. None when all fit; else an item that cannot,
    and the resources its alternating paths reach: Hall's witness (the items
    wanting only those outnumber their units)."""
    holders: list[list[int]] = [[] for _ in capacity]
    for item in range(len(wants)):
        seen: set[int] = set()
        if not _augment(item, wants, capacity, holders, seen):
            return item, seen
    return None


def _augment(item: int, wants: Sequence[Sequence[int]], capacity: Sequence[int],
             holders: list[list[int]], seen: set[int]) -> bool:
    for r in wants[item]:
        if r in seen:
            continue
        seen.add(r)
        if len(holders[r]) < capacity[r]:
            holders[r].append(item)
            return True
        for other in list(holders[r]):
            if _augment(other, wants, capacity, holders, seen):
                holders[r].remove(other)
                holders[r].append(item)
                return True
    return False


__all__ = ["Capacity", "PeDefinitions", "PeKind", "Shortfall", "builder_capacity",
           "hall_witness", "module_capacity", "shortfall"]
