"""`<dfg>.<adg>.map.txt`: the human-readable mapping report in LOOM's layout
(ConfigGenText.cpp): the summaries, then node placements, edge routings,
temporal registers, PE utilization and memory regions."""

from __future__ import annotations

import re

from loom.mapper.config_values import FabricConfig
from loom.mapper.mapping import Mapping
from loom.mapper.temporal_registers import register_bindings, register_edges
from loom.mapper.throughput import Throughput

_GRID = re.compile(r"_(\d+)_(\d+)$")
"""LOOM reads a PE's grid position from its `pe_<r>_<c>` name."""


def _placements(m: Mapping) -> list[str]:
    lines = []
    for n in m.sw.nodes:
        text = f"DFG[{n.id}] {n.op_name}"
        if n.kind == "input":
            text += " (input sentinel)"
        elif n.kind == "output":
            text += " (output sentinel)"
        chosen = m.option_of(n.id)
        if chosen is not None:
            hw = m.adg.nodes[chosen.hw_node]
            text += f" -> ADG[{hw.id}] {hw.name}" + (f" (PE: {hw.pe})" if hw.pe else "")
            if (host := m.problem.host_of(n.id)) != n.id:
                text += f" (folded into DFG[{host}])"
        else:
            text += " -> MEMORY_INTERFACE_BINDING" if n.is_memref_input else " -> UNMAPPED"
        lines.append(text)
    return lines


def _routings(m: Mapping) -> list[str]:
    lines = []
    registers = register_edges(m.problem, m.placement)
    for e in m.sw.edges:
        path = m.paths[e.id]
        if path is None:
            what = "UNROUTED"
        elif e.id in registers:
            what = "TEMPORAL_REG"
        elif not path:
            what = "INTRA_FU"
        elif len(path) == 2 and path[0] == path[1]:
            what = "MEMORY_INTERFACE_BINDING"
        else:
            what = "[" + ", ".join(map(str, path)) + "]"
        lines.append(f"Edge[{e.id}] node {e.src} -> node {e.dst} : {what}")
    return lines


def _registers(m: Mapping) -> list[str]:
    lines = [f"{b.pe_name} reg[{b.register_index}] <- edge[{b.sw_edge}] writer_sw="
             f"{b.writer_sw_node} reader_sw={b.reader_sw_node} writer_out="
             f"{b.writer_output_index} reader_in={b.reader_input_index}"
             for b in register_bindings(m.problem, m.placement)]
    return lines or ["(none)"]


def _utilization(m: Mapping) -> list[str]:
    hosted: dict[int, list[str]] = {}
    for n in range(len(m.sw.nodes)):
        chosen = m.option_of(n)
        if chosen is not None and chosen.candidate is not None:
            hosted.setdefault(chosen.hw_node, []).append(m.sw.nodes[n].op_name)
    lines = []
    for pe in dict.fromkeys(n.pe for n in m.adg.nodes if n.pe):
        grid = _GRID.search(pe)
        where = f"({grid.group(1)},{grid.group(2)})" if grid else "(-1,-1)"
        used = [n for n in m.adg.nodes if n.pe == pe and n.id in hosted]
        lines += [f"{pe} {where}: {n.name} <- [{', '.join(hosted[n.id])}]" for n in used]
        if not used:
            lines.append(f"{pe} {where}: unused")
    return lines


def _memories(m: Mapping, config: FabricConfig, regions_of: dict[str, int]) -> list[str]:
    lines = []
    for node in m.adg.nodes:
        if node.resource_class != "memory":
            continue
        count = regions_of.get(node.name, 1)
        lines.append(f"ADG[{node.id}] {node.name} ({node.kind}) numRegion={count}")
        for r in config.regions.get(node.id, []):
            lines.append(f"  region[{r.region_index}] <- DFG[{r.sw_node}] memref_arg="
                         f"{r.memref_arg_index} lane_range=[{r.start_lane}, {r.end_lane}) "
                         f"ld={r.ld_count} st={r.st_count} elem_size_log2={r.elem_size_log2}")
        values = config.values.get(node.name, {})
        table = [values.get(f"region{k}.{f}", 0) for k in range(count)
                 for f in ("valid", "start_lane", "end_lane", "addr_offset", "elem_size_log2")]
        lines.append(f"  addr_offset_table = [{', '.join(map(str, table))}]")
    return lines


def map_text(m: Mapping, config: FabricConfig, regions_of: dict[str, int],
             model: Throughput) -> str:
    """The text of `<dfg>.<adg>.map.txt`."""
    placed = sum(1 for n in m.sw.nodes if n.kind == "op" and m.placement.chosen[n.id] is not None)
    sections = [
        ["=== Mapping Report ===", ""],
        ["--- Techmap Summary ---", f"selected_units: {placed}", ""],
        ["--- Search Summary ---", "(not available)", ""],
        ["--- Timing Summary ---", "fifo buffering only: mapper_selected_buffered_fifo_count: 0",
         ""],
        ["--- Throughput ---", *model.lines(), ""],
        ["--- Node Placements ---", *_placements(m)],
        ["", "--- Edge Routings ---", *_routings(m)],
        ["", "--- Temporal Registers ---", *_registers(m)],
        ["", "--- PE Utilization ---", *_utilization(m)],
        ["", "--- Memory Regions ---", *_memories(m, config, regions_of)],
    ]
    return "\n".join(line for section in sections for line in section) + "\n"


__all__ = ["map_text"]
