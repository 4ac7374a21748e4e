"""The whole flow on Verilator through cocotb (`loom sim`).

Direct RTL: flow (setup and seeded runs), harness, runner (Verilator
builds), profiles (stalls and memory latency), compare (traces against the
golden model), live (progress). On a fabric: fabric_flow, fabric_harness,
fabric_edges (where each DFG edge is watched) and fabric_check. command is
the command line. docs/design.md sections 6 and 9.
"""
