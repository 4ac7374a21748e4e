"""The contracted tech-mapped view (LOOM's spec-mapper-model.md): which DFG
ops share one function unit, and the DFG that placement and routing see.

A `handshake.constant` whose one use is an op that some unit of the ADG
hosts together with a constant of its own (a compound unit: the op's
operand a body constant, its value a config field, matching.py) is folded
into that op: the op becomes the host of the pair, the constant places
nowhere, the edge between them is an intra-FU edge (never routed, so
neither checked on the fabric nor a failure), and the edge that fires the
constant ends at the host's extra operand len(operands) + j, the unit
input that fires its body constant. Every id stays as dfg_graph numbers
it: reports expand the view back to the DFG (map.json's `sw_nodes`).

The choice is made once, before placement (LOOM's Layer 2 locks it): a
constant folds when its op has such a unit anywhere in the ADG, one
constant per op, the first foldable operand. Dataflow ops are never hosts
(LOOM's body-exclusive class).

A cast that is a wire inside a fabric, whose one use is an op, is folded
into that op too (`wired`): the edge into the cast ends at the host's
operand the cast fed, so the host's unit reads the cast's operand; the
cast's own edge is intra-FU. The host's unit is the one it has without
the cast (its port is the cast's result type), so any op may host a
wire, dataflow ops included. A wire keeps or drops high bits only:
`index_cast`/`index_castui` between i32 and `index` (both 32 bits there:
fabric_types.INDEX_WIDTH), and every truncation (`trunci`, a cast to a
narrower index or integer). A truncation is a wire because a port takes
the low bits of the 64-bit network's value, which are the truncated
value, and a value's bits above its width are never read (the width
rule, port_types.py): a port of the truncated width reads exactly them,
a wider port of an op whose low bits depend only on low bits (addi on
the ALU) gives the same low result bits.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, field, replace

from xdsl.dialects.builtin import IndexType, IntegerType
from xdsl.ir import Attribute, Operation

from loom.dialects.fabric_types import INDEX_WIDTH
from loom.mapper.dfg_graph import DfgEdge, DfgGraph, DfgNode
from loom.mapper.matching import UnitKinds, candidates

FOLDED = "folded"
"""The kind of a DFG node the view folds into its host (never placed)."""


@dataclass(frozen=True)
class Contraction:
    """The view of a DFG: `graph` has the DFG's nodes and edge ids, its folded
    nodes of kind FOLDED, its intra-FU edges `internal`, and the edges into
    a folded node redirected to the host's extra operand."""

    graph: DfgGraph
    dfg: DfgGraph
    """The DFG the view was made from."""
    host: dict[int, int] = field(default_factory=dict)
    """A folded node -> the node whose unit holds it."""
    folded: dict[int, dict[int, Operation]] = field(default_factory=dict)
    """A host -> its folded operands, each -> the constant op that fed it."""
    fallback: bool = False
    """The view that folds nothing because the contracted one did not map
    (mapping.map_dfg: LOOM's conservative fallback)."""
    wired: frozenset[int] = frozenset()
    """The folded casts that are wires (their hosts read their operands)."""

    def host_of(self, node: int) -> int:
        """The node whose placement `node` shares (itself unless folded)."""
        return self.host.get(node, node)

    @property
    def ops(self) -> int:
        """Ops that need a PE of their own."""
        return sum(1 for n in self.graph.nodes if n.kind == "op")


def identity(sw: DfgGraph, fallback: bool = False) -> Contraction:
    """The view that folds nothing (`fallback`: in place of one that folds)."""
    return Contraction(sw, sw, fallback=fallback)


def contract(sw: DfgGraph, units: UnitKinds) -> Contraction:
    """Fold every constant `units` can host with its one consumer, and every
    wire cast with its one consumer."""
    folded: dict[int, dict[int, Operation]] = {}
    host: dict[int, int] = {}
    for node in sw.nodes:
        if node.kind != "op" or node.op is None or node.op.name.startswith("dataflow."):
            continue
        for e in sw.in_edges(node.id):
            const = sw.nodes[e.src]
            if not _foldable(sw, const, node.id):
                continue
            assert const.op is not None
            if candidates(node.op, units, {e.dst_index: const.op}):
                folded[node.id] = {e.dst_index: const.op}
                host[e.src] = node.id
                break
    wired = {n.id: user for n in sw.nodes if (user := _wire_user(sw, n)) is not None}
    host.update(wired)
    if not host:
        return identity(sw)
    return Contraction(_view(sw, host, folded, wired.keys()), sw, host, folded,
                       wired=frozenset(wired))


WIRE_CASTS = ("arith.index_cast", "arith.index_castui", "arith.trunci")


def is_wire(op: Operation) -> bool:
    """A cast whose result is its operand's low bits inside a fabric."""
    if op.name not in WIRE_CASTS:
        return False
    source, result = (fabric_width(v.type) for v in (op.operands[0], op.results[0]))
    return source is not None and result is not None and result <= source


def fabric_width(t: Attribute) -> int | None:
    """An integer's or an index's bits inside a fabric (None: neither)."""
    if isinstance(t, IndexType):
        return INDEX_WIDTH
    return t.width.data if isinstance(t, IntegerType) else None


def _wire_user(sw: DfgGraph, node: DfgNode) -> int | None:
    """The op a wire cast folds into: its one use, an op that is no wire itself."""
    if node.kind != "op" or node.op is None or not is_wire(node.op):
        return None
    outs = sw.out_edges(node.id)
    ins = sw.in_edges(node.id)
    if len(outs) != 1 or len(ins) != 1:
        return None
    user = sw.nodes[outs[0].dst]
    if user.kind != "op" or user.op is None or is_wire(user.op) or user.id == node.id:
        return None
    return user.id


def _foldable(sw: DfgGraph, node: DfgNode, user: int) -> bool:
    """A constant whose one use is `user`, fired by one edge."""
    return (node.kind == "op" and node.op is not None and node.op.name == "handshake.constant"
            and [e.dst for e in sw.out_edges(node.id)] == [user]
            and len(sw.in_edges(node.id)) == 1 and node.id != user)


def _view(sw: DfgGraph, host: dict[int, int], folded: dict[int, dict[int, Operation]],
          wired: Iterable[int]) -> DfgGraph:
    nodes = [replace(n, kind=FOLDED) if n.id in host else n for n in sw.nodes]
    wire_use = {e.src: e.dst_index for e in sw.edges if e.src in set(wired)}
    edges: list[DfgEdge] = []
    for e in sw.edges:
        if e.src in host and host[e.src] == e.dst:
            edges.append(replace(e, internal=True))
        elif e.dst in wire_use:   # into a wire: the host's operand the wire fed
            edges.append(replace(e, dst=host[e.dst], dst_index=wire_use[e.dst]))
        elif e.dst in host:   # fires a folded constant: the host's extra operand
            h = host[e.dst]
            op = sw.nodes[h].op
            assert op is not None
            j = [c for c in folded[h].values()].index(sw.nodes[e.dst].op)
            edges.append(replace(e, dst=h, dst_index=len(op.operands) + j))
        else:
            edges.append(e)
    return DfgGraph(nodes, edges)


__all__ = ["FOLDED", "Contraction", "contract", "fabric_width", "identity", "is_wire"]
