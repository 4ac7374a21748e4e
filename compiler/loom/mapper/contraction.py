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

Two ops of one name that share an operand's value (the branches a loop's
condition steers) are paired when some unit holds both side by side
(function_units.cond_br_pair, matching.Partner): the second becomes the
partner of the first, its host. Its edge of the shared value is intra-FU,
its other operands end at the host's extra operands len(operands) + k, its
results leave from the host's extra results len(results) + r. Pairs are
chosen in DFG order, each op with the first later one it can pair with.

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

A zero extension (`extui`, a widening `index_castui`) is a wire too when
its operand is clean (`clean_values`): zero above its width wherever it
travels, so the wider port of the host reads the extended value. Bits
above a value's width are otherwise free (a 64-bit ALU's i32 addi leaves
its carry there); a function unit puts its result on its lane
zero-extended from the result's width (rtl/fu.py, LOOM's connection
rule), so a compare's i1, an extension's result and a memory's element
are clean whatever unit or memory runs them, and an op that only moves a
value (port_types.MOVES: a branch, mux, carry, load's data) passes on
what it gets. A kernel argument, a constant and any other op's result
count as not clean.
"""

from __future__ import annotations

from collections.abc import Hashable
from dataclasses import dataclass, field, replace

from xdsl.ir import Operation

from loom.dialects.fabric_types import scalar_width
from loom.mapper.dfg_graph import DfgEdge, DfgGraph, DfgNode
from loom.mapper.matching import Candidate, Partner, UnitKinds, candidates
from loom.mapper.port_types import moved

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
    partner: dict[int, Partner] = field(default_factory=dict)
    """A host -> the op it is paired with (folded into it too)."""

    def candidates(self, node: DfgNode, units: UnitKinds) -> list[Candidate]:
        """The units that can host `node` with what the view folds into it."""
        assert node.op is not None
        return candidates(node.op, units, self.folded.get(node.id), self.partner.get(node.id))

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
    def constants(self) -> int:
        """Constants folded into their ops' units."""
        return sum(len(f) for f in self.folded.values())

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
    wires = _wires(sw)
    wired = {n.id: use for n in sw.nodes if (use := _wire_use(sw, n, wires)) is not None}
    host.update({cast: use.dst for cast, use in wired.items()})
    paired = _pairs(sw, units, set(host) | set(folded), wired)
    hosts = {node: h for h, (node, _) in paired.items()}
    view = _view(sw, host | hosts, folded, wired, paired)
    host = {n: hosts.get(h, h) for n, h in host.items()} | hosts   # a wire into a partner: its host
    if not host:
        return identity(sw)
    return Contraction(view, sw, host, folded, wired=frozenset(wired),
                       partner={h: p for h, (_, p) in paired.items()})


_Paired = dict[int, tuple[int, Partner]]
"""Host -> (its partner's node, the partner)."""


def _sources(sw: DfgGraph, node: int, wired: dict[int, DfgEdge]) -> dict[int, Hashable]:
    """Operand index -> the value it takes: a (node, result), or through a
    wire its cast and the cast's operand (copies of one cast, wire_casts.py,
    give one value)."""
    found: dict[int, Hashable] = {}
    for e in sw.in_edges(node):
        source: Hashable = (e.src, e.src_index)
        if e.src in wired:
            op = sw.nodes[e.src].op
            assert op is not None
            (into,) = sw.in_edges(e.src)
            source = (op.name, str(op.results[0].type), into.src, into.src_index)
        found[e.dst_index] = source
    return found


def _pairs(sw: DfgGraph, units: UnitKinds, busy: set[int],
           wired: dict[int, DfgEdge]) -> _Paired:
    """Host -> partner: each op, in DFG order, with the first later op of its
    name that shares an operand's value and that some unit holds beside it.
    `busy` ops (folded, or hosting folds) take no part, nor two ops one of
    which feeds the other."""
    # only ops some unit holds two of side by side: none on most ADGs, which
    # then try no pair at all (contract runs once per preset `--adg auto` tries)
    doubled = {g.ops[0].name for graphs in units.graphs for g in graphs
               if len(g.ops) == 2 and g.ops[0].name == g.ops[1].name}
    free = [n for n in sw.nodes if n.kind == "op" and n.op is not None and n.id not in busy
            and n.op.name in doubled and not n.op.name.startswith("dataflow.")]
    sources = {n.id: _sources(sw, n.id, wired) for n in free}
    paired: _Paired = {}
    taken: set[int] = set()
    for i, a in enumerate(free):
        if a.id in taken:
            continue
        for b in free[i + 1:]:
            if b.id in taken or b.op.name != a.op.name \
                    or any(e.dst == a.id for e in sw.out_edges(b.id)) \
                    or any(e.dst == b.id for e in sw.out_edges(a.id)):  # type: ignore[union-attr]
                continue
            shared = tuple(k for k, v in sources[b.id].items() if sources[a.id].get(k) == v)
            assert a.op is not None and b.op is not None
            if shared and candidates(a.op, units, partner=Partner(b.op, shared)):
                paired[a.id] = (b.id, Partner(b.op, shared))
                taken |= {a.id, b.id}
                break
    return paired


WIRE_CASTS = ("arith.index_cast", "arith.index_castui", "arith.trunci")
ZERO_EXTENSIONS = ("arith.extui", "arith.index_castui")
CLEAN_RESULTS = ("arith.cmpi", "arith.cmpf", *ZERO_EXTENSIONS)
"""Ops whose results are clean on any unit: zero above their width."""


def is_wire(op: Operation, clean_operand: bool = False) -> bool:
    """A cast whose result is its operand's low bits inside a fabric (an
    index is 32 bits there: scalar_width), or, of a `clean_operand`, its
    operand zero-extended."""
    if op.name not in WIRE_CASTS + ZERO_EXTENSIONS:
        return False
    source, result = (scalar_width(v.type) for v in (op.operands[0], op.results[0]))
    if source is None or result is None:
        return False
    if result <= source:
        return op.name in WIRE_CASTS
    return clean_operand and op.name in ZERO_EXTENSIONS


def clean_values(sw: DfgGraph) -> set[tuple[int, int]]:
    """The (node, result) pairs of `sw` whose values are zero above their
    width on every port that carries them: a CLEAN_RESULTS op's, a memory's,
    and a moved result whose moved operands are all clean (the greatest such
    set: a loop's carry is clean when what enters it is)."""
    moved_from: dict[tuple[int, int], list[DfgEdge]] = {}
    clean: set[tuple[int, int]] = set()
    for n in sw.nodes:
        if n.kind == "memory":
            clean.update((n.id, e.src_index) for e in sw.out_edges(n.id))
        if n.kind != "op" or n.op is None:
            continue
        for r in range(len(n.op.results)):
            if n.op.name in CLEAN_RESULTS:
                clean.add((n.id, r))
            elif moved(n.op.name, result=r):
                ins = [e for e in sw.in_edges(n.id) if moved(n.op.name, operand=e.dst_index)]
                if ins:
                    moved_from[(n.id, r)] = ins
                    clean.add((n.id, r))
    changed = True
    while changed:
        changed = False
        for value, ins in moved_from.items():
            if value in clean and any((e.src, e.src_index) not in clean for e in ins):
                clean.discard(value)
                changed = True
    return clean


def _wires(sw: DfgGraph) -> set[int]:
    """The casts of `sw` that are wires."""
    clean = clean_values(sw)

    def operand_clean(node: int) -> bool:
        return any((e.src, e.src_index) in clean for e in sw.in_edges(node) if e.dst_index == 0)

    return {n.id for n in sw.nodes if n.kind == "op" and n.op is not None
            and n.op.name in WIRE_CASTS + ZERO_EXTENSIONS and is_wire(n.op, operand_clean(n.id))}


def _wire_use(sw: DfgGraph, node: DfgNode, wires: set[int]) -> DfgEdge | None:
    """The one use of a wire cast, into an op that is no wire itself."""
    if node.id not in wires:
        return None
    outs = sw.out_edges(node.id)
    if len(outs) != 1:
        return None
    user = sw.nodes[outs[0].dst]
    return outs[0] if user.kind == "op" and user.op is not None and user.id not in wires \
        else None


def _foldable(sw: DfgGraph, node: DfgNode, user: int) -> bool:
    """A constant whose one use is `user`, fired by one edge."""
    return (node.kind == "op" and node.op is not None and node.op.name == "handshake.constant"
            and [e.dst for e in sw.out_edges(node.id)] == [user]
            and len(sw.in_edges(node.id)) == 1 and node.id != user)


def _view(sw: DfgGraph, host: dict[int, int], folded: dict[int, dict[int, Operation]],
          wired: dict[int, DfgEdge], paired: _Paired) -> DfgGraph:
    nodes = [replace(n, kind=FOLDED) if n.id in host else n for n in sw.nodes]
    partner_of = {node: (h, p) for h, (node, p) in paired.items()}

    def op_of(node: int) -> Operation:
        op = sw.nodes[node].op
        assert op is not None
        return op

    edges: list[DfgEdge] = []
    for e in sw.edges:
        if e.src in host and host[e.src] == e.dst:   # a fold's own edge (never a pair's)
            edges.append(replace(e, internal=True))
            continue
        if e.src in partner_of:   # leaves a partner: its host's extra result
            h = partner_of[e.src][0]
            e = replace(e, src=h, src_index=len(op_of(h).results) + e.src_index)
        if e.dst in wired:   # into a wire: the host's operand the wire fed
            use = wired[e.dst]
            e = replace(e, dst=use.dst, dst_index=use.dst_index)
        if e.dst in partner_of:   # into a partner: intra-FU when shared, else an extra operand
            h, pair = partner_of[e.dst]
            e = replace(e, internal=True) if e.dst_index in pair.shared else \
                replace(e, dst=h, dst_index=len(op_of(h).operands) + e.dst_index)
        elif e.dst in host:   # fires a folded constant: the host's extra operand
            h = host[e.dst]
            j = [c for c in folded[h].values()].index(op_of(e.dst))
            e = replace(e, dst=h, dst_index=len(op_of(h).operands) + j)
        edges.append(e)
    return DfgGraph(nodes, edges)


__all__ = ["FOLDED", "Contraction", "clean_values", "contract", "identity", "is_wire"]
