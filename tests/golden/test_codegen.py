"""The compiled graph step (golden/codegen.py) against each op's own `fire`.

Every op class runs alone in a graph through the scheduler, and fresh through
drive_actor (its rules compiled as `fire`, one firing at a time): output
streams, tokens taken and the final phase must agree. The per-op tests check
`fire` against the seeds and native C; this checks the inlining."""

from __future__ import annotations

import random
from collections.abc import Callable

import pytest

from loom.golden.actor import Actor, drive_actor
from loom.golden.codegen import generate
from loom.golden.graph import Graph
from loom.golden.ops import arith, arith_float
from loom.golden.ops.buffer import Buffer
from loom.golden.ops.carry import Carry
from loom.golden.ops.compose import Bundle, Compose, Decompose, Unbundle
from loom.golden.ops.cond_br import CondBr
from loom.golden.ops.constant import Constant, Sink, Source
from loom.golden.ops.fork import Fork, LazyFork
from loom.golden.ops.func_return import Return
from loom.golden.ops.gate import Gate
from loom.golden.ops.invariant import Invariant
from loom.golden.ops.join import Join
from loom.golden.ops.load import Load, Store
from loom.golden.ops.lsq import LoadStoreQueue
from loom.golden.ops.memory import Memory
from loom.golden.ops.merge import ControlMerge, Merge
from loom.golden.ops.mux import Mux
from loom.golden.ops.stream import Stream
from loom.golden.ops.sync import Sync
from loom.golden.scheduler import run

W = 8
EDGES = [0, 1, 2, 0x7F, 0x80, 0x81, 0xFE, 0xFF]


def _data(rng: random.Random, n: int = 40, width: int = W) -> list[int]:
    return [rng.choice(EDGES) & ((1 << width) - 1) if rng.random() < 0.4
            else rng.randrange(1 << width) for _ in range(n)]


def _bits(rng: random.Random, n: int = 40) -> list[int]:
    return [rng.randrange(2) for _ in range(n)]


Case = tuple[Callable[[], Actor], Callable[[random.Random], list[list]]]

#: f32 corners: +-0, subnormals, 1, -2.75, the greatest finite, +-inf, NaNs
FLOAT_EDGES = [0, 0x80000000, 1, 0x007FFFFF, 0x3F800000, 0xC0300000, 0x7F7FFFFF, 0x7F800000,
               0xFF800000, 0x7FC00000, 0xFFC00001]


def _floats(rng: random.Random, n: int = 40, width: int = 32) -> list[int]:
    if width == 64:    # an f32 pattern widened keeps its class (zero, NaN, ...) roughly
        return [v << 32 for v in _floats(rng, n)]
    return [rng.choice(FLOAT_EDGES) if rng.random() < 0.4 else rng.randrange(1 << 32)
            for _ in range(n)]


_FLOAT_BINARY = (arith_float.AddF, arith_float.SubF, arith_float.MulF, arith_float.DivF,
                 arith_float.RemF, arith_float.MinNumF, arith_float.MaxNumF)
FLOAT_CASES: dict[str, Case] = {
    **{cls.__name__: ((lambda cls=cls: cls(32)), lambda r: [_floats(r), _floats(r, 30)])
       for cls in _FLOAT_BINARY},
    **{f"CmpF_{p}": ((lambda p=p: arith_float.CmpF(p, 32)), lambda r: [_floats(r), _floats(r)])
       for p in ("oeq", "ult", "uno", "true")},
    **{cls.__name__: ((lambda cls=cls: cls(64)), lambda r: [_floats(r, width=64)])
       for cls in (arith_float.NegF, arith_float.AbsF, arith_float.SqrtF)},
    "SIToFP": (lambda: arith_float.SIToFP(W, 32), lambda r: [_data(r)]),
    "UIToFP": (lambda: arith_float.UIToFP(W, 64), lambda r: [_data(r)]),
    "FPToSI": (lambda: arith_float.FPToSI(32, W), lambda r: [_floats(r)]),
    "FPToUI": (lambda: arith_float.FPToUI(64, W), lambda r: [_floats(r, width=64)]),
    "ConvertF": (lambda: arith_float.ConvertF(64, 32), lambda r: [_floats(r, width=64)]),
    "Bitcast": (lambda: arith_float.Bitcast(32, 32), lambda r: [_floats(r)]),
}


#: name -> (a new actor, its input streams from a seeded Random)
CASES: dict[str, Case] = {
    **{cls.__name__: ((lambda cls=cls: cls(W)), lambda r: [_data(r), _data(r, 30)])
       for cls in (arith.AddI, arith.SubI, arith.MulI, arith.DivSI, arith.DivUI, arith.RemSI,
                   arith.RemUI, arith.AndI, arith.OrI, arith.XOrI, arith.ShLI, arith.ShRSI,
                   arith.ShRUI, arith.MinSI, arith.MaxSI, arith.MinUI, arith.MaxUI)},
    **{f"CmpI_{p}": ((lambda p=p: arith.CmpI(p, W)), lambda r: [_data(r), _data(r)])
       for p in arith.PREDICATE_NAMES},
    "Select": (lambda: arith.Select(W), lambda r: [_bits(r), _data(r), _data(r)]),
    "ExtSI": (lambda: arith.ExtSI(W, 16), lambda r: [_data(r)]),
    "ExtUI": (lambda: arith.ExtUI(W, 16), lambda r: [_data(r)]),
    "TruncI": (lambda: arith.TruncI(16, W), lambda r: [_data(r, width=16)]),
    "IndexCast_wide": (lambda: arith.IndexCast(W, 64), lambda r: [_data(r)]),
    "IndexCast_narrow": (lambda: arith.IndexCast(64, W), lambda r: [_data(r, width=64)]),
    "IndexCastUI": (lambda: arith.IndexCastUI(64, W), lambda r: [_data(r, width=64)]),
    "Buffer": (lambda: Buffer(2), lambda r: [_data(r)]),
    "CondBr": (lambda: CondBr(), lambda r: [_bits(r), _data(r)]),
    "Constant": (lambda: Constant(5), lambda r: [[None] * 7]),
    "Sink": (lambda: Sink(), lambda r: [_data(r)]),
    "Source": (lambda: Source(), lambda r: []),
    "Fork": (lambda: Fork(3), lambda r: [_data(r)]),
    "LazyFork": (lambda: LazyFork(2), lambda r: [_data(r)]),
    "Join": (lambda: Join(3), lambda r: [[None] * 5, [None] * 3, [None] * 4]),
    "Sync": (lambda: Sync(2), lambda r: [_data(r, 9), _data(r, 12)]),
    "Merge": (lambda: Merge(2), lambda r: [[], _data(r)]),
    "ControlMerge": (lambda: ControlMerge(3), lambda r: [[], [], _data(r)]),
    "Mux": (lambda: Mux(2), lambda r: [_bits(r, 30), _data(r), _data(r, 12)]),
    "Gate": (lambda: Gate(), lambda r: [_data(r), _bits(r)]),
    "Carry": (lambda: Carry(), lambda r: [_bits(r), _data(r, 5), _data(r)]),
    "Invariant": (lambda: Invariant(), lambda r: [_bits(r), _data(r, 5)]),
    # (start, step, bound) ranges that end the loop
    **{f"Stream_{s}_{c}": ((lambda s=s, c=c: Stream(s, c, 32)),
                           lambda r, lo=lo, st=st, b=b: [[r.randrange(*lo)], [r.randrange(*st)],
                                                         [r.randrange(*b)]])
       for s, c, lo, st, b in (("+=", "<", (0, 9), (1, 4), (20, 40)),
                               ("+=", "<=", (0, 9), (1, 4), (20, 40)),
                               ("+=", "!=", (0, 9), (1, 2), (20, 40)),
                               ("*=", "<", (1, 9), (2, 4), (100, 900)),
                               ("<<=", "<=", (1, 9), (1, 3), (100, 900)),
                               ("-=", ">", (90, 99), (1, 4), (0, 5)),
                               ("-=", ">=", (90, 99), (1, 4), (0, 5)),
                               ("/=", ">", (90, 99), (2, 4), (0, 5)),
                               ("/=", ">=", (90, 99), (2, 4), (1, 5)),
                               (">>=", ">=", (90, 99), (1, 3), (1, 5)))},
    "Load": (lambda: Load(1), lambda r: [_data(r, 9), _data(r, 7), [None] * 8]),
    "Load2": (lambda: Load(2), lambda r: [_data(r, 9), _data(r, 9), _data(r, 7), [None] * 8]),
    "Store": (lambda: Store(1), lambda r: [_data(r, 9), _data(r, 8), [None] * 7]),
    "Memory": (lambda: Memory(ld=1, st=1, shape=(300,), width=W),
               lambda r: [_data(r, 12), [r.randrange(300) for _ in range(12)],
                          [r.randrange(300) for _ in range(15)]]),
    "Memory2d": (lambda: Memory(ld=2, st=0, shape=(3, 100), width=W, storage=list(range(300))),
                 lambda r: [[r.randrange(3) for _ in range(9)], [r.randrange(100) for _ in range(9)],
                            [r.randrange(3) for _ in range(4)], [r.randrange(100) for _ in range(5)]]),
    "LoadStoreQueue": (lambda: LoadStoreQueue(ld=1, st=1, shape=(300,), width=W,
                                              groups=[(("ld", 0), ("st", 0))]),
                       lambda r: [_data(r, 12), [r.randrange(300) for _ in range(12)],
                                  [r.randrange(300) for _ in range(15)], [None] * 14, [None]]),
    "Compose": (lambda: Compose([W, 2]), lambda r: [[(a, b & 3) for a, b in zip(_data(r), _data(r))]]),
    "Decompose": (lambda: Decompose([W, 2]), lambda r: [_data(r, width=10)]),
    "Unbundle": (lambda: Unbundle(1), lambda r: [[(a, b) for a, b in zip(_data(r), _data(r))]]),
    "Bundle": (lambda: Bundle(1), lambda r: [[None] * 9, _data(r), _data(r, 12)]),
    "Return": (lambda: Return(2), lambda r: [_data(r, 3), _data(r, 2)]),
    **FLOAT_CASES,
}


def _scheduled(actor: Actor, inputs: list[list]) -> tuple[list[list], list[int]]:
    """Output streams and tokens taken when `actor` runs alone in a graph."""
    g = Graph("one")
    ins = [g.channel(f"in{i}", W) for i in range(actor.n_in)]
    outs = [g.channel(f"out{j}", W) for j in range(actor.n_out)]
    g.add("op", "op", actor, ins, outs)
    ret = g.add("ret", "handshake.return", Return(0), [], [])
    for ch, stream in zip(ins, inputs):
        ch.q.extend(stream)
    run(g, ret, max_firings=10_000)
    return [ch.trace for ch in outs], [len(s) - len(ch.q) for s, ch in zip(inputs, ins)]


@pytest.mark.parametrize("name", sorted(CASES))
def test_the_compiled_graph_fires_each_op_as_its_fire_does(name):
    make, streams = CASES[name]
    for seed in range(5):
        inputs = streams(random.Random(seed))
        by_fire, by_graph = make(), make()
        want = drive_actor(by_fire, inputs)
        assert _scheduled(by_graph, inputs) == want, seed
        # the op's state, written back by the graph's step
        assert {k: v for k, v in vars(by_graph).items() if k != "_fire"} == \
            {k: v for k, v in vars(by_fire).items() if k != "_fire"}, seed


def test_every_op_class_has_a_case():
    """A new op class gets a row here, so its rules are checked inlined too."""
    import importlib
    import pkgutil

    import loom.golden.ops as ops
    classes = set()
    for info in pkgutil.iter_modules(ops.__path__):
        module = importlib.import_module(f"loom.golden.ops.{info.name}")
        classes |= {c.__name__ for c in vars(module).values()
                    if isinstance(c, type) and issubclass(c, Actor) and c is not Actor
                    and c.__module__ == module.__name__ and not c.__name__.startswith("_")}
    covered = {type(make()).__name__ for make, _ in CASES.values()}
    assert classes <= covered, classes - covered


class _EveryOther(Actor):
    """An actor that overrides fire and has no rules: the graph calls its fire."""

    n_in = n_out = 1

    def __init__(self) -> None:
        self.odd = False

    def fire(self, ins, outs) -> bool:
        if not ins[0].q:
            return False
        v = ins[0].pop()
        if self.odd:
            outs[0].push(v)
        self.odd = not self.odd
        return True


def test_an_actor_without_rules_runs_through_its_fire():
    assert _scheduled(_EveryOther(), [[1, 2, 3, 4, 5]]) == ([[2, 4]], [5])


def test_a_source_refills_when_its_consumer_drains_it():
    """Source -> join with a 3-token input: the join takes 3 source tokens; the
    source offers a fourth, left pending (its pop wakes the source's block)."""
    g = Graph("src")
    s, x, j = g.channel("s", 0), g.channel("x", 0), g.channel("j", 0)
    g.add("src", "handshake.source", Source(), [], [s])
    g.add("join", "handshake.join", Join(2), [x, s], [j])
    g.add("sink", "handshake.sink", Sink(), [j], [])
    ret = g.add("ret", "handshake.return", Return(0), [], [])
    x.q.extend([None] * 3)
    ex = run(g, ret)
    assert ex.ok, ex.problems
    assert len(ex.traces["s"]) == 4 and len(ex.traces["j"]) == 3


def test_generated_code_names_each_node_in_a_comment():
    g = Graph("named")
    a, b = g.channel("a", W), g.channel("b", W)
    g.add("buf0", "handshake.buffer", Buffer(), [a], [b])
    assert "# handshake.buffer 'buf0'" in generate(g)


@pytest.mark.parametrize("make, inputs, error", [
    (lambda: Merge(2), [[1], [2]], "MergeConflict"),
    (lambda: Mux(2), [[2], [5], [6]], "MuxSelectOutOfRange"),
    (lambda: Memory(ld=1, st=0, shape=(4,), width=W), [[9]], "MemoryOutOfBounds"),
])
def test_a_model_error_is_raised_inside_the_graph_as_by_fire(make, inputs, error):
    with pytest.raises(Exception) as by_fire:
        drive_actor(make(), inputs)
    with pytest.raises(Exception) as by_graph:
        _scheduled(make(), inputs)
    assert type(by_fire.value).__name__ == type(by_graph.value).__name__ == error
    assert str(by_fire.value) == str(by_graph.value)
