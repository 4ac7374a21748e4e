"""Fabric RTL: one SystemVerilog module per configured component kind, a
config store and the fabric top (design.md section 9)."""
