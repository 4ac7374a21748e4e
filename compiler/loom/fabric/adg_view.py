"""The one typed model of an ADG that every fabric consumer reads.

`adg_view(module)` walks a verified module once and returns an `AdgView`:
the graph nodes of its `fabric.module` in body order, each with its one
canonical name, its kind (the definition's op name without `fabric.`) and
the flags consumers ask about, its definition, its port types, a PE's
function units in opcode order, a switch's connectivity, and whether
LOOM-py supports it. The config layout, the fabric RTL generator, the
mapper's flattened graph and inventory, the precheck and the summary all
read this view; none of them walks the MLIR for nodes again.

Canonical names (LOOM's ConfigGen and ADGFlattener agree on them): a
node's `sym_name`; an unnamed inline extmemory, memory, fifo, temporal_sw
or tag op `<kind>_<k>`, k counting that kind's unnamed inline nodes; an
unnamed instance `inst_<n>`, n its position among the graph nodes; else "".
Per component the grain is one name: docs/fabric/<kind>.md, the op
`fabric.<kind>`, the view kind `<kind>`, templates/fabric_<kind>.sv.j2,
loom/fabric/models/<kind>.py and tests/fabric/test_fabric_<kind>.py.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import cached_property

from xdsl.dialects.builtin import MemRefType, StringAttr
from xdsl.ir import Attribute, Operation, OpResult, SSAValue

from loom.diagnostics import LoomError
from loom.dialects import fabric_syntax as fs
from loom.dialects.fabric_graph import MODULE, TAG_OPS, visible_definitions
from loom.dialects.fabric import InstanceOp
from loom.dialects.fabric_types import TaggedType, scalar_width

PE_KINDS = ("spatial_pe", "temporal_pe")
SWITCH_KINDS = ("spatial_sw", "temporal_sw")
TAG_KINDS = ("add_tag", "map_tag", "del_tag")
ROUTING_KINDS = (*SWITCH_KINDS, "fifo", *TAG_KINDS)
"""Nodes a route may pass through (in-to-out hops inside the node)."""
MEMORY_KINDS = ("memory", "extmemory")
KIND_ORDER = ("spatial_pe", "temporal_pe", "spatial_sw", "temporal_sw", "fifo", "memory",
              "extmemory", "add_tag", "map_tag", "del_tag")
"""The kinds in the order summaries list them."""
_AUTO_NAMED = ("extmemory", "memory", "fifo", "temporal_sw", *TAG_KINDS)


def sym_name(op: Operation) -> str:
    """An op's `sym_name`, "" when it has none."""
    sym = op.attributes.get("sym_name")
    return sym.data if isinstance(sym, StringAttr) else ""


def definition_of(op: Operation,
                  scope: dict[str, Operation] | None = None) -> Operation | None:
    """The definition a graph node stands for: an instance's target (looked
    up in `scope`, visible_definitions of its block, when given), an inline
    component or tag op itself; None for an op that is no graph node."""
    if isinstance(op, InstanceOp):
        return scope.get(op.target) if scope is not None else op.definition()
    if op.name in TAG_OPS or (op.name.startswith("fabric.") and fs.is_inline(op)):
        return op
    return None


@dataclass(frozen=True)
class FunctionUnit:
    """One function unit of one PE node: the opcode that selects it."""

    pe: str
    """The PE node's canonical name (LOOM's pe_name)."""
    opcode: int
    """The unit's index in the PE body (definitions and instances both count)."""
    name: str
    """The unit's definition or instance name (LOOM's hw op_name)."""
    definition: Operation
    """The fabric.function_unit."""


def pe_units(pe_name: str, pe_definition: Operation) -> tuple[FunctionUnit, ...]:
    """A PE definition's function units in opcode order."""
    units: list[FunctionUnit] = []
    for op in pe_definition.regions[0].block.ops:
        target = op.definition() if isinstance(op, InstanceOp) else op
        if target is not None and target.name == "fabric.function_unit":
            units.append(FunctionUnit(pe_name, len(units), sym_name(op), target))
    return tuple(units)


def unsupported_reason(definition: Operation) -> str | None:
    """Why LOOM-py cannot map or build a component (None: it can).
    Decomposable switches parse, verify and round-trip, so LOOM's files are
    ours, but the mapper and the RTL refuse them."""
    name = sym_name(definition)
    label = f" '{name}'" if name else ""
    if definition.name == "fabric.spatial_sw" and (
            fs.int_param(definition, "decomposable_bits", -1) or -1) > 0:
        return (f"fabric.spatial_sw{label} with decomposable_bits is not supported "
                "(decomposable switches are not mapped)")
    return None


@dataclass(frozen=True)
class TemporalPeShape:
    """The hardware parameters of one temporal PE (its `[...]`) and its ports."""

    n_in: int
    n_out: int
    value_bits: int
    slots: int
    registers: int = 0
    reg_depth: int = 0
    shared: bool = False
    buffer_size: int = 0


@dataclass(frozen=True)
class ViewNode:
    """One graph node of the fabric.module."""

    name: str
    kind: str
    """spatial_pe | temporal_pe | spatial_sw | temporal_sw | fifo | memory |
    extmemory | add_tag | map_tag | del_tag"""
    op: Operation
    """The node in the fabric.module body (an instance or an inline op)."""
    definition: Operation
    in_types: tuple[Attribute, ...]
    """Declared port types (a tag op's: its operands' and results')."""
    out_types: tuple[Attribute, ...]
    units: tuple[FunctionUnit, ...] = ()
    """A PE's function units in opcode order."""

    @property
    def is_pe(self) -> bool:
        return self.kind in PE_KINDS

    @property
    def is_switch(self) -> bool:
        return self.kind in SWITCH_KINDS

    @property
    def is_routing(self) -> bool:
        return self.kind in ROUTING_KINDS

    @property
    def is_memory(self) -> bool:
        return self.kind in MEMORY_KINDS

    @property
    def is_tag(self) -> bool:
        return self.kind in TAG_KINDS

    @property
    def inputs(self) -> tuple[SSAValue, ...]:
        return tuple(self.op.operands)

    @property
    def outputs(self) -> tuple[SSAValue, ...]:
        return tuple(self.op.results)

    @property
    def unsupported(self) -> str | None:
        return unsupported_reason(self.definition)

    def temporal_shape(self) -> TemporalPeShape:
        """A temporal PE's parameters (its `[...]`) and ports: what its slice,
        RTL, reference model and the mapper's slot count read."""
        d = self.definition
        port = next(iter((*self.in_types, *self.out_types)), None)
        value = port.value_type if isinstance(port, TaggedType) else port
        return TemporalPeShape(
            n_in=len(self.in_types), n_out=len(self.out_types),
            value_bits=max(1, (scalar_width(value) if value is not None else 0) or 0),
            slots=fs.int_param(d, "num_instruction", 0) or 0,
            registers=fs.int_param(d, "num_register", 0) or 0,
            reg_depth=fs.int_param(d, "reg_fifo_depth", 0) or 0,
            shared=fs.bool_param(d, "enable_share_operand_buffer"),
            buffer_size=fs.int_param(d, "operand_buffer_size", 0) or 0)

    def connectivity(self) -> tuple[tuple[int, int], ...]:
        """(output, input) pairs a switch may route, outputs outer (LOOM's
        order); every pair without a connectivity_table; () for a non-switch."""
        if not self.is_switch:
            return ()
        rows = fs.string_rows(self.definition, "connectivity_table")
        n_in, n_out = len(self.in_types), len(self.out_types)
        return tuple((o, i) for o in range(n_out) for i in range(n_in)
                     if rows is None or (o < len(rows) and i < len(rows[o])
                                         and rows[o][i] == "1"))


@dataclass(frozen=True)
class AdgView:
    """The fabric.module of an ADG, as every consumer sees it."""

    module: Operation
    """The builtin.module that holds the ADG."""
    top: Operation
    """Its (first) fabric.module."""
    name: str
    args: tuple[SSAValue, ...]
    results: tuple[SSAValue, ...]
    """The values fabric.yield returns."""
    nodes: tuple[ViewNode, ...]

    @cached_property
    def _by_name(self) -> dict[str, ViewNode]:
        return {n.name: n for n in self.nodes if n.name}

    @cached_property
    def _by_op(self) -> dict[Operation, ViewNode]:
        return {n.op: n for n in self.nodes}

    def node(self, name: str) -> ViewNode:
        return self._by_name[name]

    def node_of(self, op: Operation) -> ViewNode | None:
        """The graph node a body op is (None: not a graph node)."""
        return self._by_op.get(op)

    @cached_property
    def _position(self) -> dict[Operation, int]:
        return {n.op: k for k, n in enumerate(self.nodes)}

    def link_buffer(self, node: ViewNode, value: SSAValue) -> str | None:
        """The buffer the fabric top puts on the link from `value` into
        `node` (design.md section 9), or None: "hop" on a switch-to-switch
        link that goes backward in body order (a switch to itself or to an
        earlier one), so that every ring of switches is registered; "lane"
        after a del_tag (one lane of a memory's shared result port, which
        must not wait behind another lane's consumer), unless the lane's
        own fifo follows it (a `-f` preset's: memory_bridge.ExtMemorySpec.
        lane_slots), which does the same."""
        if not isinstance(value, OpResult) or (src := self.node_of(value.op)) is None:
            return None
        if (node.kind == "spatial_sw" and src.kind == "spatial_sw"
                and self._position[src.op] >= self._position[node.op]):
            return "hop"
        return "lane" if src.kind == "del_tag" and node.kind != "fifo" else None

    @property
    def switch_rings(self) -> bool:
        """Whether a bypassable fifo links two switches (a `-f` preset's
        backward links): bypassed, it leaves a ring of switches without a
        structural register, which the mapper's bufferization keeps on every
        ring a configuration uses (design.md section 9)."""
        for fifo in self.of_kind("fifo"):
            if "bypassable" not in fifo.definition.attributes:
                continue
            src = fifo.inputs[0]
            feeder = self.node_of(src.op) if isinstance(src, OpResult) else None
            if feeder is not None and feeder.kind == "spatial_sw" and any(
                    name and self.node(name).kind == "spatial_sw"
                    for name, _ in self.consumers(fifo.outputs[0])):
                return True
        return False

    def output_buffered(self, node: ViewNode, k: int) -> bool:
        """Whether PE output `k` leaves through the PE's own two-slot buffer
        (design.md section 9): it does unless its one consumer is a
        fabric.fifo, which is then that output's register (the mapper may
        bypass a bypassable one)."""
        uses = self.consumers(node.outputs[k])
        return not (len(uses) == 1 and uses[0][0] and self.node(uses[0][0]).kind == "fifo")

    def consumers(self, value: SSAValue) -> list[tuple[str, int]]:
        """(node name, or "" for the module output, input port) of each use of `value`."""
        # the value's own uses, in node order (a scan of every node's inputs
        # per value made a 16x16's load quadratic: 4 M input reads)
        found = [(self._position[use.operation], use.index) for use in value.uses
                 if use.operation in self._position]
        uses = [(self.nodes[pos].name, k) for pos, k in sorted(found)]
        uses += [("", k) for k, v in enumerate(self.results) if v is value]
        return uses

    def of_kind(self, *kinds: str) -> list[ViewNode]:
        return [n for n in self.nodes if n.kind in kinds]

    @property
    def in_types(self) -> tuple[Attribute, ...]:
        return tuple(fs.function_type(self.top).inputs.data)

    @property
    def out_types(self) -> tuple[Attribute, ...]:
        return tuple(fs.function_type(self.top).outputs.data)

    @property
    def scalar_in_types(self) -> tuple[Attribute, ...]:
        """Module input types that are ports (memrefs are bound, not routed)."""
        return tuple(a.type for a in self.args if not isinstance(a.type, MemRefType))

    @property
    def max_join_fanin(self) -> int:
        """The largest hardware join fan-in of any function unit (0: none).
        LOOM's capacity query: a kernel compiled for this ADG legalizes its
        joins to it (seed 003)."""
        return max((len(op.operands) for fu in self.module.walk()
                    if fu.name == "fabric.function_unit"
                    for op in fu.regions[0].block.ops if op.name == "handshake.join"),
                   default=0)

    def check_supported(self) -> None:
        """LoomError naming the first component LOOM-py cannot map or build."""
        for node in self.nodes:
            if (reason := node.unsupported) is not None:
                raise LoomError(reason)


def _types(op: Operation, definition: Operation) -> tuple[tuple[Attribute, ...], ...]:
    if op.name in TAG_OPS:   # tag ops have no function_type: their values are their ports
        return tuple(v.type for v in op.operands), tuple(r.type for r in op.results)
    ftype = fs.function_type(definition)
    return tuple(ftype.inputs.data), tuple(ftype.outputs.data)


def _nodes(top: Operation) -> list[ViewNode]:
    nodes: list[ViewNode] = []
    auto: dict[str, int] = {}
    block = top.regions[0].block
    scope = visible_definitions(block)
    for op in block.ops:
        definition = definition_of(op, scope)
        if definition is None:
            continue
        kind = definition.name.removeprefix("fabric.")
        name = sym_name(op)
        if not name and op is definition and kind in _AUTO_NAMED:
            name = f"{kind}_{auto.get(kind, 0)}"
            auto[kind] = auto.get(kind, 0) + 1
        elif not name and op is not definition:
            name = f"inst_{len(nodes)}"
        ins, outs = _types(op, definition)
        units = pe_units(name, definition) if kind in PE_KINDS else ()
        nodes.append(ViewNode(name, kind, op, definition, ins, outs, units))
    return nodes


def adg_view(module: Operation) -> AdgView:
    """The view of the first fabric.module in `module` (LoomError without one)."""
    top = next((op for op in module.walk() if op.name == MODULE), None)
    if top is None:
        raise LoomError("no fabric.module in the file")
    block = top.regions[0].block
    yielded = block.last_op
    return AdgView(module, top, sym_name(top), tuple(block.args),
                   tuple(yielded.operands) if yielded is not None else (), tuple(_nodes(top)))


__all__ = [
    "KIND_ORDER", "MEMORY_KINDS", "PE_KINDS", "ROUTING_KINDS", "SWITCH_KINDS", "TAG_KINDS",
    "AdgView", "FunctionUnit", "ViewNode", "adg_view", "definition_of", "pe_units",
    "sym_name", "unsupported_reason",
]
