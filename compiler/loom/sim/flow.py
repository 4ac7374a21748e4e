"""The simulation flow as a library: one setup (golden run, RTL, harness,
Verilator build) per kernel, then any number of seeded runs against it."""

from __future__ import annotations

from collections.abc import Callable
from contextlib import nullcontext
from dataclasses import dataclass, field
from functools import cached_property
from pathlib import Path
from typing import Any

from xdsl.ir import Operation

from loom.bundle import Bundle, compare, load_bundle
from loom.diagnostics import ToolFailure
from loom.inputs import Inputs
from loom.golden.run import GoldenRun, find_func, run_dfg
from loom.ir import load_module
from loom.rtl.command import RtlArtifacts, write_rtl
from loom.rtl.netlist import Netlist
from loom.sim.compare import (
    RtlTrace,
    busy_state_machines,
    first_divergence,
    read_memory,
    read_trace,
    rtl_outcome,
    short_channels,
    stuck_channels,
)
from loom.progress import Progress
from loom.sim.harness import MEM_MODEL, memory_ports, render_tb, run_plusargs
from loom.sim.live import SimWatch
from loom.sim.profiles import RunSettings
from loom.sim.runner import SimBuild, dir_lock, kernel_makeflags
from loom.stream_summary import RtlSummary, StreamSummary, differing_channels, read_summary

MAX_LINES = 12


class GoldenFailed(Exception):
    """The golden model itself does not pass: there is nothing to compare against."""

    def __init__(self, problems: list[str]):
        super().__init__("the golden model fails: " + "; ".join(problems[:MAX_LINES]))
        self.problems = problems


@dataclass
class SimSetup:
    inputs: Inputs
    bundle: Bundle
    #: the golden run in summary mode (counts and summaries, no traces)
    golden: GoldenRun
    rtl: RtlArtifacts
    build: SimBuild
    build_seconds: float
    func: Operation
    #: the bundle the golden run used; the traced rerun must see the same inputs
    #: even when a test feeds the RTL another bundle (replace(s, bundle=...))
    golden_bundle: Bundle

    @property
    def golden_tokens(self) -> int:
        return self.golden.execution.tokens

    @cached_property
    def golden_summaries(self) -> dict[int, StreamSummary]:
        """Each traced channel's golden summary, by channel id."""
        return golden_summaries(self.rtl.netlist, self.golden)

    @cached_property
    def traced_golden(self) -> GoldenRun:
        """The golden run again, recording every channel's tokens: what a
        first-divergence report (or a per-loop count) needs. Run once, on demand."""
        return run_dfg(self.func, self.golden_bundle, str(self.inputs.dfg))


def golden_summaries(net: Netlist, golden: GoldenRun) -> dict[int, StreamSummary]:
    """Each traced channel of `net`: its golden summary, by channel id (what
    the top's LOOM_SIM summaries are compared with)."""
    summaries = golden.execution.summaries()
    return {ch.index: summaries.get(ch.name, StreamSummary(0, 0))
            for ch in net.channels if ch.traced}


@dataclass
class SimResult:
    seed: int
    passed: bool
    problems: list[str]
    report: dict[str, Any] = field(default_factory=dict)


def setup(inputs: Inputs, top: str | None, waves: bool = False,
          mutate: Callable[[RtlArtifacts], None] | None = None,
          progress: Progress | None = None) -> SimSetup:
    """Golden run, RTL, harness and (cached) Verilator build of one kernel.

    `mutate` may rewrite the emitted RTL before the build (tests of the checker);
    `progress` shows the golden run's firings while it runs. The build's C++
    optimization follows the golden run's length (loom.sim.runner.kernel_makeflags).
    """
    assert inputs.bundle is not None
    bundle = load_bundle(inputs.bundle)
    func = find_func(load_module(inputs.dfg), top, str(inputs.dfg))
    golden = run_dfg(func, bundle, str(inputs.dfg), progress=progress, traces=False)
    if not golden.ok:
        raise GoldenFailed(golden.problems())
    with dir_lock(inputs.out_dir):
        rtl = write_rtl(func, str(inputs.dfg), inputs.out_dir, inputs.name)
        if mutate is not None:
            mutate(rtl)
        tb_module, tb_text = render_tb(rtl.netlist, rtl.top_module, bundle.start_token_count)
        sim_dir = inputs.out_dir / "sim"
        sim_dir.mkdir(parents=True, exist_ok=True)
        tb_file = sim_dir / f"{tb_module}.sv"
        tb_file.write_text(tb_text)
        sources = [*rtl.unit_files, rtl.top_file, MEM_MODEL, tb_file]
        build = SimBuild(tb_module, sources, inputs.out_dir / "sim_build", waves=waves,
                         makeflags=kernel_makeflags(golden.execution.tokens))
        seconds = build.build()
    return SimSetup(inputs, bundle, golden, rtl, build, seconds, func, bundle)


def run_seed(s: SimSetup, settings: RunSettings, progress: Progress | None = None,
             full_trace: bool = False) -> SimResult:
    """One simulation under `settings`, compared channel by channel with the golden run.

    The run keeps per-channel summaries (loom.stream_summary) and records only the
    result channels; when a summary differs or the run does not finish it is
    repeated, same seed, recording every transfer, and the report comes from
    the traces. `full_trace` records every transfer from the start; `progress` shows
    the simulated cycles and tokens while it runs.
    """
    # absolute: the simulator runs inside run_dir and reads the plusargs' paths from there
    run_dir = (s.inputs.out_dir / "sim" / settings.name).resolve()
    run = _simulate(s, settings, run_dir, full_trace, progress)
    reran = False
    if not full_trace and (run.result["status"] != "finished" or run.differing):
        first, run, reran = run, _simulate(s, settings, run_dir, True, progress), True
        run.result["seconds"] += first.result["seconds"]
        if first.differing and run.differing != first.differing:
            raise ToolFailure(f"the repeated run of {s.build.top} under {settings.name} "
                              "behaved differently from the first (channels "
                              f"{first.differing} then {run.differing}); see {run_dir}")
    net = s.rtl.netlist
    result, trace, memories = run.result, run.trace, run.memories
    # the traces are needed only when every transfer was recorded
    golden = s.traced_golden.execution if run.full else None
    divergence = (first_divergence(net, trace, golden.traces or {}, golden.trace_ends)
                  if golden is not None else None)
    if run.full and run.differing and divergence is None:
        raise ToolFailure(f"the channel summaries of {s.build.top} differ from the golden "
                          f"ones on channels {run.differing} but the traces agree: a defect "
                          "of LOOM's checker (loom.stream_summary), not of the RTL")
    finished = result["status"] == "finished"
    problems: list[str] = []
    if divergence is not None:
        problems.append(divergence.describe())
    if not finished:
        problems.append(f"{result['status']}: the kernel did not finish")
        stuck = stuck_channels(net, trace)
        if stuck:
            problems.append("stuck at valid && !ready: " + ", ".join(stuck[:MAX_LINES]))
        busy = busy_state_machines(net, trace)
        if busy:
            problems.append("state machines not idle: " + ", ".join(busy[:MAX_LINES]))
        short = short_channels(net, trace, s.golden.execution.counts)
        if short:
            problems.append("short of golden tokens: " + ", ".join(short[:MAX_LINES]))
    if result.get("mem_error"):
        problems.append("a memory model saw an out-of-range address (see sim.log)")
    # every result that came is checked, one that never came is "got nothing";
    # the memories are dumped only when the run finished
    outcome = rtl_outcome(net, trace, memories, s.bundle.start_token_count)
    problems += [f"mismatch against {s.inputs.expectations}: {m}"
                 for m in compare(s.bundle, outcome, memories=finished)]

    seconds = result["seconds"]
    report: dict[str, Any] = {
        "kernel": s.inputs.name, "status": "pass" if not problems else "fail",
        "seed": settings.seed, "run": settings.name,
        "settings": {"in_idle_pct": settings.in_idle_pct, "out_ready_pct": settings.out_ready_pct,
                     "mem_ready_pct": settings.mem_ready_pct,
                     "mem_max_latency": settings.mem_max_latency},
        "invocations": s.bundle.start_token_count,
        "sim_status": result["status"], "cycles": run.cycles,
        "tokens": run.tokens, "golden_tokens": s.golden_tokens,
        "trace": "every channel" if run.full else "result channels",
        "repeated_for_trace": reran,
        "channels": len(net.channels), "instances": len(net.instances), "buffers": net.buffers,
        "problems": problems,
        "seconds": {"build": round(s.build_seconds, 3), "simulate": round(seconds, 3)},
        "cycles_per_second": round(run.cycles / seconds) if seconds else 0,
        "artifacts": {"rtl": str(s.rtl.file_list), "trace": str(run_dir / "trace.bin"),
                      "summary": str(run_dir / "summary.txt"),
                      "log": str(run_dir / "sim.log")},
    }
    if s.build.waves:
        report["artifacts"]["waves"] = str(_waves_file(run_dir))
    return SimResult(settings.seed, not problems, problems, report)


@dataclass
class _Run:
    """What one simulation left: its status, summaries, trace and memories."""
    result: dict[str, Any]
    summaries: dict[int, RtlSummary]
    trace: RtlTrace
    memories: dict[int, list[int]]
    full: bool
    differing: list[int]

    @property
    def tokens(self) -> int:
        return sum(v.count for v in self.summaries.values())

    @property
    def cycles(self) -> int:
        return max([self.trace.last_cycle,
                    *(v.last_cycle for v in self.summaries.values() if v.count)])


def _simulate(s: SimSetup, settings: RunSettings, run_dir: Path, full: bool,
              progress: Progress | None) -> _Run:
    with dir_lock(run_dir):
        run_dir.mkdir(parents=True, exist_ok=True)
        net = s.rtl.netlist
        plusargs = run_plusargs(net, s.bundle, run_dir, settings)
        if full:
            plusargs.append("+loom_trace_all")
        position = run_dir / "progress.txt"
        position.unlink(missing_ok=True)   # a previous run's position is no progress of this one
        watch = SimWatch(position, s.golden_tokens, progress) if progress else nullcontext()
        with watch:
            result = s.build.run(run_dir, plusargs, max_cycles=1000 + 200 * s.golden_tokens,
                                 x_seed=settings.seed)
        if result["status"] == "crashed":
            raise ToolFailure(f"the simulation of {s.build.top} stopped before it finished; "
                              f"see {run_dir / 'sim.log'}")
        summaries = read_summary(run_dir / "summary.txt")
        memories = dict(s.golden.execution.memories)   # memref args no port touches stay
        for m in memory_ports(net):
            memories[m.arg_index] = read_memory(run_dir / f"out_{m.prefix}.hex")
        trace = read_trace(run_dir / "trace.bin")
    return _Run(result, summaries, trace, memories, full,
                differing_channels(summaries, s.golden_summaries))


def _waves_file(run_dir: Path) -> Path:
    found = sorted(run_dir.glob("*.fst"))
    return found[0] if found else run_dir / "dump.fst"
