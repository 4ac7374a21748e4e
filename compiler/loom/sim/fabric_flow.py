"""The simulation flow on a fabric: a kernel compiled for the ADG and mapped
(loom.mapper.kernel_map.map_kernel), the golden run of the mapped DFG, the
fabric RTL and its harness built once per ADG (under gen/fabric_build/<adg>,
keyed by the ADG's RTL alone, so every kernel mapped onto it reuses the
build), then runs that stream config.bin into the config port and check
every DFG edge's tokens where its route ends (loom.sim.fabric_check: the
harness taps every PE input port, the map says which edge ends where), the
results and the final memories against the golden and native runs.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from xdsl.dialects.builtin import NoneType
from xdsl.ir import Operation

from loom.bundle import Bundle, Outcome, bits, compare, load_bundle
from loom.diagnostics import ToolFailure
from loom.fabric.rtl.command import write_fabric_rtl
from loom.fabric.rtl.top import FabricRtl
from loom.golden.loop_report import activations
from loom.golden.run import GoldenRun, run_dfg
from loom.mapper.kernel_map import MapRequest, MappedKernel, map_kernel
from loom.mapper.config_files import read_config_bin
from loom.sim.compare import read_memory, read_trace
from loom.sim.fabric_check import check_edges
from loom.sim.fabric_edges import EdgeMap, edge_map
from loom.sim.fabric_harness import (
    TAG_SHIFT,
    Binding,
    binding,
    fabric_plusargs,
    fabric_taps,
    left_sites,
    read_config_end,
    read_outputs,
    render_fabric_tb,
    top_ports,
)
from loom.sim.flow import MAX_LINES, GoldenFailed
from loom.sim.harness import MEM_MODEL
from loom.sim.profiles import RunSettings
from loom.sim.runner import FABRIC_MAKEFLAGS, ROOT, SimBuild, dir_lock

BUILD_ROOT = ROOT / "gen" / "fabric_build"


@dataclass
class FabricSetup:
    mapped: MappedKernel
    bundle: Bundle
    golden: GoldenRun
    rtl: FabricRtl
    build: SimBuild
    build_seconds: float
    binding: Binding
    words: list[int]
    """The configuration words, read back from the written config.bin."""
    edges: EdgeMap
    """Where each DFG edge is observed on the fabric."""

    @property
    def func(self) -> Operation:
        return self.mapped.func

    @property
    def name(self) -> str:
        return self.mapped.inputs.name

    @property
    def out_dir(self) -> Path:
        return self.mapped.inputs.out_dir


@dataclass
class FabricResult:
    passed: bool
    problems: list[str]
    report: dict[str, Any] = field(default_factory=dict)


def fabric_build(rtl: FabricRtl, adg: str, build_root: Path = BUILD_ROOT) -> SimBuild:
    """The harness and the fabric's modules under build_root/<adg>/src, and
    their (cached) Verilator build beside them."""
    src = build_root / adg / "src"
    src.mkdir(parents=True, exist_ok=True)
    tb_module, tb_text = render_fabric_tb(rtl)
    files = []
    for name, text in [*((m.name, m.text) for m in rtl.modules), (tb_module, tb_text)]:
        path = src / f"{name}.sv"
        if not path.exists() or path.read_text() != text:
            path.write_text(text)
        files.append(path)
    return SimBuild(tb_module, [*files[:-1], MEM_MODEL, files[-1]], build_root / adg / "obj",
                    makeflags=FABRIC_MAKEFLAGS)


def setup(req: MapRequest, build_root: Path = BUILD_ROOT) -> FabricSetup:
    """Compile and map (a kernel that does not fit raises the mapper's
    diagnosis), then `setup_mapped`."""
    return setup_mapped(map_kernel(req, need_bundle=True), build_root)


def setup_mapped(mapped: MappedKernel, build_root: Path = BUILD_ROOT) -> FabricSetup:
    """Run the golden model on the mapped DFG (recording every channel: the
    edges are compared token by token), write the fabric RTL beside the map
    and build the fabric's harness (cached per ADG); `mapped` with its bundle."""
    inputs = mapped.inputs
    assert inputs.bundle is not None
    bundle = load_bundle(inputs.bundle)
    golden = run_dfg(mapped.func, bundle, str(inputs.dfg))
    if not golden.ok:
        raise GoldenFailed(golden.problems())
    # before the build: a binding the flow cannot run is refused in seconds, not after minutes
    bound = binding(mapped.mapping)
    with dir_lock(inputs.out_dir):
        arts = write_fabric_rtl(mapped.target, inputs.out_dir)
        words = read_config_bin(mapped.written.paths["config.bin"].read_bytes())
    with dir_lock(build_root / mapped.target.name):   # the ADG's sources and build, shared
        build = fabric_build(arts.rtl, mapped.target.name, build_root)
        seconds = build.build()
    edges = edge_map(mapped.mapping, mapped.func, fabric_taps(arts.rtl), str(inputs.dfg))
    return FabricSetup(mapped, bundle, golden, arts.rtl, build, seconds, bound, words, edges)


def _result_args(func: Operation) -> list[int]:
    """The DFG result indices that are results (not the done token), in order."""
    return [i for i, t in enumerate(func.function_type.outputs.data)  # type: ignore[attr-defined]
            if not isinstance(t, NoneType)]


def run(s: FabricSetup, settings: RunSettings, max_cycles: int | None = None) -> FabricResult:
    """One run under `settings`: results and memories against the native run.
    `max_cycles` bounds it tighter than the default (a mutation campaign's
    faults may loop forever)."""
    run_dir = (s.out_dir / "sim" / f"{s.mapped.target.name}-{settings.name}").resolve()
    tokens = s.golden.execution.tokens
    # past the watchdog: a run that stops ends as a deadlock, which records its stuck ports
    budget = max_cycles or max(1000 + 2 * len(s.words) + 200 * tokens, settings.watchdog + 1000)
    with dir_lock(run_dir):
        run_dir.mkdir(parents=True, exist_ok=True)
        plusargs = fabric_plusargs(s.binding, s.func, s.bundle, s.words, run_dir, settings,
                                   str(s.mapped.inputs.dfg),
                                   {p.name: p.width for p in top_ports(s.rtl)[0]})
        result = s.build.run(run_dir, plusargs, max_cycles=budget, x_seed=settings.seed)
        if result["status"] == "crashed":
            raise ToolFailure(f"the simulation of {s.build.top} stopped before it finished; "
                              f"see {run_dir / 'sim.log'}")
        outputs = read_outputs(run_dir / "outputs.txt")
        outcome = _outcome(s, outputs, run_dir)
        trace = read_trace(run_dir / "trace.bin")
        check = check_edges(s.edges, trace, outputs, s.golden.execution)
    finished = result["status"] == "finished"
    problems: list[str] = []
    if check.divergence is not None:
        problems.append(check.divergence.describe())
    if not finished:
        problems.append(f"{result['status']}: the kernel did not finish on the fabric")
        if check.stuck:
            problems.append("stuck at valid && !ready: " + ", ".join(check.stuck[:MAX_LINES]))
        if check.short:
            problems.append("short of golden tokens: " + ", ".join(check.short[:MAX_LINES]))
    if finished and trace.left:
        sites = left_sites(s.rtl)
        where = sorted({sites.get(i & (1 << TAG_SHIFT) - 1, f"trace id {i}") for i in trace.left})
        problems.append("tokens left in the fabric after the last invocation, taken by nobody: "
                        + ", ".join(where[:MAX_LINES]))
    if result.get("mem_error"):
        problems.append("a memory model saw an out-of-range address (see sim.log)")
    bound = set(s.binding.outputs.values())
    for port, got in sorted(outputs.items()):
        if port not in bound:
            problems.append(f"{port}: {len(got)} token(s) on an output the map does not use")
    problems += [f"mismatch against {s.mapped.inputs.expectations}: {m}"
                 for m in compare(s.bundle, outcome, memories=finished)]
    # the last transfer seen at an output or a tapped edge: a run that deadlocks
    # before its first result still reports how far it got
    cycles = max([trace.last_cycle, *(c for got in outputs.values() for c, _ in got)])
    config_end = read_config_end(run_dir / "outputs.txt")
    model = s.mapped.written.throughput
    loops = activations(s.golden.graph)
    report: dict[str, Any] = {
        "kernel": s.name, "adg": s.mapped.target.name, "status": "fail" if problems else "pass",
        "seed": settings.seed, "run": settings.name, "sim_status": result["status"],
        "cycles": cycles, "config_words": len(s.words),
        # the config stream's cycles (reset to its last word) and the kernel's after it
        "config_cycles": None if config_end is None else config_end + 1,
        "kernel_cycles": None if config_end is None else cycles - config_end,
        "throughput": {"expected_ii": model.summary().get("expected_ii"),
                       "bound_cycles": model.min_cycles(_token_counts(s.golden), loops),
                       "predicted_cycles": model.predicted_cycles(loops)},
        "invocations": s.bundle.start_token_count, "golden_tokens": tokens,
        "edges": {"observed": len(s.edges.probes), "tokens": check.tokens,
                  "unobserved": s.edges.unobserved},
        "problems": problems,
        "seconds": {"build": round(s.build_seconds, 3), "simulate": round(result["seconds"], 3)},
        "artifacts": {"map": str(s.mapped.written.paths["map.json"]),
                      "config": str(s.mapped.written.paths["config.bin"]),
                      "build": str(s.build.build_dir), "outputs": str(run_dir / "outputs.txt"),
                      "trace": str(run_dir / "trace.bin"),
                      "log": str(run_dir / "sim.log")},
    }
    return FabricResult(not problems, problems, report)


def _token_counts(golden: GoldenRun) -> dict[str, int]:
    """Tokens per DFG channel in the golden run (traced: every token kept)."""
    return {name: len(ch.trace) for name, ch in golden.graph.channels.items()}


def _outcome(s: FabricSetup, outputs: dict[str, list[tuple[int, int]]],
             run_dir: Path) -> Outcome:
    """Token k of each result's port is invocation k's result (None: it never came)."""
    ports = [s.binding.outputs.get(i) for i in _result_args(s.func)]
    streams = [outputs.get(p, []) if p is not None else [] for p in ports]
    widths = s.golden.outcome.result_widths   # the same results, done left out
    results = [[bits(got[k][1], w) if k < len(got) else None for got, w in zip(streams, widths)]
               for k in range(s.bundle.start_token_count)]
    memories = dict(s.golden.execution.memories)   # memref args no extmemory holds stay
    for arg, mem in s.binding.memories.items():
        memories[arg] = read_memory(run_dir / f"out_{mem}.hex")
    return Outcome(results=results, memories=memories, result_widths=widths)
