"""The throughput model of a mapping (loom.mapper.throughput). Its bound is
checked against Verilator in tests/sim/test_fabric_regression.py (no run
beats it); here: the link buffers it counts are the ones the fabric RTL
instantiates, its bounds respect what every PE on a recurrence costs, and
its lower bound on cycles follows the marked-graph argument on a hand case."""

from __future__ import annotations

import re
from fractions import Fraction

import pytest

from loom.fabric.adg_view import adg_view
from loom.fabric.presets import preset
from loom.fabric.rtl.top import fabric_rtl
from loom.mapper.adg_graph import AdgGraph, flatten
from loom.mapper.mapping import map_dfg
from loom.mapper.throughput import LoopThroughput, Throughput, throughput
from loom.rtl.render import identifier
from tests.mapper.test_precheck import kernel_func

BUFFER = re.compile(r"^\s*logic (\w+)_(hop|lane)(\d+)_valid;$", re.M)


def _model_links(g: AdgGraph) -> set[tuple[str, int]]:
    """(instance, data input) of every input port the model counts a link buffer on."""
    pe_input = {e.dst: e.pe_input_index for e in g.edges if e.pe_input_index >= 0}
    out = set()
    for p in g.registered:
        port, node = g.ports[p], g.nodes[g.ports[p].node]
        if node.pe:
            out.add((identifier(node.pe), pe_input[p]))
        else:   # the top numbers data inputs: memref ports left out
            before = [q for q in node.inputs[:port.index] if not g.ports[q].is_memref]
            out.add((identifier(node.name), len(before)))
    return out


@pytest.mark.parametrize("name", ["chess-8x8-ext2", "chess-2x2-ext2x2",
                                  "chess-4x4-ext2x3-ring-b2"])
def test_the_link_buffers_counted_are_those_the_rtl_instantiates(name):
    view = adg_view(preset(name).build())
    top = fabric_rtl(view, name).modules[-1].text
    in_rtl = {(inst, int(k)) for inst, _, k in BUFFER.findall(top)}
    assert in_rtl   # backward switch links at least
    assert _model_links(flatten(view)) == in_rtl


@pytest.mark.parametrize("kernel", ["sum_n", "dot", "fir"])
def test_a_loop_on_the_fabric_pays_every_pe_on_its_recurrence(kernel, tmp_path):
    view = adg_view(preset("chess-8x8-ext2").build())
    func = kernel_func(kernel, tmp_path, view.max_join_fanin)
    m = map_dfg(func.regions[0].block, view, seed=0)
    assert m.ok
    model = throughput(m, view)
    assert model.loops and model.unavailable is None
    for lp in model.loops:
        # the fabric only adds registers to the direct RTL's units
        assert lp.ii >= lp.direct_ii
        # every PE output on the critical recurrence is a register
        pes = {r.nodes[0] for r in lp.routes if r.nodes[0].startswith("pe_")}
        assert lp.latency >= len(pes)
        assert lp.ii == Fraction(lp.latency, lp.tokens)


def test_the_cycle_bound_counts_each_activation_at_its_recurrence():
    # a recurrence of 6 cycles and 2 tokens over channels a and b: token
    # k + 2 of a channel comes 6 cycles after token k at the earliest, so n
    # tokens in an activation take (n - 2) * 3 cycles; activations add up
    loop = LoopThroughput("for0", Fraction(3), Fraction(1), 6, 2, ("a", "b"), ())
    model = Throughput((loop,))
    two = {"for0": [5, 7]}   # the lengths do not enter: the counts do
    assert model.min_cycles({"a": 13, "b": 14}, two) == (13 - 2 * 2) * 3
    assert model.min_cycles({"a": 3, "b": 3}, two) == 0
    # a channel missing, or one that skips iterations (a branch of an if):
    # the recurrence does not bound the run
    assert model.min_cycles({"a": 13}, two) == 0
    assert model.min_cycles({"a": 13, "b": 7}, two) == 0
    assert model.predicted_cycles(two) == 12 * 3


def test_a_branch_recurrence_is_left_out_of_the_bound(tmp_path):
    # kernels/collatz.c: the inner loop's update takes one branch of an if
    # each iteration; the regression's seed-1 run on chess-8x8-ext2 once
    # beat a bound that counted such a recurrence on every iteration
    view = adg_view(preset("chess-8x8-ext2").build())
    func = kernel_func("collatz", tmp_path, view.max_join_fanin)
    m = map_dfg(func.regions[0].block, view, seed=0)
    model = throughput(m, view)
    from loom.bundle import load_bundle
    from loom.golden.loop_report import activations
    from loom.golden.run import run_dfg
    bundle = load_bundle(tmp_path / "collatz.bundle.json")
    golden = run_dfg(func, bundle, "collatz")
    counts = {n: len(ch.trace) for n, ch in golden.graph.channels.items()}
    loops = activations(golden.graph)
    for lp in model.loops:
        on_cycle = [counts[c] for c in lp.cycle if c in counts]
        turns_each_iteration = max(on_cycle) - min(on_cycle) <= len(loops[lp.loop])
        alone = Throughput((lp,)).min_cycles(counts, loops)
        assert turns_each_iteration or alone == 0


def test_the_slowest_loop_and_what_holds_it_are_read_off_its_routes():
    # hand case: loop a runs at 2 against a direct 1, loop b at 6 against 4;
    # a is the slower against its direct RTL; its critical recurrence passes
    # a PE's output buffer, two backward switch hops and a kept fifo
    from loom.mapper.throughput import RouteTiming

    routes = (RouteTiming("x", 2, ("pe_0_0", "sw_1_1", "pe_1_1"), ("pe_0_0 out", "sw_1_1 link")),
              RouteTiming("y", 2, ("pe_1_1", "sw_0_1", "pe_0_0"), ("sw_0_1 link", "pe_0_0_in1")))
    a = LoopThroughput("a", Fraction(2), Fraction(1), 6, 3, ("x", "y"), routes)
    b = LoopThroughput("b", Fraction(6), Fraction(4), 6, 1, ("z",), ())
    assert Throughput((b, a)).slowest() is a
    assert a.limit() == ("loop a: expected II 2 (direct RTL 1); 4 of its critical recurrence's "
                         "6 cycle(s) / 3 token(s) on fabric registers (1 PE output buffer(s): "
                         "pe_0_0; 2 link register(s): sw_1_1, sw_0_1; 1 fifo(s): pe_0_0_in1)")
    assert b.limit().endswith("0 of its critical recurrence's 6 cycle(s) / 1 token(s) on fabric "
                              "registers")


def test_a_short_side_without_the_slots_of_the_long_one_bounds_the_loop(tmp_path, monkeypatch):
    # kernels/fir.c on a `-f` preset at seed 2 (bench/README.md): the loop condition
    # reaches the multiply-add's branch in one hop, and its index through two
    # loads and a 4-stage multiply; the hop's slots (PE output and input
    # fifos) cover fewer tokens than the long side's cycles, so the loop
    # runs slower than its registers alone say (Verilator: II about 1.7, and
    # the BYPASS group checks no run beats the bound)
    from loom.mapper import throughput as tp

    view = adg_view(preset("chess-8x8-ext2-f").build())
    func = kernel_func("fir", tmp_path, view.max_join_fanin)
    m = map_dfg(func.regions[0].block, view, seed=2)
    (lp,) = throughput(m, view).loops
    assert lp.ii > lp.direct_ii == 1 and lp.ii == Fraction(lp.latency, lp.tokens)
    # the slots are what binds: with no limit on them, the registers' bound
    monkeypatch.setattr(tp, "_capacity_edges", lambda g, routes: [])
    (free,) = throughput(m, view).loops
    assert free.ii == 1 < lp.ii
