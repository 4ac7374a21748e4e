"""What an ADG holds: components by kind, ports, config words, largest join.

`max_join_fanin` is LOOM's capacity query (tools/loom/loom.cpp), the view's
`AdgView.max_join_fanin`. Compiling for an ADG passes it on as
`loom.adg_max_join_fanin` (seed 003), so the DFG's joins fit its units.
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass

from xdsl.dialects.builtin import MemRefType

from loom.fabric.adg_view import KIND_ORDER, AdgView
from loom.fabric.config_layout import fabric_layout


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


def summarize(view: AdgView) -> AdgSummary:
    kinds = Counter(n.kind for n in view.nodes)
    ins = view.in_types
    return AdgSummary(
        view.name,
        {k: kinds[k] for k in KIND_ORDER if kinds[k]},
        len(ins),
        sum(1 for t in ins if isinstance(t, MemRefType)),
        len(view.out_types),
        fabric_layout(view).word_count,
        view.max_join_fanin,
    )


__all__ = ["AdgSummary", "summarize"]
