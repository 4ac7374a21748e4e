"""The ADG's visualization sidecar, `<adg>.fabric.viz.json` (LOOM's ADGBuilderViz.cpp).

    {"version": 1, "moduleInputLabels": ["a: bits<64>", ..], "moduleOutputLabels": [..],
     "components": [{"name", "kind", "center_x", "center_y", "width", "height",
                     "grid_row"?, "grid_col"?}, ..],
     "routes": [{"from", "from_port", "to", "to_port", "points": [{"x", "y"}, ..]}, ..]}

Topology helpers place their nodes on the grid; any node left unplaced goes
on a row under the placed ones, in creation order (LOOM asks for a
neato-style layout there; ours is simpler but never overlaps). Routes are
straight segments between component centers; module ports sit on a row
above (inputs) and below (outputs) the components, with `module_in` /
`module_out` as their node names.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from loom.fabric.builder import AdgBuilder, Node

VERSION = 1
STEP = 260.0
"""Spacing of unplaced components and module ports."""

_BOX = {"add_tag": (92.0, 52.0), "del_tag": (92.0, 52.0), "map_tag": (92.0, 52.0),
        "fifo": (100.0, 56.0)}


@dataclass(frozen=True)
class Placement:
    x: float
    y: float
    row: int | None = None
    col: int | None = None


@dataclass
class VizLayout:
    """Component centers chosen by the topology helpers."""

    placements: dict[str, Placement] = field(default_factory=dict)

    def place(self, name: str, x: float, y: float, row: int | None = None,
              col: int | None = None) -> None:
        self.placements[name] = Placement(x, y, row, col)


def _box(node: Node) -> tuple[float, float]:
    if node.kind in _BOX:
        return _BOX[node.kind]
    if node.kind in ("memory", "extmemory"):
        return 170.0, max(96.0, 40.0 + 26.0 * max(len(node.inputs), len(node.outputs)))
    if node.kind == "spatial_pe":
        return 200.0, 90.0 + 12.0 * max(len(node.inputs), len(node.outputs))
    side = max(84.0, 32.0 + 24.0 * (max(len(node.inputs), len(node.outputs)) + 1) / 2)
    return side, side


def _label(name: str, type_: str) -> str:
    return f"{name}: {type_.removeprefix('!fabric.')}"


def _placements(b: AdgBuilder) -> dict[str, Placement]:
    placed = {n: p for n, p in b.viz.placements.items() if n in b.nodes}
    bottom = max((p.y for p in placed.values()), default=0.0) + STEP
    left = min((p.x for p in placed.values()), default=0.0)
    k = 0
    for name in b.nodes:
        if name not in placed:
            placed[name] = Placement(left + k * STEP, bottom)
            k += 1
    return placed


def viz_document(b: AdgBuilder) -> dict[str, Any]:
    from loom.fabric.builder import MODULE_IN, MODULE_OUT
    placed = _placements(b)
    xs = [p.x for p in placed.values()] or [0.0]
    ys = [p.y for p in placed.values()] or [0.0]
    top, bottom, left = min(ys) - STEP, max(ys) + STEP, min(xs)
    components = []
    for name, node in b.nodes.items():
        p = placed[name]
        w, h = _box(node)
        comp: dict[str, Any] = {"name": name, "kind": node.kind, "center_x": p.x,
                                "center_y": p.y, "width": w, "height": h}
        if p.row is not None:
            comp["grid_row"] = p.row
        if p.col is not None:
            comp["grid_col"] = p.col
        components.append(comp)

    def point(node: str, port: int) -> dict[str, float]:
        if node == MODULE_IN:
            return {"x": left + port * STEP / 2, "y": top}
        if node == MODULE_OUT:
            return {"x": left + port * STEP / 2, "y": bottom}
        return {"x": placed[node].x, "y": placed[node].y}

    routes = [{"from": src.node, "from_port": src.port, "to": dst.node, "to_port": dst.port,
               "points": [point(src.node, src.port), point(dst.node, dst.port)]}
              for dst, src in b.drivers.items()]
    return {
        "version": VERSION,
        "moduleInputLabels": [_label(p.name, p.type) for p in b.inputs],
        "moduleOutputLabels": [_label(p.name, p.type) for p in b.outputs],
        "components": components,
        "routes": routes,
    }
