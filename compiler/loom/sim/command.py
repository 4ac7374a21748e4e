"""`loom sim`: the whole flow on Verilator through cocotb, and its report.

compile -> lower -> golden run -> RTL -> harness -> Verilator build (cached)
-> run under seeded stalls (or none: --ideal) -> per-channel trace comparison, results and
memories against the native C run -> DIR/<name>.sim.json.
With --adg A the kernel runs on the fabric instead: compile for A, map,
fabric RTL (one Verilator build per ADG), config.bin streamed into the config
port, results and memories against the native run (loom.sim.fabric_flow).
Exit status: 0 pass, 1 mismatch, deadlock or failing golden run, 2 bad input
(and a kernel that does not map: the mapper's diagnosis).
"""

from __future__ import annotations

import argparse
import json
import time
from pathlib import Path

from loom.diagnostics import LoomError
from loom.inputs import KernelSource, prepare
from loom.progress import Progress
from loom.sim.flow import MAX_LINES, GoldenFailed, run_seed, setup
from loom.sim import profiles


def _fail(what: str, problems: list[str]) -> int:
    print(f"FAIL: {what}:")
    for line in problems[:MAX_LINES]:
        print(f"  {line}")
    return 1


def _write_report(report: dict, path: Path, **seconds: float) -> Path:
    """The run's report with the flow's own timings added, as DIR/<name>.sim.json."""
    report["seconds"].update({k: round(v, 3) for k, v in seconds.items()})
    path.write_text(json.dumps(report, indent=1) + "\n")
    return path


def sim_main(args: argparse.Namespace) -> int:
    if args.iface == "axi":
        from loom.export.command import sim_axi_main
        return sim_axi_main(args)
    if args.adg is not None:
        return fabric_sim_main(args)
    t0 = time.perf_counter()
    inputs = prepare(KernelSource.from_args(args))
    t_compile = time.perf_counter() - t0
    print(f"sim: {inputs.name}: compiled in {t_compile:.1f} s; golden run, RTL, "
          "Verilator build", flush=True)
    progress = Progress(enabled=args.progress)
    try:
        s = setup(inputs, args.top, waves=args.waves, progress=progress)
    except GoldenFailed as exc:
        return _fail(f"{inputs.name}: the golden model itself fails on {inputs.dfg}",
                     exc.problems)
    settings = profiles.IDEAL if args.ideal else profiles.for_seed(args.seed)
    run = "ideal (no stalls, memory latency 1)" if args.ideal else f"seed {args.seed}"
    print(f"sim: running {run}", flush=True)
    result = run_seed(s, settings, progress, full_trace=args.trace)
    wall = time.perf_counter() - t0
    report = result.report
    report_path = _write_report(report, inputs.out_dir / f"{inputs.name}.sim.json",
                                compile=t_compile, total=wall)

    verdict = "PASS" if result.passed else "FAIL"
    run = "ideal" if args.ideal else f"seed {args.seed}"
    print(f"{verdict}: {inputs.name} {run}: {report['cycles']} cycles, "
          f"{report['tokens']} tokens on {report['channels']} channels, wall {wall:.1f} s "
          f"(build {s.build_seconds:.1f} s, simulate {report['seconds']['simulate']:.1f} s)")
    for line in result.problems[:MAX_LINES]:
        print(f"  {line}")
    print(f"  report {report_path}; RTL file list {s.rtl.file_list}")
    if args.waves:
        print(f"  waves {report['artifacts']['waves']}")
    return 0 if result.passed else 1


def fabric_sim_main(args: argparse.Namespace) -> int:
    from loom.mapper.command import map_request
    from loom.sim import fabric_flow
    # the fabric run always records every DFG edge's tokens: --trace asks for nothing more
    if args.waves:
        raise LoomError("--waves is not supported with --adg yet")
    t0 = time.perf_counter()
    try:
        s = fabric_flow.setup(map_request(args, args.map_seed, args.map_rounds))
    except GoldenFailed as exc:
        return _fail(f"{args.kernel}: the golden model itself fails", exc.problems)
    t_setup = time.perf_counter() - t0
    settings = profiles.IDEAL if args.ideal else profiles.for_seed(args.seed)
    target = s.mapped.target.name
    print(f"sim: {s.name} mapped onto {target} ({len(s.words)} config words), fabric "
          f"build {s.build_seconds:.1f} s; running "
          f"{'ideal' if args.ideal else f'seed {args.seed}'}", flush=True)
    result = fabric_flow.run(s, settings)
    wall = time.perf_counter() - t0
    report = result.report
    report_path = _write_report(report, s.out_dir / f"{s.mapped.stem}.sim.json",
                                setup=t_setup, total=wall)
    verdict = "PASS" if result.passed else "FAIL"
    print(f"{verdict}: {s.name} on {target} {settings.name}: {report['cycles']} cycles "
          f"({report['config_cycles']} config, {report['kernel_cycles']} kernel; the model's "
          f"bound {report['throughput']['bound_cycles']}), "
          f"wall {wall:.1f} s (build {s.build_seconds:.1f} s, simulate "
          f"{report['seconds']['simulate']:.1f} s)")
    edges = report["edges"]
    print(f"  {edges['observed']} DFG edges compared where their routes end "
          f"({edges['tokens']} tokens)"
          + (f"; not observed: {', '.join(edges['unobserved'])}" if edges["unobserved"] else ""))
    for line in result.problems[:MAX_LINES]:
        print(f"  {line}")
    print(f"  report {report_path}")
    return 0 if result.passed else 1
