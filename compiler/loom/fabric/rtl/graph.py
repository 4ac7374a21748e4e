"""The graph of a fabric.module as the RTL generator sees it: nodes in body
order with their input and output values and wire widths.

Names follow the configuration layout (loom.fabric.config_layout._nodes),
so a node's config slice is found by its name.
"""

from __future__ import annotations

from dataclasses import dataclass

from xdsl.dialects.builtin import MemRefType, ModuleOp
from xdsl.ir import Attribute, Operation, SSAValue

from loom.diagnostics import LoomError
from loom.dialects import fabric_syntax as fs
from loom.dialects.fabric_support import unsupported_components
from loom.dialects.fabric_types import TaggedType, scalar_width
from loom.fabric.config_layout import _nodes

TAG_KINDS = ("add_tag", "map_tag", "del_tag")


def wire_width(t: Attribute) -> int:
    """Bits of a fabric wire: `{tag, value}` for tagged types; `none` is 1 wire bit."""
    if isinstance(t, TaggedType):
        return wire_width(t.value_type) + t.tag_width
    w = scalar_width(t)
    if w is None:
        raise LoomError(f"type {t} has no RTL wire width")
    return max(1, w)


def value_width(t: Attribute) -> int:
    """The value bits of a (possibly tagged) type."""
    return wire_width(t.value_type) if isinstance(t, TaggedType) else wire_width(t)


def tag_width(t: Attribute) -> int:
    return t.tag_width if isinstance(t, TaggedType) else 0


@dataclass(frozen=True)
class Node:
    name: str
    kind: str
    op: Operation
    definition: Operation
    inputs: tuple[SSAValue, ...]
    outputs: tuple[SSAValue, ...]
    in_types: tuple[Attribute, ...]
    out_types: tuple[Attribute, ...]


@dataclass(frozen=True)
class FabricGraph:
    module: str
    top: Operation
    args: tuple[SSAValue, ...]
    results: tuple[SSAValue, ...]
    nodes: tuple[Node, ...]

    def consumers(self, value: SSAValue) -> list[tuple[str, int]]:
        """(node name or '' for the module output, port) of each use of `value`."""
        uses = [(n.name, k) for n in self.nodes for k, v in enumerate(n.inputs) if v is value]
        uses += [("", k) for k, v in enumerate(self.results) if v is value]
        return uses


def _types(node_op: Operation, definition: Operation) -> tuple[tuple[Attribute, ...], ...]:
    if node_op.name in (f"fabric.{k}" for k in TAG_KINDS):
        return (tuple(v.type for v in node_op.operands), tuple(r.type for r in node_op.results))
    ftype = fs.function_type(definition)
    return tuple(ftype.inputs.data), tuple(ftype.outputs.data)


def fabric_graph(module: ModuleOp) -> FabricGraph:
    """The nodes of the first fabric.module; LoomError on what RTL cannot build."""
    top = next((op for op in module.walk() if op.name == "fabric.module"), None)
    if top is None:
        raise LoomError("no fabric.module in the ADG")
    for _, reason in unsupported_components(module):
        raise LoomError(reason)
    nodes = []
    for name, op, definition in _nodes(top):
        ins, outs = _types(op, definition)
        nodes.append(Node(name, definition.name.removeprefix("fabric."), op, definition,
                          tuple(op.operands), tuple(op.results), ins, outs))
    block = top.regions[0].block
    yield_op = block.last_op
    assert yield_op is not None
    graph = FabricGraph(top.attributes["sym_name"].data,  # type: ignore[attr-defined]
                        top, tuple(block.args), tuple(yield_op.operands), tuple(nodes))
    _check_single_use(graph)
    return graph


def _check_single_use(graph: FabricGraph) -> None:
    # only routing nodes fan out (LOOM's C11); a plain fork would deadlock
    # on a consumer whose route is off, so a multi-use value is refused
    values = [*graph.args, *(r for n in graph.nodes for r in n.outputs)]
    for v in values:
        if isinstance(v.type, MemRefType):
            continue
        uses = graph.consumers(v)
        if len(uses) > 1:
            names = ", ".join(n or "the module output" for n, _ in uses)
            raise LoomError(f"a value feeds {len(uses)} ports ({names}); fan-out outside a "
                            "switch is not supported by the fabric RTL")
