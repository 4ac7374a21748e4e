"""The DFG as LOOM's mapper numbers it (lib/loom/Mapper/DFGBuilder.cpp), with
our explicit forks and buffers folded back into multi-use values.

LOOM's DFG has no forks: a value with several consumers is one source with
several edges (design.md section 9: forks and buffers are routing). Node
ids: one input sentinel per function argument (memrefs included), then the
body ops in order (forks, lazy forks, buffers, sinks and the return
skipped), then one output sentinel per returned value. Edge ids: op by op,
operand by operand, then the return's operands; an edge's source is traced
back through forks and buffers to the op result or argument that made the
value. An operand fed by a sink-only value has no edge (discard). So a DFG
in LOOM's form and the same DFG after our fork insertion get the same ids.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from xdsl.dialects.builtin import MemRefType
from xdsl.ir import Block, BlockArgument, Operation, SSAValue

from loom.mapper.dfg_ops import DISCARD_OPS, MEMORY_OPS, ROUTING_OPS


@dataclass
class DfgNode:
    id: int
    kind: str
    """input | op | memory | output"""
    op: Operation | None = None
    index: int = -1
    """input: argument index; output: result index."""
    value: SSAValue | None = None
    """input: the argument; output: the returned value (at the return)."""

    @property
    def op_name(self) -> str:
        if self.op is not None:
            return self.op.name
        return "handshake.func_input" if self.kind == "input" else "handshake.func_output"

    @property
    def is_memref_input(self) -> bool:
        return self.kind == "input" and self.value is not None and isinstance(
            self.value.type, MemRefType)


@dataclass(frozen=True)
class DfgEdge:
    id: int
    src: int
    """The producing node."""
    src_index: int
    """Its result (an input sentinel: 0)."""
    dst: int
    dst_index: int
    """The consumer's operand index (an output sentinel: 0)."""
    value: SSAValue
    """The value as produced (names the edge in diagnostics)."""
    is_memref: bool = False
    """A memref: bound to a memory, not routed."""
    internal: bool = False
    """An intra-FU edge of a compound unit (contraction.py): not routed."""


@dataclass
class DfgGraph:
    nodes: list[DfgNode] = field(default_factory=list)
    edges: list[DfgEdge] = field(default_factory=list)

    def out_edges(self, node: int) -> list[DfgEdge]:
        return [e for e in self.edges if e.src == node]

    def in_edges(self, node: int) -> list[DfgEdge]:
        return [e for e in self.edges if e.dst == node]


_SKIPPED = ROUTING_OPS | DISCARD_OPS | {"handshake.return"}


def _origin(v: SSAValue) -> SSAValue:
    """The value before any fork or buffer."""
    while not isinstance(v, BlockArgument) and v.owner.name in ROUTING_OPS:  # type: ignore[union-attr]
        v = v.owner.operands[0]  # type: ignore[union-attr]
    return v


def dfg_graph(body: Block) -> DfgGraph:
    """LOOM's DFG numbering of a handshake.func body."""
    g = DfgGraph()
    node_of: dict[Operation, int] = {}
    for i, arg in enumerate(body.args):
        g.nodes.append(DfgNode(len(g.nodes), "input", index=i, value=arg))
    for op in body.ops:
        if op.name in _SKIPPED:
            continue
        node_of[op] = len(g.nodes)
        g.nodes.append(DfgNode(len(g.nodes), "memory" if op.name in MEMORY_OPS else "op", op))
    ret = body.last_op
    returned = list(ret.operands) if ret is not None and ret.name == "handshake.return" else []
    out_nodes = []
    for r, v in enumerate(returned):
        out_nodes.append(len(g.nodes))
        g.nodes.append(DfgNode(len(g.nodes), "output", index=r, value=v))

    def source(v: SSAValue) -> tuple[int, int, SSAValue]:
        o = _origin(v)
        if isinstance(o, BlockArgument):
            return o.index, 0, o
        return node_of[o.owner], o.index, o  # type: ignore[index, attr-defined]

    for op in body.ops:
        if op in node_of:
            for j, v in enumerate(op.operands):
                src, k, o = source(v)
                g.edges.append(DfgEdge(len(g.edges), src, k, node_of[op], j, o,
                                      isinstance(o.type, MemRefType)))
    for r, v in enumerate(returned):
        src, k, o = source(v)
        g.edges.append(DfgEdge(len(g.edges), src, k, out_nodes[r], 0, o,
                              isinstance(o.type, MemRefType)))
    return g


__all__ = ["DfgEdge", "DfgGraph", "DfgNode", "dfg_graph"]
