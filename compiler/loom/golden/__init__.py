"""The golden model: the DFG run as Kahn actors, the single source of op
semantics (docs/design.md section 4).

Modules: actor (the op contract), channel, graph and build (a graph from a
handshake.func), rules (firing rules as code fragments) and codegen (one
Python function per graph), scheduler and sweep_order (the deterministic
sweep), values, run (a run on a bundle and its report), loop_report,
command (`loom run`); ops holds one module per op family.
"""
