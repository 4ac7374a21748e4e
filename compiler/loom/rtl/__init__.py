"""DFG to SystemVerilog for the direct flow: one unit per op, rendered from
templates/ (docs/design.md section 5).

Modules: units and op_units (unit families and which implements each op),
ports, render, catalog (the parameter sets every family is tested with),
netlist (the netlist and its liveness argument), buffer_placement and
timing (buffers sized for throughput), top (the kernel top), gates (lint
and synthesis), command (`loom rtl`).
"""
