"""`<dfg>.<adg>.viz.html`: one self-contained page (no network) showing the
fabric, the placed ops with their C lines and every DFG edge's route (LOOM's
VizExporter.cpp, exportVizWithMapping; docs/spec-viz.md).

As LOOM's page, it carries its data as script constants:

    ADG_DATA         the flattened fabric: components (a PE with its units) and links
    ADG_LAYOUT_DATA  the ADG's viz sidecar (`<adg>.fabric.viz.json`, named by the
                     fabric.module's viz_file attribute, relative to the ADG file);
                     without one, the same schema with the components on a grid
    DFG_DATA         LOOM's DFG JSON: nodes and edges numbered as map.json's sw_node
                     and sw_edge (dfg_graph.py), each op with its C line
    MAPPING_DATA     map.json, as written
    SIM_TRACE_DATA   null (no trace playback)

The renderer (templates/viz.html.j2 with viz_renderer.js) draws plain SVG;
LOOM bundles D3 and Graphviz, which this page does not need.
"""

from __future__ import annotations

import json
import math
from pathlib import Path
from typing import Any

from xdsl.dialects.builtin import MemRefType, NoneType, StringAttr
from xdsl.ir import Block

from loom.dfg_names import name_dfg
from loom.fabric.viz import STEP, VERSION
from loom.ir import op_location
from loom.mapper.adg_graph import AdgGraph, AdgNode
from loom.mapper.mapping import Mapping
from loom.mapper.dfg_graph import DfgEdge, DfgGraph, DfgNode
from loom.fabric.adg_view import AdgView
from loom.rtl.render import template_environment

TEMPLATE = "viz.html.j2"


# --- ADG_DATA ------------------------------------------------------------------------------


def component_of(node: AdgNode) -> str:
    """The drawn component a flattened node belongs to (a unit: its PE)."""
    if node.kind in ("module_in", "module_out"):
        return node.kind
    return node.pe if node.kind == "fu" else node.name


def _component_kind(node: AdgNode) -> str:
    """A unit's PE is temporal when it has instruction slots."""
    if node.kind != "fu":
        return node.kind
    return "temporal_pe" if node.slots else "spatial_pe"


def adg_data(g: AdgGraph, name: str) -> dict[str, Any]:
    components: dict[str, dict[str, Any]] = {}
    for node in g.nodes:
        if node.kind in ("module_in", "module_out"):
            continue
        comp = components.setdefault(component_of(node), {
            "name": component_of(node), "kind": _component_kind(node), "units": []})
        if node.kind == "fu":
            comp["units"].append(node.name)
    links: dict[tuple[str, int, str, int], None] = {}
    for e in g.edges:
        src, dst = g.ports[e.src], g.ports[e.dst]
        a, b = g.nodes[src.node], g.nodes[dst.node]
        from_port = e.pe_output_index if a.kind == "fu" else (
            a.index if a.kind == "module_in" else src.index)
        to_port = e.pe_input_index if b.kind == "fu" else (
            b.index if b.kind == "module_out" else dst.index)
        links[(component_of(a), from_port, component_of(b), to_port)] = None
    return {"name": name, "components": list(components.values()),
            "links": [{"from": a, "from_port": i, "to": b, "to_port": j}
                      for a, i, b, j in links]}


# --- ADG_LAYOUT_DATA -----------------------------------------------------------------------


def sidecar(view: AdgView, adg_path: Path | None) -> tuple[dict[str, Any] | None, str]:
    """(the ADG's viz sidecar, or None; why there is none)."""
    attr = view.top.attributes.get("viz_file")
    if not isinstance(attr, StringAttr):
        return None, "the ADG names no viz_file"
    path = Path(attr.data)
    if not path.is_absolute() and adg_path is not None:
        path = adg_path.parent / path
    if not path.is_file():
        return None, f"no viz sidecar {path}"
    return json.loads(path.read_text()), ""


def grid_layout(adg: dict[str, Any]) -> dict[str, Any]:
    """The sidecar schema for an ADG without one: components row by row on a
    square grid, module ports on a row above and below, straight routes."""
    comps = adg["components"]
    cols = max(1, math.ceil(math.sqrt(len(comps))))
    centers = {c["name"]: (STEP * (k % cols), STEP * (k // cols)) for k, c in enumerate(comps)}
    bottom = STEP * ((len(comps) - 1) // cols + 1) if comps else STEP

    def point(name: str, port: int) -> dict[str, float]:
        if name in ("module_in", "module_out"):
            return {"x": port * STEP / 2, "y": -STEP if name == "module_in" else bottom}
        x, y = centers[name]
        return {"x": x, "y": y}

    return {"version": VERSION, "inferred": True,
            "components": [{"name": c["name"], "kind": c["kind"], "center_x": centers[c["name"]][0],
                            "center_y": centers[c["name"]][1], "width": 120.0, "height": 120.0}
                           for c in comps],
            "routes": [{**link, "points": [point(link["from"], link["from_port"]),
                                           point(link["to"], link["to_port"])]}
                       for link in adg["links"]]}


# --- DFG_DATA ------------------------------------------------------------------------------


def _body(sw: DfgGraph) -> Block | None:
    for n in sw.nodes:
        if n.op is not None:
            return n.op.parent_block()
        if n.kind == "input" and n.value is not None:
            return n.value.block  # type: ignore[attr-defined]
    return None


def _source_line(file: str, line: int | None, cache: dict[str, list[str] | None]) -> str | None:
    if line is None:
        return None
    if file not in cache:
        try:
            cache[file] = Path(file).read_text(errors="replace").splitlines()
        except OSError:
            cache[file] = None
    lines = cache[file]
    return lines[line - 1].strip() if lines is not None and 0 < line <= len(lines) else None


def _edge_type(e: DfgEdge) -> str:
    if isinstance(e.value.type, MemRefType):
        return "memref"
    return "control" if isinstance(e.value.type, NoneType) else "data"


def dfg_data(sw: DfgGraph, func_name: str) -> dict[str, Any]:
    body = _body(sw)
    names = name_dfg(body) if body is not None else None
    sources: dict[str, list[str] | None] = {}

    def node_row(n: DfgNode) -> dict[str, Any]:
        row: dict[str, Any] = {"id": n.id, "kind": n.kind, "op": n.op_name}
        if n.op is not None:
            row["name"] = names.ops[n.op] if names else f"n{n.id}"
            where = op_location(n.op)
        else:
            key = "arg_index" if n.kind == "input" else "result_index"
            row[key] = n.index
            row["name"] = (names.values.get(n.value, "") if names and n.kind == "input"
                           and n.value is not None else "") or \
                f"{'arg' if n.kind == 'input' else 'result'}{n.index}"
            where = None
        row["type"] = str(n.value.type) if n.value is not None else ""
        row["loc"] = str(where) if where is not None and where.line is not None else None
        row["source"] = _source_line(where.file, where.line, sources) if where else None
        return row

    return {
        "func": func_name,
        "nodes": [node_row(n) for n in sw.nodes],
        "edges": [{"id": e.id, "from": e.src, "from_port": e.src_index, "to": e.dst,
                   "to_port": e.dst_index, "edge_type": _edge_type(e),
                   "value_type": str(e.value.type),
                   "name": names.values.get(e.value, "") if names else ""}
                  for e in sw.edges],
    }


# --- the page ------------------------------------------------------------------------------


def _script_json(doc: Any) -> str:
    """JSON that cannot end its <script> element early (LOOM's scriptSafe),
    spaced as LOOM's pages are (`"kind": "map_tag"`: its cases' check.py
    read the page's text)."""
    return json.dumps(doc).replace("</", "<\\/")


def viz_html(m: Mapping, view: AdgView, map_json_text: str, stem: str,
             adg_path: Path | None = None) -> str:
    """The text of `<stem>.viz.html` (stem: `<dfg>.<adg>`)."""
    dfg_name, _, adg_name = stem.partition(".")
    adg = adg_data(m.adg, adg_name or stem)
    layout, why = sidecar(view, adg_path)
    if layout is None:
        layout = grid_layout(adg) | {"inferred_because": why}
    return template_environment().get_template(TEMPLATE).render(
        title=f"{dfg_name} on {adg_name}" if adg_name else stem,
        adg=_script_json(adg), layout=_script_json(layout),
        dfg=_script_json(dfg_data(m.sw, dfg_name)),
        mapping=_script_json(json.loads(map_json_text)))


__all__ = ["adg_data", "dfg_data", "grid_layout", "sidecar", "viz_html"]
