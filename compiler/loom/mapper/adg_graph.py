"""The flattened ADG the mapper places and routes on (LOOM's ADGFlattener;
docs/loom-fabric-notes.md section 3.1).

Nodes, in order: one `module_input` per non-memref module argument; then
the fabric.module body in order, where a spatial PE becomes one
`functional` node per function unit (body order: the opcode), switches,
fifos and tag ops become `routing` nodes and memories `memory` nodes; then
one `module_output` per yielded value. Port ids are global, in node order,
each node's inputs before its outputs (memref ports included, as LOOM's
function types list them). Edges: one per SSA use, from the producer's
output port to the consumer's input port; a PE input j expands into edges
to every input of every unit in the PE, a PE output r into edges from
every unit output. In-to-out hops exist only inside routing nodes
(switches by connectivity_table; fifos and tags 1:1), so nothing transits a
function unit or a memory (LOOM's C10).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field

from xdsl.dialects.builtin import IntegerAttr, MemRefType
from xdsl.ir import Attribute, BlockArgument, OpResult, Operation, SSAValue

from loom.dialects import fabric_syntax as fs
from loom.dialects.fabric_tag import map_tag_entries
from loom.dialects.fabric_types import TaggedType, scalar_width
from loom.fabric.adg_view import AdgView, ViewNode
from loom.mapper.bridges import tag_response_lanes


@dataclass
class AdgNode:
    id: int
    name: str
    kind: str
    """module_in | module_out | fu | a routing kind | memory | extmemory"""
    resource_class: str
    """boundary | functional | routing | memory"""
    inputs: list[int] = field(default_factory=list)
    outputs: list[int] = field(default_factory=list)
    pe: str = ""
    opcode: int = -1
    index: int = -1
    """module_in: argument index; module_out: result index."""
    tag: int = -1
    """add_tag: the tag it attaches (the ADG's `tag`); del_tag below a
    memory's split switches: its lane's memory tag (bridges.tag_response_lanes)."""
    mapper_tag: bool = False
    """add_tag: it drives a temporal PE's input, so the tag is the mapper's,
    the one of the slot it feeds (temporal_slots.add_tag_choices); the
    ADG's is a hint, as a fabric.mux's sel is."""
    tag_map: dict[int, int] = field(default_factory=dict)
    """map_tag: its table's valid entries, source tag -> tag."""
    slots: int = 0
    """A unit of a temporal PE: the PE's instruction slots (0: a spatial PE's)."""
    registers: int = 0
    """A unit of a temporal PE: the PE's registers (num_register)."""


@dataclass(frozen=True)
class AdgPort:
    id: int
    node: int
    index: int
    """Position among the node's inputs or outputs."""
    direction: str
    """in | out"""
    is_memref: bool = False
    type: Attribute | None = None
    """The port's type (C2 checks software values against it)."""


@dataclass(frozen=True)
class AdgEdge:
    src: int
    """An output port."""
    dst: int
    """An input port."""
    pe_input_index: int = -1
    pe_output_index: int = -1


@dataclass
class AdgGraph:
    nodes: list[AdgNode] = field(default_factory=list)
    ports: list[AdgPort] = field(default_factory=list)
    edges: list[AdgEdge] = field(default_factory=list)
    hops: dict[int, list[int]] = field(default_factory=dict)
    """Input port -> output ports reachable inside its routing node."""
    registered: set[int] = field(default_factory=set)
    """Input ports whose incoming link holds a buffer (AdgView.link_buffer):
    a token crossing it takes a cycle."""
    unbuffered: set[int] = field(default_factory=set)
    """Input ports fed by a PE output that leaves without the PE's own
    buffer (AdgView.output_buffered: its fabric.fifo is its register)."""

    def op_hosts(self) -> int:
        """How many ops the PEs can host at once: a spatial PE one, a temporal
        PE one a slot."""
        slots = {n.pe: n.slots for n in self.nodes if n.pe}
        return sum(n or 1 for n in slots.values())

    def node_named(self, name: str) -> list[AdgNode]:
        return [n for n in self.nodes if n.name == name]

    def add_node(self, name: str, kind: str, rclass: str, in_types: Sequence[Attribute],
                 out_types: Sequence[Attribute], **extra) -> AdgNode:
        node = AdgNode(len(self.nodes), name, kind, rclass, **extra)
        for i, t in enumerate(in_types):
            node.inputs.append(self._port(node.id, i, "in", t))
        for r, t in enumerate(out_types):
            node.outputs.append(self._port(node.id, r, "out", t))
        self.nodes.append(node)
        return node

    def _port(self, node: int, index: int, direction: str, t: Attribute) -> int:
        self.ports.append(AdgPort(len(self.ports), node, index, direction,
                                  isinstance(t, MemRefType), t))
        return len(self.ports) - 1


def flatten(view: AdgView) -> AdgGraph:
    """The flattened graph of the ADG's fabric.module."""
    block = view.top.regions[0].block
    g = AdgGraph()
    out_ports: dict[SSAValue, list[int]] = {}
    in_ports: dict[Operation, list[list[int]]] = {}
    pe_of: set[Operation] = set()
    for i, arg in enumerate(block.args):
        if isinstance(arg.type, MemRefType):
            continue
        node = g.add_node(f"module_in_{i}", "module_in", "boundary", [], [arg.type], index=i)
        out_ports[arg] = [node.outputs[0]]
    for vnode in view.nodes:
        op, kind, name = vnode.op, vnode.kind, vnode.name
        if vnode.is_pe:
            _add_pe(g, vnode, out_ports, in_ports)
            pe_of.add(op)
            continue
        # an inline node's operands and results are its ports (tag ops have
        # no function_type); an instance's are those of its definition's
        ins, outs = [v.type for v in op.operands], [r.type for r in op.results]
        rclass = "routing" if vnode.is_routing else "memory" if vnode.is_memory else "other"
        tag = op.attributes.get("tag") if kind == "add_tag" else None
        node = g.add_node(name, kind, rclass, ins, outs,
                          tag=tag.value.data if isinstance(tag, IntegerAttr) else -1,
                          tag_map={src: dst for valid, src, dst in map_tag_entries(op) if valid}
                          if kind == "map_tag" else {})
        in_ports[op] = [[p] for p in node.inputs]
        for r, res in enumerate(op.results):
            out_ports[res] = [node.outputs[r]]
        if rclass == "routing":
            _add_hops(g, node, vnode)
    yielded = block.last_op
    assert yielded is not None
    for r, v in enumerate(yielded.operands):
        node = g.add_node(f"module_out_{r}", "module_out", "boundary", [v.type], [], index=r)
        in_ports[yielded] = [*in_ports.get(yielded, []), [node.inputs[0]]]
    for op in [*block.ops]:
        if op not in in_ports:
            continue
        consumer = view.node_of(op)
        for j, v in enumerate(op.operands):
            if isinstance(v.type, MemRefType) or v not in out_ports:
                continue  # memrefs are bound, not routed
            if consumer is not None and view.link_buffer(consumer, v) is not None:
                g.registered.update(in_ports[op][j])
            if (isinstance(v, OpResult) and v.owner in pe_of
                    and not view.output_buffered(view.node_of(v.owner), v.index)):
                g.unbuffered.update(in_ports[op][j])
            pe_input, pe_output = j if op in pe_of else -1, _pe_output(v, pe_of)
            for src in out_ports[v]:
                for dst in in_ports[op][j]:
                    g.edges.append(AdgEdge(src, dst, pe_input_index=pe_input,
                                           pe_output_index=pe_output))
    tag_response_lanes(g)
    for e in g.edges:
        src = g.nodes[g.ports[e.src].node]
        if src.kind == "add_tag" and g.nodes[g.ports[e.dst].node].slots:
            src.mapper_tag = True
    return g


def _pe_output(v: SSAValue, pe_of: set[Operation]) -> int:
    if isinstance(v, BlockArgument) or v.owner not in pe_of:
        return -1
    return v.index  # type: ignore[attr-defined]


def _add_pe(g: AdgGraph, pe: ViewNode, out_ports: dict[SSAValue, list[int]],
            in_ports: dict[Operation, list[list[int]]]) -> None:
    op = pe.op
    fu_nodes = []
    shape = pe.temporal_shape() if pe.kind == "temporal_pe" else None
    for unit in pe.units:
        ftype = fs.function_type(unit.definition)
        node = g.add_node(unit.name, "fu", "functional", ftype.inputs.data,
                          ftype.outputs.data, pe=pe.name, opcode=unit.opcode)
        if shape is not None:
            node.slots, node.registers = shape.slots, shape.registers
        fu_nodes.append(node)
    every_in = [p for n in fu_nodes for p in n.inputs]
    every_out = [p for n in fu_nodes for p in n.outputs]
    in_ports[op] = [list(every_in) for _ in op.operands]
    for res in op.results:
        # a unit result leaves only by a PE output at least as wide: a narrower
        # one would truncate it (LOOM's mapper-fifo-recurrence-guard case: the
        # gate's index result may not take the PE's 1-bit output)
        out_ports[res] = [p for p in every_out if _width(g.ports[p].type) <= _width(res.type)]


def _width(t: Attribute) -> int:
    """Value bits (a tagged port's value's)."""
    return scalar_width(t.value_type if isinstance(t, TaggedType) else t) or 0


def _add_hops(g: AdgGraph, node: AdgNode, vnode: ViewNode) -> None:
    if vnode.is_switch:
        allowed = set(vnode.connectivity())
        for i, ip in enumerate(node.inputs):
            g.hops[ip] = [op for o, op in enumerate(node.outputs) if (o, i) in allowed]
    else:  # fifo and tags: 1:1
        for ip, op in zip(node.inputs, node.outputs):
            g.hops[ip] = [op]


__all__ = ["AdgEdge", "AdgGraph", "AdgNode", "AdgPort", "flatten"]
