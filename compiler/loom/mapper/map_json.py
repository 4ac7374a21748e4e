"""`<dfg>.<adg>.map.json`: the mapping in LOOM's layout (ConfigGen.cpp and
ConfigGenMapJsonTail.cpp; docs/loom-fabric-notes.md section 4.2).

Keys in LOOM's order: seed, techmap, search, timing, node_mappings,
edge_routings, port_table, switch_routes, pe_routes, fu_configs,
tag_configs, fifo_configs, temporal_registers, memory_regions; one entry a
line, as LOOM prints them. Our techmap section is LOOM's shape in small: a
support class per unit definition, a config class per distinct payload, a
candidate per (op, unit definition), the selected units and per-node info;
search is `{"available": false}` (we run none of LOOM's search stages);
timing carries only LOOM's FIFO-buffering fields (the mapper never
changes a FIFO's bypass: its selected count is 0; forced are the FIFOs on
routes that cannot bypass or are not bypassed), no delay estimates. Ours
after it: throughput, the mapping's throughput model (throughput.py: the
expected II, and per loop its bound, the direct RTL's, the critical
recurrence and the registers of its routes), one line.
"""

from __future__ import annotations

import json
from collections.abc import Iterable
from dataclasses import asdict, dataclass, field
from typing import Any

from xdsl.ir import Operation

from loom.dialects import fabric_syntax as fs
from loom.fabric import config_layout as cl
from loom.mapper.adg_graph import AdgGraph
from loom.mapper.config_values import FabricConfig
from loom.mapper.mapping import Mapping
from loom.mapper.throughput import Throughput
from loom.mapper.placement import Option
from loom.mapper.temporal_registers import register_bindings, register_edges
from loom.fabric.adg_view import AdgView
from loom.mapper.inventory import hw_memories

PORT_KINDS = {"spatial_sw": "sw", "temporal_sw": "temporal_sw", "add_tag": "add_tag",
              "map_tag": "map_tag", "del_tag": "del_tag", "fifo": "fifo"}


# --- tech-mapping classes ---------------------------------------------------------------


@dataclass
class Classes:
    """Support classes (unit definitions) and config classes (unit + payload)."""

    support: dict[str, int] = field(default_factory=dict)
    config: dict[str, int] = field(default_factory=dict)

    def of(self, option: Option) -> tuple[int, int]:
        c = option.candidate
        assert c is not None
        key = f"{c.unit}|{','.join(f'{n}={v}' for n, v in c.fields)}"
        return (self.support.setdefault(c.unit, len(self.support)),
                self.config.setdefault(key, len(self.config)))


def _techmap(m: Mapping, classes: Classes) -> dict[str, Any]:
    """Candidates and selected units per host: a compound unit's lists its
    folded constants too (`sw_nodes`, LOOM's contracted units)."""
    candidates: list[dict[str, Any]] = []
    info: list[dict[str, Any]] = []
    selected: list[dict[str, Any]] = []
    covers = _covers(m)
    by_node: dict[int, tuple[list[int], int | None]] = {}
    for n in m.sw.nodes:
        if n.kind != "op" or n.id not in covers:
            continue
        chosen = m.placement.chosen[n.id]
        ids = []
        for unit in dict.fromkeys(o.candidate.unit for o in m.problem.options[n.id]
                                  if o.candidate is not None):
            pool = [o for o in m.problem.options[n.id]
                    if o.candidate is not None and o.candidate.unit == unit]
            is_chosen = chosen is not None and chosen.candidate is not None and \
                chosen.candidate.unit == unit
            ids.append(len(candidates))
            candidates.append({"candidate_id": len(candidates), "sw_nodes": covers[n.id],
                               "hw_name": unit, "hw_node_count": len({o.hw_node for o in pool}),
                               "selected": is_chosen})
        unit_id = None
        if chosen is not None:
            unit_id = len(selected)
            support, config = classes.of(chosen)
            selected.append({"unit_id": unit_id, "sw_nodes": covers[n.id],
                             "hw_node": chosen.hw_node,
                             "hw_name": m.adg.nodes[chosen.hw_node].name,
                             "pe_name": m.adg.nodes[chosen.hw_node].pe,
                             "support_class_id": support, "config_class_id": config})
        for k in covers[n.id]:
            by_node[k] = (ids, unit_id)
    info = [{"sw_node": k, "candidate_ids": by_node[k][0], "selected_unit_id": by_node[k][1]}
            for k in sorted(by_node)]
    fused = sum(len(c) for c in covers.values() if len(c) > 1)
    return {
        "contract_version": 1, "selected_plan_kind": "single_op",
        "selected_fused_op_count": fused,
        "selected_internal_edge_count": sum(1 for p in m.paths if p == []),
        "layer2_handoff_status": "ready", "layer2_handoff_blockers": [],
        "support_classes": [{"id": i, "key": k, "kind": "spatial", "temporal": False,
                             "enforce_hard_capacity": True}
                            for k, i in classes.support.items()],
        "config_classes": [{"id": i, "key": k, "reason": "spatial", "temporal": False,
                            "compatible_with": []} for k, i in classes.config.items()],
        "candidates": candidates, "selected_units": selected, "node_tech_info": info,
        "conservative_fallback_plan": {"available": False},
    }


# --- sections ------------------------------------------------------------------------


def _covers(m: Mapping) -> dict[int, list[int]]:
    """Each op node that places itself -> the DFG nodes its unit hosts (itself first)."""
    covers = {n.id: [n.id] for n in m.sw.nodes if m.problem.host_of(n.id) == n.id}
    for n in m.sw.nodes:
        if (host := m.problem.host_of(n.id)) != n.id:
            covers[host].append(n.id)
    return covers


def _node_mappings(m: Mapping, classes: Classes) -> list[dict[str, Any]]:
    rows = []
    for n in m.sw.nodes:
        chosen = m.option_of(n.id)
        if n.kind not in ("op", "memory") or chosen is None:
            continue
        row: dict[str, Any] = {"sw_node": n.id, "hw_node": chosen.hw_node, "sw_op": n.op_name}
        if chosen.candidate is not None:
            support, config = classes.of(chosen)
            row |= {"support_class_id": support, "config_class_id": config}
        hw = m.adg.nodes[chosen.hw_node]
        rows.append(row | {"hw_name": hw.name, "pe_name": hw.pe})
    return rows


def _edge_routings(m: Mapping) -> list[dict[str, Any]]:
    rows: list[dict[str, Any]] = []
    registers = register_edges(m.problem, m.placement)
    for e in m.sw.edges:
        path = m.paths[e.id]
        if path is None:
            rows.append({"sw_edge": e.id, "kind": "unrouted", "path": []})
        elif e.id in registers:   # between two slots of a temporal PE
            rows.append({"sw_edge": e.id, "kind": "temporal_reg", "path": []})
        elif not path:   # LOOM's intra-FU edge: absorbed by a compound unit
            host = m.option_of(e.src)
            rows.append({"sw_edge": e.id, "kind": "intra_fu",
                         **({"hw_node": host.hw_node} if host is not None else {}), "path": []})
        else:
            rows.append({"sw_edge": e.id, "kind": "routed", "path": path})
    return rows


def port_row(g: AdgGraph, pid: int) -> dict[str, Any]:
    port = g.ports[pid]
    node = g.nodes[port.node]
    row: dict[str, Any] = {"id": pid}
    if node.kind in ("module_in", "module_out"):
        row |= {"kind": node.kind, "index": node.index}
    elif node.resource_class == "routing":
        row |= {"kind": PORT_KINDS.get(node.kind, "sw"), "name": node.name, "index": port.index}
    elif node.resource_class == "memory":
        row |= {"kind": "memory", "name": node.name, "index": port.index}
    else:
        row |= {"kind": "fu", "pe": node.pe, "fu": node.name, "index": port.index}
    return row | {"dir": port.direction}


def _switch_routes(m: Mapping) -> list[dict[str, Any]]:
    routes: dict[tuple[str, int, int], dict[str, Any]] = {}
    for e in m.sw.edges:
        path = m.paths[e.id] or []
        for a, b in zip(path[1::2], path[2::2]):
            node = m.adg.nodes[m.adg.ports[a].node]
            if node.kind not in ("spatial_sw", "temporal_sw"):
                continue
            key = (node.name, m.adg.ports[a].index, m.adg.ports[b].index)
            entry = routes.setdefault(key, {
                "component": node.name, "input_port_id": a, "output_port_id": b,
                "input_port": key[1], "output_port": key[2], "sw_edges": []})
            entry["sw_edges"].append(e.id)
    return [routes[k] for k in sorted(routes)]


def _pe_routes(m: Mapping) -> list[dict[str, Any]]:
    """Each PE port a route enters or leaves by, with the unit port behind it."""
    wires = m.wires
    routes: dict[tuple[str, str, str, str], dict[str, Any]] = {}
    for e in m.sw.edges:
        path = m.paths[e.id] or []
        for a, b in zip(path[0::2], path[1::2]):
            wire = wires.get((a, b))
            if wire is None:
                continue
            sides = [(m.adg.ports[b], "in", wire.pe_input_index),
                     (m.adg.ports[a], "out", wire.pe_output_index)]
            for fu, way, pe_index in sides:
                if pe_index < 0:
                    continue
                unit = m.adg.nodes[fu.node]
                key = (unit.pe, way, f"{unit.pe}_{way}_{pe_index}",
                       f"{unit.pe}/{unit.name}/{way}_{fu.index}")
                entry = routes.setdefault(key, {"pe_name": key[0], "direction": way,
                                                "pe_port_key": key[2], "fu_port_key": key[3],
                                                "sw_edges": []})
                entry["sw_edges"].append(e.id)
    return [routes[k] for k in sorted(routes)]


_DISPLAY = {"mux": "sel", "constant_value": "value", "cmpi_predicate": "predicate",
            "cmpf_predicate": "predicate"}


def _field_row(ff: cl.FUField, body: list[Operation], values: dict[str, int]) -> dict[str, Any]:
    prefix = f"fu.{ff.op_index}"
    value = values.get(f"{prefix}.sel" if ff.kind == "mux" else f"{prefix}.value", 0)
    if ff.kind == "stream_cont_cond":
        names = [c for c, bit in cl.CONT_COND_BITS.items() if bit == value]
        display = f"cont_cond={names[0] if names else value}"
    elif ff.kind == "join_mask":
        display = f"join_mask=0b{value:0{ff.width}b}"
    else:
        display = f"{_DISPLAY[ff.kind]}={value}"
    row: dict[str, Any] = {"op_index": ff.op_index, "op_name": body[ff.op_index].name,
                           "kind": ff.kind, "bit_width": ff.width, "value": value,
                           "display": display}
    if ff.kind == "mux":
        row |= {"sel": value, "discard": False, "disconnect": False}
    return row


def _fu_row(m: Mapping, classes: Classes, n: int, chosen: Option) -> dict[str, Any]:
    c = chosen.candidate
    assert c is not None
    definition = m.problem.unit_definitions[(c.pe, c.opcode)]
    body = [op for op in definition.regions[0].block.ops if op.name != "fabric.yield"]
    values = dict(c.fields)
    support, config = classes.of(chosen)
    return {"hw_node": chosen.hw_node, "hw_name": c.unit, "pe_name": c.pe,
            "support_class_id": support, "config_class_id": config, "sw_nodes": [n],
            "fields": [_field_row(ff, body, values) for ff in cl.fu_layout(definition).fu_fields]}


def _fu_configs(m: Mapping, classes: Classes) -> list[dict[str, Any]]:
    return [_fu_row(m, classes, n, o) for n, o in enumerate(m.placement.chosen)
            if o is not None and o.candidate is not None]


def _tag_and_fifo_configs(config: FabricConfig, definitions: dict[str, Operation]
                          ) -> tuple[list[dict[str, Any]], list[dict[str, Any]]]:
    tags, fifos = [], []
    for s in config.layout.slices:
        values = config.values.get(s.name, {})
        complete = config.complete.get(s.name, True)
        if s.kind == "add_tag":
            tags.append({"name": s.name, "kind": s.kind, "complete": complete,
                         "tag": values.get("tag", 0)})
        elif s.kind == "map_tag":
            size = len(s.fields) // 3
            widths = (s.fields[1].width, s.fields[2].width) if size else (0, 0)
            tags.append({"name": s.name, "kind": s.kind, "complete": complete,
                         "table_size": size, "input_tag_width": widths[0],
                         "output_tag_width": widths[1],
                         "table": [{"valid": bool(values.get(f"entry{e}.valid", 0)),
                                    "src_tag": values.get(f"entry{e}.src_tag", 0),
                                    "dst_tag": values.get(f"entry{e}.dst_tag", 0)}
                                   for e in range(size)]})
        elif s.kind == "fifo" and s.fields:
            op = definitions.get(s.name)
            depth = (fs.int_param(op, "depth", 0) or 0) if op is not None else 0
            fifos.append({"name": s.name, "complete": complete, "bypassable": True,
                          "bypassed": bool(values.get("bypassed", 0)), "depth": max(0, depth)})
    return tags, fifos


def _timing(m: Mapping, config: FabricConfig) -> dict[str, Any]:
    on_routes = sorted({m.adg.ports[p].node for path in m.paths if path is not None
                        for p in path if m.adg.nodes[m.adg.ports[p].node].kind == "fifo"})
    buffered = [n for n in on_routes
                if not config.values.get(m.adg.nodes[n].name, {}).get("bypassed", 0)]
    return {"available": True, "fifo_buffer_count": len(buffered),
            "forced_buffered_fifo_count": len(buffered), "forced_buffered_fifo_nodes": buffered,
            "forced_buffered_fifo_depths": [], "mapper_selected_buffered_fifo_count": 0,
            "mapper_selected_buffered_fifo_nodes": [], "mapper_selected_buffered_fifo_depths": [],
            "bufferized_edges": []}


def _memory_regions(m: Mapping, config: FabricConfig, view: AdgView) -> list[dict[str, Any]]:
    regions_of = {hw.name: hw.num_region for hw in hw_memories(view)}
    rows = []
    for node in m.adg.nodes:
        if node.resource_class != "memory":
            continue
        count = regions_of.get(node.name, 1)
        regions = config.regions.get(node.id, [])
        values = config.values.get(node.name, {})
        table = [values.get(f"region{r}.{f}", 0) for r in range(count)
                 for f in cl.REGION_FIELD_NAMES]
        rows.append({"hw_node": node.id, "hw_name": node.name, "memory_kind": node.kind,
                     "num_region": count,
                     "regions": [{"region_index": r.region_index, "sw_node": r.sw_node,
                                  "memref_arg_index": r.memref_arg_index,
                                  "start_lane": r.start_lane, "end_lane": r.end_lane,
                                  "ld_count": r.ld_count, "st_count": r.st_count,
                                  "elem_size_log2": r.elem_size_log2} for r in regions],
                     "addr_offset_table": table})
    return rows


# --- writing -----------------------------------------------------------------------------


def _rows(rows: Iterable[Any]) -> str:
    lines = [f"    {json.dumps(r)}" for r in rows]
    return "[\n" + ",\n".join(lines) + "\n  ]" if lines else "[\n  ]"


def _object(d: dict[str, Any]) -> str:
    inner = ",\n".join(f"    {json.dumps(k)}: {json.dumps(v)}" for k, v in d.items())
    return "{\n" + inner + "\n  }"


def map_json(m: Mapping, config: FabricConfig, view: AdgView, model: Throughput) -> str:
    """The text of `<dfg>.<adg>.map.json`."""
    definitions = {n.name: n.definition for n in view.nodes}
    classes = Classes()
    techmap = _techmap(m, classes)
    tags, fifos = _tag_and_fifo_configs(config, definitions)
    parts = [
        f'  "seed": {m.seed}',
        f'  "techmap": {_object(techmap)}',
        '  "search": {\n    "available": false\n  }',
        f'  "timing": {_object(_timing(m, config))}',
        f'  "throughput": {json.dumps(model.summary())}',
        f'  "node_mappings": {_rows(_node_mappings(m, classes))}',
        f'  "edge_routings": {_rows(_edge_routings(m))}',
        f'  "port_table": {_rows(port_row(m.adg, p) for p in range(len(m.adg.ports)))}',
        f'  "switch_routes": {_rows(_switch_routes(m))}',
        f'  "pe_routes": {_rows(_pe_routes(m))}',
        f'  "fu_configs": {_rows(_fu_configs(m, classes))}',
        f'  "tag_configs": {_rows(tags)}',
        f'  "fifo_configs": {_rows(fifos)}',
        f'  "temporal_registers": {_rows(map(asdict, register_bindings(m.problem, m.placement)))}',
        f'  "memory_regions": {_rows(_memory_regions(m, config, view))}',
    ]
    return "{\n" + ",\n".join(parts) + "\n}\n"


__all__ = ["map_json", "port_row"]
