"""The IR dialects, defined with xDSL: `handshake` (CIRCT/LOOM syntax, with
seed 004's explicit channel types), seed 001's `dataflow`, a few upstream
`arith` ops xDSL lacks, and LOOM's `fabric` dialect for architecture
description graphs (ADGs).

Modules: handshake, handshake_memory, handshake_channels, channel_types,
edge_checks and syntax (the software DFG); dataflow; arith_extras;
fabric, fabric_pe, fabric_switch, fabric_memory, fabric_tag,
fabric_component, fabric_types, fabric_syntax and fabric_graph (the ADG,
parsed and verified with LOOM's messages). docs/design.md section 3 and 9.
"""
