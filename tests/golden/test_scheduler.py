"""Scheduler: quiescence, leftover tokens, deadlock reports, determinism."""

import signal
from contextlib import contextmanager

import pytest

from loom.golden.graph import Graph
from loom.golden.ops.arith import AddI
from loom.golden.ops.constant import Sink
from loom.golden.ops.fork import Fork
from loom.golden.ops.func_return import Return
from loom.golden.ops.gate import Gate
from loom.golden.ops.invariant import Invariant
from loom.golden.ops.join import Join
from loom.golden.ops.stream import Stream
from loom.golden.scheduler import run


def _loop_adding_invariant(n: int, wire_invariant_to_raw: bool, step: int = 1):
    """for i in 0..n: out_i = i + k, with k replicated by an invariant.

    Seed 002: the invariant's control must be after_cond. Wiring it to
    raw_will_continue is the classic bug: it replays k one extra time.
    """
    g = Graph("loop")
    step_value = step
    start, step, bound, k = (g.channel(x, 64) for x in ("start", "step", "bound", "k"))
    idx, raw = g.channel("raw_index", 64), g.channel("raw_will_continue", 1)
    g.add("stream0", "dataflow.stream", Stream("+=", "<"), [start, step, bound], [idx, raw])
    raw_a, raw_b = g.channel("raw_a", 1), g.channel("raw_b", 1)
    g.add("fork0", "handshake.fork", Fork(2), [raw], [raw_a, raw_b])
    body_idx, after = g.channel("body_index", 64), g.channel("after_cond", 1)
    g.add("gate0", "dataflow.gate", Gate(), [idx, raw_a], [body_idx, after])
    k_body = g.channel("k_body", 64)
    if wire_invariant_to_raw:
        g.add("inv0", "dataflow.invariant", Invariant(), [raw_b, k], [k_body])
        g.add("sink0", "handshake.sink", Sink(), [after], [])
    else:
        g.add("inv0", "dataflow.invariant", Invariant(), [after, k], [k_body])
        g.add("sink0", "handshake.sink", Sink(), [raw_b], [])
    s = g.channel("sum", 64)
    g.add("add0", "arith.addi", AddI(64), [body_idx, k_body], [s])
    g.add("sink1", "handshake.sink", Sink(), [s], [])
    ret = g.add("ret", "handshake.return", Return(0), [], [])
    for ch, v in ((start, 0), (step, step_value), (bound, n), (k, 100)):
        ch.push(v)
    return g, ret


def test_correct_loop_is_quiescent_with_seed_002_lengths():
    g, ret = _loop_adding_invariant(5, wire_invariant_to_raw=False)
    ex = run(g, ret)
    assert ex.ok, ex.problems
    assert len(ex.traces["raw_will_continue"]) == 6      # N + 1
    assert len(ex.traces["after_cond"]) == 5              # N
    assert len(ex.traces["k_body"]) == 5                  # invariants N
    assert ex.traces["sum"] == [100, 101, 102, 103, 104]


def test_invariant_on_raw_will_continue_leaves_a_token():
    g, ret = _loop_adding_invariant(5, wire_invariant_to_raw=True)
    ex = run(g, ret)
    assert not ex.ok
    assert any("leftover: channel 'k_body'" in p and "dataflow.invariant 'inv0'" in p
               and "token 100" in p for p in ex.problems), ex.problems


def test_deadlock_names_the_waiting_op_and_missing_channel():
    g = Graph("dl")
    a, b, j = g.channel("a", 0), g.channel("b", 0), g.channel("j", 0)
    g.add("join0", "handshake.join", Join(2), [a, b], [j])
    ret = g.add("ret", "handshake.return", Return(1), [j], [])
    a.push(None)
    ex = run(g, ret)
    assert not ex.returned
    assert ex.problems[0].startswith("deadlock: the function never returned")
    assert any("channel 'a'" in p and "holds 1 token" in p for p in ex.problems)
    assert any("handshake.join 'join0' waits for b" in p for p in ex.problems)


def test_second_return_tokens_are_leftovers():
    g = Graph("twice")
    x = g.channel("x", 32)
    ret = g.add("ret", "handshake.return", Return(1), [x], [])
    x.push(1)
    x.push(2)
    ex = run(g, ret)
    assert ex.results == [[1]]
    assert any("leftover: channel 'x'" in p for p in ex.problems)


def test_runs_are_deterministic():
    runs = [run(*_loop_adding_invariant(7, False)) for _ in range(2)]
    assert runs[0].traces == runs[1].traces and runs[0].firings == runs[1].firings


def test_progress_ticks_follow_the_firings():
    """on_firings sees a growing count at least TICK firings apart, never past the total
    (a node fires until blocked, so a tick can come a whole batch late)."""
    from loom.golden.scheduler import TICK
    g, ret = _loop_adding_invariant(50_000, False)
    seen: list[int] = []
    ex = run(g, ret, on_firings=seen.append)
    assert ex.ok, ex.problems
    assert ex.total_firings == sum(ex.firings.values())
    assert seen == sorted(set(seen)) and seen[-1] <= ex.total_firings
    assert seen and seen[0] >= TICK
    assert all(b - a >= TICK for a, b in zip(seen, seen[1:]))


def test_firing_budget_holds_with_progress():
    from loom.golden.scheduler import FiringBudgetExceeded
    g, ret = _loop_adding_invariant(50_000, False)
    with pytest.raises(FiringBudgetExceeded):
        run(g, ret, max_firings=100_000, on_firings=lambda n: None)


@contextmanager
def _deadline(seconds: int):
    """Fail instead of hanging (no pytest-timeout here): SIGALRM after `seconds`."""
    def expire(signum, frame):
        raise TimeoutError(f"still running after {seconds} s")
    previous = signal.signal(signal.SIGALRM, expire)
    signal.alarm(seconds)
    try:
        yield
    finally:
        signal.alarm(0)
        signal.signal(signal.SIGALRM, previous)


@pytest.mark.parametrize("progress", [False, True])
def test_a_loop_that_never_ends_exceeds_the_budget(progress):
    """A stream of step 0 fires forever in one burst: the budget must still stop
    it, at its own size (a livelock report, not a hang)."""
    from loom.golden.scheduler import FiringBudgetExceeded
    g, ret = _loop_adding_invariant(5, False, step=0)
    with _deadline(20), pytest.raises(FiringBudgetExceeded, match="more than 1000 firings"):
        run(g, ret, max_firings=1000, on_firings=(lambda n: None) if progress else None)
    assert sum(n.firings for n in g.nodes) == 1001     # stopped at the first firing past it


def _random_order_run(graph, ret, seed: int) -> None:
    """A reference scheduler with nothing of run()'s: fire one ready node,
    chosen at random, one firing at a time, until none can fire."""
    import random
    rng = random.Random(seed)
    nodes = list(graph.nodes)
    while True:
        rng.shuffle(nodes)
        if not any(n.actor.fire(n.ins, n.outs) for n in nodes):
            return


@pytest.mark.parametrize("kernel", ["gcd", "bubble_sort", "matmul", "histogram"])
def test_traces_equal_a_random_order_schedule(compiled, tmp_path, kernel):
    """Kahn: every channel's tokens and the memories do not depend on the schedule,
    so run()'s must equal those of a random single-firing schedule."""
    from loom.bundle import load_bundle
    from loom.golden.build import build_graph, feed
    from loom.golden.run import find_func
    from loom.ir import load_module
    from loom.lowering import lower

    arts = compiled(kernel)
    dfg = tmp_path / f"{kernel}.dfg.mlir"
    lower(arts.scf_mlir, dfg, arts.top)
    func = find_func(load_module(dfg), None, kernel)
    bundle = load_bundle(arts.bundle_path)
    graphs = []
    for _ in range(2):
        g, ret = build_graph(func, bundle, kernel)
        feed(g, bundle, 0)
        ret.actor.arm()
        graphs.append((g, ret))
    ex = run(*graphs[0])
    assert ex.ok, ex.problems
    ref, _ = graphs[1]
    _random_order_run(*graphs[1], seed=7)
    assert ex.traces == {name: ch.trace for name, ch in ref.channels.items()}
    assert ex.memories == {**ref.untouched,
                           **{a: list(n.actor.storage) for a, n in ref.memories.items()}}


def test_a_summary_mode_run_keeps_the_traced_runs_summaries_and_counts():
    """traced=False folds the traces every TICK firings (this loop makes several
    TICKs) and at the end: its summaries and counts are those of the traces."""
    from loom.golden.scheduler import TICK
    from loom.stream_summary import summarize
    traced = run(*_loop_adding_invariant(50_000, False))
    g, ret = _loop_adding_invariant(50_000, False)
    folded = run(g, ret, traced=False)
    assert traced.total_firings > 3 * TICK and folded.ok, folded.problems
    assert folded.traces is None and all(not ch.trace for ch in g.channels.values())
    assert folded.summaries() == {n: summarize(t) for n, t in traced.traces.items()}
    assert folded.counts == {n: len(t) for n, t in traced.traces.items()}
    assert folded.tokens == traced.tokens == sum(map(len, traced.traces.values()))
