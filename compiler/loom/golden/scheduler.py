"""The deterministic scheduler: fires ready actors until nothing can fire.

A worklist in program order; each node fires until blocked, then the
consumers of what it produced are queued. After the run the graph must be
quiescent: the function returned once, no channel holds a token and every
state machine is back in its initial phase (seed 000's "one extra latched
ctrl" is exactly such a leftover). Otherwise the problems name the channel,
the ops at both ends and their C lines.
"""

from __future__ import annotations

import time
from collections import deque
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from loom.golden.graph import Graph, Node
from loom.golden.ops.constant import Source


class FiringBudgetExceeded(Exception):
    pass


@dataclass
class Execution:
    returned: bool
    results: list[list[Any]]                # per invocation: the return's values
    memories: dict[int, list[int]]
    traces: dict[str, list[Any]]
    firings: dict[str, int]
    total_firings: int
    seconds: float
    problems: list[str] = field(default_factory=list)
    #: per invocation: each channel's trace length when it ended
    trace_ends: list[dict[str, int]] = field(default_factory=list)

    @property
    def ok(self) -> bool:
        return self.returned and not self.problems


def _channel_desc(ch: Any) -> str:
    prod = ch.producer.where() if ch.producer else "function argument"
    cons = ch.consumer.where() if ch.consumer else "nothing"
    return f"channel '{ch.name}' (from {prod} to {cons})"


def _token(v: Any) -> str:
    return "control token" if v is None else f"token {v}"


#: firings between two calls of run()'s `on_firings` (progress reports)
TICK = 1 << 16


def run(graph: Graph, return_node: Node, max_firings: int = 50_000_000,
        on_firings: Callable[[int], None] | None = None) -> Execution:
    """Run `graph` to quiescence (one invocation: its inputs are in their
    channels); `return_node` is its handshake.return. `on_firings(total)` is
    called every TICK firings or so (progress)."""
    start = time.perf_counter()
    returns_before = return_node.firings
    work: deque[Node] = deque(graph.nodes)
    queued = set(map(id, graph.nodes))
    total = 0
    # one comparison per node in the loop covers the budget and the progress tick
    check_at = min(TICK if on_firings else max_firings + 1, max_firings + 1)
    while work:
        node = work.popleft()
        queued.discard(id(node))
        actor, ins, outs = node.actor, node.ins, node.outs
        fired = 0
        while actor.fire(ins, outs):
            fired += 1
        if not fired:
            continue
        node.firings += fired
        total += fired
        if total >= check_at:
            if total > max_firings:
                raise FiringBudgetExceeded(f"more than {max_firings} firings without quiescence")
            if on_firings is not None:
                on_firings(total)
                check_at = min(total + TICK, max_firings + 1)
        for ch in outs:
            nxt = ch.consumer
            if nxt is not None and id(nxt) not in queued:
                queued.add(id(nxt))
                work.append(nxt)
        for ch in ins:  # a source refills once its token was taken
            src = ch.producer
            if src is not None and isinstance(src.actor, Source) and id(src) not in queued:
                queued.add(id(src))
                work.append(src)

    returned = return_node.firings > returns_before
    problems = quiescence_problems(graph) if returned else deadlock_problems(graph, return_node)
    return Execution(
        returned=returned,
        results=[list(getattr(return_node.actor, "values", []))] if returned else [],
        memories={**graph.untouched,
                  **{arg: list(node.actor.storage) for arg, node in graph.memories.items()}},
        traces={name: ch.trace for name, ch in graph.channels.items()},
        firings={n.label: n.firings for n in graph.nodes},
        total_firings=total,
        seconds=time.perf_counter() - start,
        problems=problems,
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
