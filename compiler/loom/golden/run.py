"""A golden-model run of a DFG on a bundle, and its report file.

A bundle with start_token_count N is N invocations back to back on the same
graph (the memories persist): invocation k+1's start token and scalars enter
only once invocation k has returned and the graph is quiescent again, every
state machine back in its initial phase (seed 001). A failing invocation
ends the run.
"""

from __future__ import annotations

import json
import time
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from xdsl.dialects.builtin import ModuleOp
from xdsl.ir import Operation

from loom.addressing import stray_warnings
from loom.bundle import Bundle, Outcome, compare
from loom.diagnostics import Location, LoomError
from loom.golden.build import build_graph, feed
from loom.golden.graph import Graph, Node
from loom.golden.loop_report import loop_streams
from loom.golden.scheduler import Execution, FiringBudgetExceeded, run, streams
from loom.golden.ops.memory import Memory, MemoryOutOfBounds
from loom.golden.ops.merge import MergeConflict
from loom.golden.ops.mux import MuxSelectOutOfRange
from loom.progress import Progress, count


@dataclass
class GoldenRun:
    graph: Graph
    execution: Execution
    outcome: Outcome
    mismatches: list[str]

    @property
    def ok(self) -> bool:
        return self.execution.ok and not self.mismatches

    def problems(self) -> list[str]:
        return [*self.execution.problems, *(f"mismatch: {m}" for m in self.mismatches)]


def find_func(module: ModuleOp, top: str | None, filename: str) -> Operation:
    funcs = [op for op in module.ops if op.name == "handshake.func"]
    if top is not None:
        funcs = [f for f in funcs if f.properties.get("sym_name", f.attributes.get("sym_name"))
                 .data == top]
    if len(funcs) != 1:
        what = f"no handshake.func named @{top}" if top else \
            f"{len(funcs)} handshake.func ops (name one with --top)"
        raise LoomError(f"{what}", Location(filename))
    return funcs[0]


@dataclass
class _Ticker:
    """The golden run's progress line: firings so far, over all invocations."""
    progress: Progress
    start: float
    before: int = 0      # firings of the invocations already run

    def __call__(self, firings: int) -> None:
        if self.progress.due():
            total = self.before + firings
            rate = total / max(time.perf_counter() - self.start, 1e-9)
            self.progress.update(f"golden: {count(total)} firings ({count(rate)}/s)")


def _invoke(graph: Graph, ret: Node, max_firings: int,
            ticker: _Ticker | None = None, traced: bool = True) -> Execution:
    """One invocation, its tokens already fed; a model error is a failed run."""
    try:
        return run(graph, ret, max_firings, ticker, traced)
    except (FiringBudgetExceeded, MergeConflict, MemoryOutOfBounds,
            MuxSelectOutOfRange) as exc:
        where = ""
        if isinstance(exc, MemoryOutOfBounds):
            where = next((f"{_access_location(n, exc.port)}: " for n in graph.nodes
                          if n.actor is exc.actor), "")
        kept = streams(graph, traced)
        return Execution(False, [], {}, kept.traces,
                         {n.label: n.firings for n in graph.nodes}, 0, 0.0,
                         [f"{where}error: {type(exc).__name__}: {exc}"],
                         counts=kept.counts, folded=kept.folded)


def _access_location(memory: Node, port: int) -> Location:
    """The C line of the load/store feeding a memory port (else the memory's)."""
    access = memory.ins[port].producer
    loc = access.loc if access is not None and access.loc else memory.loc
    return loc or Location(memory.where())


def run_invocations(graph: Graph, ret: Node, bundle: Bundle, max_firings: int,
                    progress: Progress | None = None, traced: bool = True) -> Execution:
    """The bundle's invocations back to back; one Execution over all of them
    (without `traced`: summaries and counts, no traces)."""
    n = bundle.start_token_count
    runs: list[Execution] = []
    ends: list[dict[str, int]] = []
    ticker = _Ticker(progress, time.perf_counter()) if progress and progress.enabled else None
    for k in range(n):
        feed(graph, bundle, k)
        ret.actor.arm()
        runs.append(_invoke(graph, ret, max_firings, ticker, traced))
        ends.append(runs[-1].counts)
        if ticker is not None:
            ticker.before += runs[-1].total_firings
        if not runs[-1].ok:
            break
    if progress is not None:
        progress.clear()
    last = runs[-1]
    problems = [f"invocation {k}: {p}" if n > 1 else p
                for k, ex in enumerate(runs) for p in ex.problems]
    if len(runs) < n:
        problems.append(f"invocations {len(runs)} to {n - 1} not run")
    return Execution(
        returned=len(runs) == n and all(ex.returned for ex in runs),
        results=[r for ex in runs for r in ex.results],
        memories=last.memories, traces=last.traces, firings=last.firings,
        total_firings=sum(ex.total_firings for ex in runs),
        seconds=sum(ex.seconds for ex in runs), problems=problems, trace_ends=ends,
        counts=last.counts, folded=last.folded)


def run_dfg(func: Operation, bundle: Bundle, filename: str,
            max_firings: int = 50_000_000, progress: Progress | None = None,
            traces: bool = True) -> GoldenRun:
    """The golden run of `bundle`; without `traces`, the channels keep summaries
    and counts only (memory flat in the token count)."""
    graph, ret = build_graph(func, bundle, filename)
    execution = run_invocations(graph, ret, bundle, max_firings, progress, traces)
    keep = [i for i in range(len(graph.result_widths)) if i != graph.done_result]
    outcome = Outcome(
        results=[[values[i] for i in keep] for values in execution.results],
        memories=execution.memories,
        result_widths=[graph.result_widths[i] for i in keep],
        warnings=_strays(graph),
    )
    mismatches = compare(bundle, outcome) if execution.returned else []
    return GoldenRun(graph, execution, outcome, mismatches)


def _strays(graph: Graph) -> list[str]:
    """One warning per C access that ran past an inner extent of its array."""
    return stray_warnings((_access_location(node, port), at) for node in graph.nodes
                          if isinstance(node.actor, Memory)
                          for port, at in node.actor.strays.items())


def golden_report(name: str, golden: GoldenRun) -> dict[str, Any]:
    ex = golden.execution
    by_kind: dict[str, int] = {}
    for node in golden.graph.nodes:
        by_kind[node.kind] = by_kind.get(node.kind, 0) + node.firings
    return {
        "kernel": name,
        "status": "pass" if golden.ok else "fail",
        "invocations_run": len(ex.trace_ends),
        "results": golden.outcome.results,         # per invocation
        "memories": {str(k): v for k, v in sorted(ex.memories.items())},
        "problems": golden.problems(),
        "warnings": golden.outcome.warnings,
        # per-loop counts need the traces; a summary-mode run says so with null
        "loops": [vars(loop) for loop in loop_streams(golden.graph)]
        if ex.traces is not None else None,
        "stats": {
            "firings": ex.total_firings,
            "seconds": round(ex.seconds, 6),
            "firings_per_op_kind": dict(sorted(by_kind.items())),
            "firings_per_op": ex.firings,
        },
        **({"traces": ex.traces} if ex.traces is not None else
           {"summaries": {name: {"count": v.count, "digest": v.digest}
                          for name, v in ex.summaries().items()}}),
    }


def write_report(path: Path, report: dict[str, Any]) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(json.dumps(report, indent=None, separators=(",", ":")) + "\n")
