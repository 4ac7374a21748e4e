"""The fabric: LOOM's architecture description graph (ADG) and everything
built from it except the mapper.

- adg_view: the one typed model of an ADG every consumer reads;
  adg_file: where a run's ADG comes from, parsed once.
- builder, emit, function_units, topology, memory_bridge, lane_ring,
  presets, viz: the ADG builder and the preset fabrics (`loom adg`,
  command), with their visualization sidecar; summary: one line per ADG.
- config_layout: every config slice and field, in LOOM's order.
- models: reference models of configured components; rtl: the fabric RTL.

docs/design.md section 9; one page per component in docs/fabric/.
"""
