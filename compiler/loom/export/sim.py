"""An exported kernel simulated through its AXI shell (`loom sim K --iface axi`).

The IP folder's files are built with Verilator; the pyuvm kit in tb/
(tb/axi_uvm_test.py: an AXI4-Lite agent with a register model, an AxiRam
per array master, a scoreboard) runs every invocation of the sim bundle
under the stall seed's pauses on every AXI channel; its scoreboard compares
results and memories with the bundle's expectations (the native run). Here
every channel of the kernel inside the shell is compared with the golden
model (the kernel top's LOOM_SIM summaries), as in the direct flow; inside
a fabric, every DFG edge that ends at a PE or memory input, where it ends
(the shell's LOOM_SIM taps, the fabric harness's: loom.sim.fabric_check),
as `loom sim --adg` does. An edge into a result port is the scoreboard's.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from loom.bundle import Bundle, load_bundle
from loom.diagnostics import LoomError, ToolFailure
from loom.export.package import ExportedIp, export_fabric_ip, export_ip
from loom.mapper.kernel_map import MapRequest
from loom.golden.run import find_func, run_dfg
from loom.golden.scheduler import Execution
from loom.inputs import KernelSource
from loom.ir import load_module
from loom.export.kit_job import kit_job
from loom.sim.runner import FABRIC_MAKEFLAGS, SimBuild, kernel_makeflags
from loom.sim.compare import read_trace
from loom.sim.fabric_check import check_edges
from loom.sim.fabric_edges import EdgeMap
from loom.sim.flow import golden_summaries
from loom.stream_summary import StreamSummary, differing_channels, read_summary

@dataclass
class AxiSetup:
    ip: ExportedIp
    bundle: Bundle
    build: SimBuild
    build_seconds: float
    golden_summaries: dict[int, StreamSummary]
    golden_tokens: int
    golden: Execution | None = None
    """A fabric's golden run with every channel's tokens (its edges' reference)."""
    edges: EdgeMap | None = None
    """A fabric's DFG edges that end at a tapped input (those into result ports left out)."""


@dataclass
class AxiResult:
    seed: int
    passed: bool
    problems: list[str]
    cycles: list[int] = field(default_factory=list)   # per invocation, ap_start to ap_done
    report: dict[str, Any] = field(default_factory=dict)
    report_path: Path | None = None


def axi_setup(source: KernelSource, out_dir: Path,
              mutate: Callable[[ExportedIp], None] | None = None,
              adg: MapRequest | None = None) -> AxiSetup:
    """Export (the kernel top, or with `adg` the kernel mapped onto that
    fabric), run the golden model, build the shell's simulation. `mutate`
    may rewrite the exported files before the build (tests of the check)."""
    ip = export_ip(source, out_dir) if adg is None else export_fabric_ip(adg, out_dir)
    if mutate is not None:
        mutate(ip)
    if ip.bundle is None:
        raise LoomError("no bundle: give --bundle B.json for an MLIR kernel")
    bundle = load_bundle(ip.bundle)
    func = find_func(load_module(ip.dfg), source.top, str(ip.dfg))   # the mapped one on a fabric
    golden = run_dfg(func, bundle, str(ip.dfg), traces=ip.edges is not None)
    if not golden.ok:
        raise LoomError("the golden model does not reproduce the native run: "
                        + "; ".join(golden.problems()[:3]))
    # a fabric has no per-channel summaries: its edges are compared at its taps
    summaries = golden_summaries(ip.netlist, golden) if ip.netlist is not None else {}
    edges = None if ip.edges is None else EdgeMap(
        [p for p in ip.edges.probes if p.tap is not None], ip.edges.unobserved)
    build = SimBuild(ip.shell.module, [ip.csr.waivers, ip.kit.public, *ip.files],
                     out_dir / "sim_build",
                     makeflags=kernel_makeflags(golden.execution.tokens) if adg is None
                     else FABRIC_MAKEFLAGS,
                     test_module="tb.axi_uvm_test")
    seconds = build.build()
    return AxiSetup(ip, bundle, build, seconds, summaries, golden.execution.tokens,
                    golden.execution if edges is not None else None, edges)


def axi_run(s: AxiSetup, seed: int, ideal: bool = False) -> AxiResult:
    """One simulation under stall seed `seed` (`ideal`: no pauses), compared."""
    run_dir = (s.ip.out_dir / "sim" / ("ideal" if ideal else f"seed{seed}")).resolve()
    run_dir.mkdir(parents=True, exist_ok=True)
    job = kit_job(s.ip.registers, s.ip.shell.masters, s.ip.params, s.bundle,
                  s.ip.bundle.resolve(), seed, ideal, max_cycles=1000 + 200 * s.golden_tokens
                  + 4 * len(s.ip.config_words), config_words=s.ip.config_words)
    job_file = run_dir / "job.json"
    job_file.write_text(json.dumps(job))
    summary, trace = run_dir / "summary.txt", run_dir / "trace.bin"
    summary.unlink(missing_ok=True)
    trace.unlink(missing_ok=True)
    result = s.build.run(run_dir, [f"+loom_summary={summary}", f"+loom_trace={trace}"],
                         job["max_cycles"], env={"LOOM_AXI_JOB": str(job_file)}, x_seed=seed)
    if result["status"] == "crashed":
        raise ToolFailure(f"the simulation of {s.build.top} stopped before it finished; "
                          f"see {run_dir / 'sim.log'}")
    problems = list(result["problems"])
    finished = result["status"] == "finished"
    if not finished:
        problems.append(f"{result['status']}: the kernel did not raise ap_done")
    net = s.ip.netlist
    differing = differing_channels(read_summary(summary), s.golden_summaries) \
        if finished and net is not None else []
    if differing:
        names = {ch.index: ch.name for ch in net.channels}
        problems.append("channels whose tokens differ from the golden model's: "
                        + ", ".join(names[i] for i in differing[:8]))
    compared = 0
    if finished and s.edges is not None and s.golden is not None:
        check = check_edges(s.edges, read_trace(trace), {}, s.golden)
        compared = len(s.edges.probes)
        if check.divergence is not None:
            problems.append(check.divergence.describe())
    # the kit's scoreboard compared results and memories (loom.bundle.compare)
    problems += [f"mismatch against {s.ip.expectations}: {m}" for m in result["mismatches"]]
    report = {"kernel": s.ip.kernel, "iface": "axi", "seed": seed, "ideal": ideal,
              "status": "pass" if not problems else "fail", "cycles": result["cycles"],
              "problems": problems, "edges_compared": compared,
              "seconds": {"build": round(s.build_seconds, 3),
                          "simulate": round(result["seconds"], 3)}}
    path = run_dir / "report.json"
    path.write_text(json.dumps(report, indent=1))
    return AxiResult(seed, not problems, problems, result["cycles"], report, path)
