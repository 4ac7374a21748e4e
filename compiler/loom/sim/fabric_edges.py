"""Where each DFG edge of a mapped kernel can be watched on the fabric.

An edge's route ends at a PE input port (the last step of its path enters
a function unit through a PE input wire: loom.mapper.wires), a memory's
input port or a module output. The harness taps every PE and memory input
port (loom.sim.fabric_harness.Tap);
this module says which tap, or which output port, carries which edge, and
which golden channel holds the edge's stream: the channel of the consumer's
operand (a fork's output carries the same tokens as the value it copies).
Only an edge's value bits are compared: the network is 64 bits wide and an
index is 32 bits on the fabric (loom.dialects.fabric_types.INDEX_WIDTH).
"""

from __future__ import annotations

from dataclasses import dataclass

from xdsl.ir import Operation, SSAValue

from loom.dfg_names import name_dfg
from loom.dialects.fabric_types import scalar_width
from loom.ir import op_location
from loom.mapper.bridges import tag_at
from loom.mapper.temporal_slots import add_tag_choices
from loom.mapper.mapping import Mapping
from loom.mapper.dfg_graph import DfgNode
from loom.rtl.render import identifier
from loom.sim.fabric_harness import Tap, tap_key

ROUTE_KINDS = ("spatial_sw", "temporal_sw", "fifo", "add_tag", "map_tag", "del_tag")
"""ADG nodes a route passes through (named in a report)."""


@dataclass(frozen=True)
class EdgeProbe:
    """One DFG edge and where its tokens are seen."""

    edge: int
    """The sw edge id (map.json's sw_edge)."""
    src: int
    dst: int
    """Its producer and consumer (sw node ids)."""
    channel: str
    """The golden channel with the edge's stream (at its consumer)."""
    width: int
    """Value bits compared (into a cast that is a wire, the bits its host
    reads: Contraction.read_bits); 0: a control edge (token count only)."""
    tap: int | None
    """The trace channel of the PE or memory input tap its route ends at (with
    its tag on a tagged port: fabric_harness.tap_key) ..."""
    output: str | None
    """... or the top output port (`out<k>`)."""
    producer: str
    consumer: str
    route: str
    """The fabric resources on its route: switches, fifos, the end port."""

    @property
    def label(self) -> str:
        return f"DFG edge {self.edge} '{self.channel}'"

    def mask(self, value: int | None) -> int | None:
        """A token's value as compared: its value bits; None for control."""
        if self.width == 0 or value is None:
            return None
        return value & ((1 << self.width) - 1)


@dataclass(frozen=True)
class EdgeMap:
    probes: list[EdgeProbe]
    unobserved: list[str]
    """Edges whose route ends at no tapped port: described (none expected)."""


def edge_map(m: Mapping, func: Operation, taps: list[Tap], filename: str) -> EdgeMap:
    """Every routed DFG edge of `m` (mapped from `func`) and its probe."""
    body = func.regions[0].block
    names = name_dfg(body).values
    ops = name_dfg(body).ops
    ret = body.last_op
    tap_of = {(t.pe, t.port): t.id for t in taps}
    tagged = {t.id: t.tag_bits > 0 for t in taps}
    wires = m.wires
    chosen = add_tag_choices(m)
    probes, unobserved = [], []
    for e in m.sw.edges:
        path = m.paths[e.id]
        if e.is_memref or not path:
            continue
        dst = m.sw.nodes[e.dst]
        operand = _operand(dst, e.dst_index, ret)
        producer = _describe(m.sw.nodes[e.src], ops, filename)
        consumer = _describe(dst, ops, filename)
        end_node = m.adg.nodes[m.adg.ports[path[-1]].node]
        tap = output = None
        pe_port = ""
        if end_node.kind == "module_out":
            output = f"out{end_node.index}"
        elif end_node.pe and len(path) >= 2 and (wire := wires.get((path[-2], path[-1]))) \
                and wire.pe_input_index >= 0:
            tap = tap_of.get((identifier(end_node.pe), wire.pe_input_index))
            pe_port = f"{end_node.pe} input {wire.pe_input_index}"
        elif end_node.resource_class == "memory":
            lane = [p for p in end_node.inputs if not m.adg.ports[p].is_memref].index(path[-1])
            tap = tap_of.get((identifier(end_node.name), lane))
            pe_port = f"{end_node.name} input {lane}"
        if tap is not None and tagged[tap]:
            # flows share a tagged port (a memory's lanes, a temporal PE's
            # slots): this edge's carry its tag
            tag = tag_at(m.adg, path, len(path) - 1, chosen)
            tap = tap_key(tap, tag)
            pe_port += f" tag {tag}"
        label = f"edge {e.id} '{names[operand]}'"
        if tap is None and output is None:
            unobserved.append(f"{label} (to {consumer}, ends at {end_node.name})")
            continue
        hops = [n.name for n in (m.adg.nodes[m.adg.ports[p].node] for p in path[1:-1:2])
                if n.kind in ROUTE_KINDS]
        route = ", ".join([*hops, pe_port or output or ""])
        bits = m.problem.contraction.read_bits(e.dst, scalar_width(e.value.type) or 0) or 0
        probes.append(EdgeProbe(e.id, e.src, e.dst, names[operand], bits,
                                tap, output, producer, consumer, route))
    return EdgeMap(probes, unobserved)


def _operand(node: DfgNode, index: int, ret: Operation | None) -> SSAValue:
    """The value a consumer takes as its operand `index` (an output sentinel: returned)."""
    if node.op is not None:
        return node.op.operands[index]
    assert node.kind == "output" and ret is not None and node.value is not None
    return ret.operands[node.index]


def _describe(node: DfgNode, ops: dict[Operation, str], filename: str) -> str:
    """A DFG node as a report names it: the op, its label and its C line."""
    if node.op is None:
        what = "argument" if node.kind == "input" else "result"
        return f"{what} {node.index}"
    where = op_location(node.op)
    return f"{node.op.name} '{ops[node.op]}' at {where or filename} (DFG node {node.id})"
