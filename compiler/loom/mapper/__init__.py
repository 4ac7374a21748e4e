"""The mapper: a kernel's DFG placed and routed onto an ADG, checked against
LOOM's constraints C1-C11, and written as LOOM's map and config artifacts
(`loom map`, `loom config decode`; docs/design.md section 10).

- kernel_map: the library behind `loom map` and `loom sim --adg`; command
  and decode_command parse arguments.
- dfg_graph, dfg_ops: the DFG as LOOM's mapper numbers it.
- adg_graph, inventory, bridges, wires, sites: the ADG as the mapper sees it.
- matching, port_types, memory_binding, precheck: which hardware can host
  which op or memory.
- placement, annealing, router, mapping: the search; checks, diagnosis:
  the result's constraints and the one-line failure.
- config_values, config_files, map_json, map_text, viz_html, artifacts,
  stats: the configuration and the artifacts.
"""
