"""What an ADG holds: components by kind, ports, config words, largest join.

`max_join_fanin` is LOOM's capacity query (tools/loom/loom.cpp): the
largest operand count of a `handshake.join` in any function unit of the
ADG, 0 when it has none. Compiling for an ADG passes it on as
`loom.adg_max_join_fanin` (seed 003), so the DFG's joins fit its units.
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass

from xdsl.dialects.builtin import MemRefType, ModuleOp, StringAttr
from xdsl.ir import Operation

from loom.diagnostics import LoomError
from loom.dialects import fabric_syntax as fs
from loom.dialects.fabric_graph import TAG_OPS, resolve_definition
from loom.fabric.config_layout import fabric_layout


def max_join_fanin(module: ModuleOp) -> int:
    """The ADG's largest hardware join fan-in (0 without a join unit)."""
    return max((len(op.operands) for fu in module.walk() if fu.name == "fabric.function_unit"
                for op in fu.regions[0].block.ops if op.name == "handshake.join"), default=0)


@dataclass(frozen=True)
class AdgSummary:
    module: str
    components: dict[str, int]
    """Graph nodes of the fabric.module by kind (spatial_pe, spatial_sw, ...)."""
    inputs: int
    memref_inputs: int
    outputs: int
    config_words: int
    max_join_fanin: int

    def line(self) -> str:
        parts = ", ".join(f"{n} {k}" for k, n in self.components.items())
        scalars = self.inputs - self.memref_inputs
        return (f"fabric.module @{self.module}: {parts}; inputs: {scalars} scalar, "
                f"{self.memref_inputs} memref; outputs: {self.outputs}; "
                f"config words: {self.config_words}; max join fan-in: {self.max_join_fanin}")


def _fabric_module(module: ModuleOp) -> Operation:
    top = next((op for op in module.walk() if op.name == "fabric.module"), None)
    if top is None:
        raise LoomError("no fabric.module in the file")
    return top


def _kind(op: Operation) -> str | None:
    """The component kind of a graph node of fabric.module, None for other ops."""
    if op.name == "fabric.instance":
        target = resolve_definition(op, op.attributes["module"].data)  # type: ignore[attr-defined]
        return target.name.removeprefix("fabric.") if target is not None else None
    if op.name in TAG_OPS or (fs.is_inline(op) and op.name.startswith("fabric.")):
        return op.name.removeprefix("fabric.")
    return None


_ORDER = ("spatial_pe", "temporal_pe", "spatial_sw", "temporal_sw", "fifo", "memory",
          "extmemory", "add_tag", "map_tag", "del_tag")


def summarize(module: ModuleOp) -> AdgSummary:
    top = _fabric_module(module)
    kinds = Counter(k for op in top.regions[0].block.ops if (k := _kind(op)) is not None)
    ftype = fs.function_type(top)
    ins = ftype.inputs.data
    name = top.attributes["sym_name"]
    assert isinstance(name, StringAttr)
    return AdgSummary(
        name.data,
        {k: kinds[k] for k in _ORDER if kinds[k]},
        len(ins),
        sum(1 for t in ins if isinstance(t, MemRefType)),
        len(ftype.outputs.data),
        fabric_layout(module).word_count,
        max_join_fanin(module),
    )


__all__ = ["AdgSummary", "max_join_fanin", "summarize"]
