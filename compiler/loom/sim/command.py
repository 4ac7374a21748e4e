"""`loom sim`: the whole flow on Verilator through cocotb, and its report.

compile -> lower -> golden run -> RTL -> harness -> Verilator build (cached)
-> run under seeded stalls -> per-channel trace comparison, results and
memories against the native C run -> DIR/<name>.sim.json.
Exit status: 0 pass, 1 mismatch or deadlock, 2 bad input.
"""

from __future__ import annotations

import argparse
import json
import time
from pathlib import Path
from typing import Any

from loom.bundle import compare, load_bundle
from loom.golden.command import prepare
from loom.golden.run import find_func, run_dfg
from loom.ir import load_module
from loom.rtl.command import write_rtl
from loom.sim.compare import (
    first_divergence,
    read_memory,
    read_trace,
    rtl_outcome,
    short_channels,
    stuck_channels,
)
from loom.sim.harness import MEM_MODEL, RunSettings, memory_ports, render_tb, run_plusargs
from loom.sim.runner import SimBuild

MAX_LINES = 12


def sim_main(args: argparse.Namespace) -> int:
    t0 = time.perf_counter()
    args.bundle = None
    inputs = prepare(args)
    t_compile = time.perf_counter() - t0
    bundle = load_bundle(inputs.bundle)
    func = find_func(load_module(inputs.dfg), args.top, str(inputs.dfg))
    golden = run_dfg(func, bundle, str(inputs.dfg))
    if not golden.ok:
        print(f"FAIL: the golden model itself fails on {inputs.dfg}:")
        for line in golden.problems()[:MAX_LINES]:
            print(f"  {line}")
        return 1

    rtl = write_rtl(inputs.dfg, inputs.out_dir, inputs.name, args.top)
    tb_module, tb_text = render_tb(rtl.netlist, rtl.top_module)
    sim_dir = inputs.out_dir / "sim"
    sim_dir.mkdir(parents=True, exist_ok=True)
    tb_file = sim_dir / f"{tb_module}.sv"
    tb_file.write_text(tb_text)
    sources = [*rtl.unit_files, rtl.top_file, MEM_MODEL, tb_file]
    build = SimBuild(tb_module, sources, inputs.out_dir / "sim_build", waves=args.waves)
    print(f"sim: building {tb_module} with Verilator ({len(sources)} files)", flush=True)
    t_build = build.build()

    run_dir = sim_dir / f"seed{args.seed}"
    run_dir.mkdir(parents=True, exist_ok=True)
    settings = RunSettings(seed=args.seed)
    plusargs = run_plusargs(rtl.netlist, bundle, run_dir, settings)
    golden_tokens = sum(len(v) for v in golden.execution.traces.values())
    max_cycles = 1000 + 200 * golden_tokens
    print(f"sim: running seed {args.seed}", flush=True)
    result = build.run(run_dir, plusargs, max_cycles)

    trace = read_trace(run_dir / "trace.txt")
    memories = dict(golden.execution.memories)  # memref args no port touches stay as they were
    for m in memory_ports(rtl.netlist):
        memories[m.arg_index] = read_memory(run_dir / f"out_{m.prefix}.hex")
    outcome = rtl_outcome(rtl.netlist, trace, memories)
    divergence = first_divergence(rtl.netlist, trace, golden.execution.traces)
    mismatches = compare(bundle, outcome) if result["status"] == "finished" else []

    problems: list[str] = []
    if result["status"] != "finished":
        problems.append(f"{result['status']}: the kernel did not finish")
        stuck = stuck_channels(rtl.netlist, trace)
        if stuck:
            problems.append("stuck at valid && !ready: " + ", ".join(stuck[:MAX_LINES]))
        short = short_channels(rtl.netlist, trace, golden.execution.traces)
        if short:
            problems.append("short of golden tokens: " + ", ".join(short[:MAX_LINES]))
    if result.get("mem_error"):
        problems.append("a memory model saw an out-of-range address (see sim.log)")
    if divergence is not None:
        problems.insert(0, divergence.describe())
    problems += [f"mismatch against the native run: {m}" for m in mismatches]

    passed = not problems
    wall = time.perf_counter() - t0
    report: dict[str, Any] = {
        "kernel": inputs.name, "status": "pass" if passed else "fail", "seed": args.seed,
        "sim_status": result["status"], "cycles": trace.last_cycle, "tokens": trace.tokens,
        "golden_tokens": golden_tokens, "channels": len(rtl.netlist.channels),
        "instances": len(rtl.netlist.instances), "buffers": rtl.netlist.buffers,
        "problems": problems,
        "seconds": {"compile": round(t_compile, 3), "build": round(t_build, 3),
                    "simulate": round(result["seconds"], 3), "total": round(wall, 3)},
        "cycles_per_second": round(trace.last_cycle / result["seconds"]) if result["seconds"] else 0,
        "artifacts": {"rtl": str(rtl.file_list), "trace": str(run_dir / "trace.txt"),
                      "log": str(run_dir / "sim.log")},
    }
    if args.waves:
        report["artifacts"]["waves"] = str(run_dir / "dump.fst")
    report_path = inputs.out_dir / f"{inputs.name}.sim.json"
    report_path.write_text(json.dumps(report, indent=1) + "\n")

    verdict = "PASS" if passed else "FAIL"
    print(f"{verdict}: {inputs.name} seed {args.seed}: {trace.last_cycle} cycles, "
          f"{trace.tokens} tokens on {len(rtl.netlist.channels)} channels, "
          f"wall {wall:.1f} s (build {t_build:.1f} s, simulate {result['seconds']:.1f} s)")
    for line in problems[:MAX_LINES]:
        print(f"  {line}")
    print(f"  report {report_path}; RTL file list {rtl.file_list}")
    if args.waves:
        print(f"  waves {report['artifacts']['waves']}")
    return 0 if passed else 1
