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

from dataclasses import dataclass, field, replace

from xdsl.ir import Operation

from loom.dialects.fabric_types import scalar_width
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

    def read_bits(self, node: int, width: int | None) -> int | None:
        """The bits of a `width`-bit value into `node` that its unit reads: of
        a wire's operand, the wire's result bits (its host's port takes the
        low ones off the network's value); else the whole value."""
        op = self.dfg.nodes[node].op
        if node not in self.wired or op is None or width is None:
            return width
        return min(width, scalar_width(op.results[0].type) or width)

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
    wired = {n.id: use for n in sw.nodes if (use := _wire_use(sw, n)) is not None}
    host.update({cast: use.dst for cast, use in wired.items()})
    if not host:
        return identity(sw)
    return Contraction(_view(sw, host, folded, wired), sw, host, folded,
                       wired=frozenset(wired))


WIRE_CASTS = ("arith.index_cast", "arith.index_castui", "arith.trunci")


def is_wire(op: Operation) -> bool:
    """A cast whose result is its operand's low bits inside a fabric (an
    index is 32 bits there: scalar_width)."""
    if op.name not in WIRE_CASTS:
        return False
    source, result = (scalar_width(v.type) for v in (op.operands[0], op.results[0]))
    return source is not None and result is not None and result <= source


def _wire_use(sw: DfgGraph, node: DfgNode) -> DfgEdge | None:
    """The one use of a wire cast, into an op that is no wire itself."""
    if node.kind != "op" or node.op is None or not is_wire(node.op):
        return None
    outs = sw.out_edges(node.id)
    if len(outs) != 1:
        return None
    user = sw.nodes[outs[0].dst]
    return outs[0] if user.kind == "op" and user.op is not None and not is_wire(user.op) \
        else None


def _foldable(sw: DfgGraph, node: DfgNode, user: int) -> bool:
    """A constant whose one use is `user`, fired by one edge."""
    return (node.kind == "op" and node.op is not None and node.op.name == "handshake.constant"
            and [e.dst for e in sw.out_edges(node.id)] == [user]
            and len(sw.in_edges(node.id)) == 1 and node.id != user)


def _view(sw: DfgGraph, host: dict[int, int], folded: dict[int, dict[int, Operation]],
          wired: dict[int, DfgEdge]) -> DfgGraph:
    nodes = [replace(n, kind=FOLDED) if n.id in host else n for n in sw.nodes]
    edges: list[DfgEdge] = []
    for e in sw.edges:
        if e.src in host and host[e.src] == e.dst:
            edges.append(replace(e, internal=True))
        elif e.dst in wired:   # into a wire: the host's operand the wire fed
            use = wired[e.dst]
            edges.append(replace(e, dst=use.dst, dst_index=use.dst_index))
        elif e.dst in host:   # fires a folded constant: the host's extra operand
            h = host[e.dst]
            op = sw.nodes[h].op
            assert op is not None
            j = [c for c in folded[h].values()].index(sw.nodes[e.dst].op)
            edges.append(replace(e, dst=h, dst_index=len(op.operands) + j))
        else:
            edges.append(e)
    return DfgGraph(nodes, edges)


__all__ = ["FOLDED", "Contraction", "contract", "identity", "is_wire"]
