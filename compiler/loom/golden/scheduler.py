"""The deterministic scheduler: fires ready actors until nothing can fire.

Sweeps over the nodes in program order, each node firing until blocked,
until a sweep fires nothing: the graph's compiled step function
(golden/codegen.py) does the sweeps. After the run the graph must be
quiescent: the function returned once, no channel holds a token and every
state machine is back in its initial phase (seed 000's "one extra latched
ctrl" is exactly such a leftover). Otherwise the problems name the channel,
the ops at both ends and their C lines.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from loom.golden.codegen import StepFn, compile_graph
from loom.golden.graph import Graph, Node
from loom.golden.ops.constant import Source
from loom.stream_summary import StreamSummary, summarize


class FiringBudgetExceeded(Exception):
    pass


@dataclass
class Execution:
    returned: bool
    results: list[list[Any]]                # per invocation: the return's values
    memories: dict[int, list[int]]
    #: each channel's tokens; None in a summary-mode run (traced=False)
    traces: dict[str, list[Any]] | None
    firings: dict[str, int]
    total_firings: int
    seconds: float
    problems: list[str] = field(default_factory=list)
    #: per invocation: each channel's token count when it ended
    trace_ends: list[dict[str, int]] = field(default_factory=list)
    #: each channel's token count
    counts: dict[str, int] = field(default_factory=dict)
    #: a summary-mode run's channel summaries (a traced run's: see summaries)
    folded: dict[str, StreamSummary] = field(default_factory=dict)

    @property
    def ok(self) -> bool:
        return self.returned and not self.problems

    @property
    def tokens(self) -> int:
        return sum(self.counts.values())

    def summaries(self) -> dict[str, StreamSummary]:
        """Each channel's summary (loom.stream_summary), in either mode."""
        if self.traces is None:
            return self.folded
        return {name: summarize(t) for name, t in self.traces.items()}


@dataclass
class Streams:
    """What a run keeps of its channels' streams: traces or summaries, and counts."""
    traces: dict[str, list[Any]] | None
    folded: dict[str, StreamSummary]
    counts: dict[str, int]


def streams(graph: Graph, traced: bool) -> Streams:
    """The channels' streams so far; without `traced`, their traces are folded."""
    chans = graph.channels
    if traced:
        return Streams({name: ch.trace for name, ch in chans.items()}, {},
                       {name: len(ch.trace) for name, ch in chans.items()})
    fold_all(graph)
    return Streams(None, {name: ch.summary for name, ch in chans.items()},
                   {name: ch.count for name, ch in chans.items()})


def fold_all(graph: Graph) -> None:
    for ch in graph.channels.values():
        ch.fold()


def _channel_desc(ch: Any) -> str:
    prod = ch.producer.where() if ch.producer else "function argument"
    cons = ch.consumer.where() if ch.consumer else "nothing"
    return f"channel '{ch.name}' (from {prod} to {cons})"


def _token(v: Any) -> str:
    return "control token" if v is None else f"token {v}"


#: firings between two calls of run()'s `on_firings` (progress reports)
TICK = 1 << 16


def _step_function(graph: Graph) -> StepFn:
    """The graph's compiled sweep, compiled once (a bundle's invocations reuse it)."""
    if graph.compiled is None or graph.compiled[0] != len(graph.nodes):
        graph.compiled = (len(graph.nodes), compile_graph(graph))
    step: StepFn = graph.compiled[1]
    return step


def run(graph: Graph, return_node: Node, max_firings: int = 50_000_000,
        on_firings: Callable[[int], None] | None = None, traced: bool = True) -> Execution:
    """Run `graph` to quiescence (one invocation: its inputs are in their
    channels); `return_node` is its handshake.return. `on_firings(total)` is
    called every TICK firings (progress). Without `traced` the channels'
    traces are folded into summaries every TICK firings and at the end (the
    Execution has summaries and counts, no traces)."""
    start = time.perf_counter()
    returns_before = return_node.firings
    nodes = graph.nodes
    step = _step_function(graph)
    fired = [0] * len(nodes)
    total = 0
    try:
        while True:
            # the step stops after `allowance` firings: a node that could fire
            # forever (a stream of step 0) still meets the budget, exactly
            allowance = min(TICK, max_firings + 1 - total)
            left = step(allowance, fired)
            total += allowance - left
            if left:            # a sweep fired nothing: quiescent
                break
            if total > max_firings:
                raise FiringBudgetExceeded(f"more than {max_firings} firings without quiescence")
            if on_firings is not None:
                on_firings(total)
            if not traced:
                fold_all(graph)
    finally:   # a model error (merge conflict, ...) still reports the firings so far
        for node, n in zip(nodes, fired):
            node.firings += n

    returned = return_node.firings > returns_before
    problems = quiescence_problems(graph) if returned else deadlock_problems(graph, return_node)
    kept = streams(graph, traced)
    return Execution(
        returned=returned,
        results=[list(getattr(return_node.actor, "values", []))] if returned else [],
        memories={**graph.untouched,
                  **{arg: list(node.actor.storage) for arg, node in graph.memories.items()}},
        traces=kept.traces,
        firings={n.label: n.firings for n in graph.nodes},
        total_firings=total,
        seconds=time.perf_counter() - start,
        problems=problems,
        counts=kept.counts,
        folded=kept.folded,
    )


def _pending(ch: Any) -> bool:
    """Tokens that should have been consumed: not a source's offer, not a discarded result."""
    if not ch.q or ch.consumer is None:
        return False
    return not (ch.producer and isinstance(ch.producer.actor, Source))


def quiescence_problems(graph: Graph) -> list[str]:
    problems = []
    for ch in graph.channels.values():
        if _pending(ch):
            problems.append(f"leftover: {_channel_desc(ch)} still holds {len(ch.q)} "
                            f"token(s), first {_token(ch.q[0])}")
    for node in graph.nodes:
        if not node.actor.idle():
            problems.append(f"leftover: {node.where()} is in phase "
                            f"{node.actor.phase()}, not its initial phase")
    return problems


def deadlock_problems(graph: Graph, return_node: Node) -> list[str]:
    waits = [f"{ch.name}" for ch in return_node.ins if not ch.q]
    problems = [f"deadlock: the function never returned; {return_node.where()} "
                f"waits for {', '.join(waits) or 'nothing'}"]
    for ch in graph.channels.values():
        if _pending(ch):
            problems.append(f"deadlock: {_channel_desc(ch)} holds {len(ch.q)} token(s)")
    for node in graph.nodes:
        partial = any(ch.q for ch in node.ins)
        if node is return_node or not (partial or not node.actor.idle()):
            continue
        missing = [node.ins[i].name for i in node.actor.waiting_on(node.ins)]
        state = f" in phase {node.actor.phase()}" if node.actor.phase() else ""
        problems.append(f"deadlock: {node.where()}{state} waits for "
                        f"{', '.join(missing) or 'nothing'}")
    return problems
