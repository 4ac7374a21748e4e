"""`loom sim`: compile, golden run, RTL, Verilator simulation, comparison.

Until the RTL emitter and the kernel testbench exist, it runs the stages that
do (compile and the golden model), says which are missing and exits 2.
"""

from __future__ import annotations

import argparse

from loom.diagnostics import NotBuiltError
from loom.golden.command import run_main

MISSING = ("loom rtl (the netlist emitter)", "the Verilator/cocotb kernel simulation")


def sim_main(args: argparse.Namespace) -> int:
    print(f"loom sim {args.kernel}: stages that exist: compile, golden model")
    args.stage, args.bundle, args.max_steps = "dfg", None, 50_000_000
    status = run_main(args)
    if status != 0:
        return status
    raise NotBuiltError("not built yet: " + "; ".join(MISSING) +
                        " (the stages above ran and passed)")
