"""Fabric RTL: one SystemVerilog module per configured component kind and
parameter set (modules, memory, fu for function units, graph for widths
and what cannot be built), the config store and the fabric top (top), and
`loom rtl --adg` (command). docs/design.md section 9; docs/fabric/.
"""
