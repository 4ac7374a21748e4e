"""map_dfg's routing rounds: the result is the round that left the least to
repair, with the placement that round routed; a repair round's estimate
makes the wires through crowded ports longer; a near miss is mapped again
with the next seeds (LOOM's mapper lanes)."""

from __future__ import annotations

from types import SimpleNamespace

from loom.fabric.presets import preset
from loom.mapper import mapping
from loom.mapper.checks import check
from loom.mapper.mapping import REPAIRS, ROUNDS, edge_nets, map_dfg
from loom.mapper.router import route, searcher
from loom.mapper.sites import site_of
from loom.fabric.adg_view import adg_view
from tests.mapper.test_placement import ADD, _body
from tests.mapper.test_precheck import kernel_func

MULADD = ADD.replace("    return %s : i32", """\
    %t = arith.muli %s, %b : i32
    %u = arith.addi %t, %a : i32
    return %u : i32""")
"""Three ops on chess-2x2's four PEs: the repair anneal has room to move them."""


def test_the_result_is_the_best_round_with_the_placement_it_routed(monkeypatch):
    # a router whose rounds get worse: round n reports n ports of its real
    # routes as shared, so every round is a failure and the first is the best
    calls: list[int] = []

    def worsening(graph, nets, **kwargs):
        r = route(graph, nets, **kwargs)
        calls.append(len(calls) + 1)
        used = sorted({p for net in r.paths for path in net if path for p in path})
        r.overused = used[:len(calls)]
        return r

    monkeypatch.setattr(mapping, "route", worsening)
    m = map_dfg(_body(MULADD), adg_view(preset("chess-2x2").build()), seed=0, lanes=1)
    assert len(calls) == 1 + sum(r.rounds for r in REPAIRS)
    assert (m.rounds, len(m.overused)) == (1, 1)
    # the kept placement is the one that round routed: the (deterministic)
    # router, run again on it, gives the kept paths
    nets, where, bound = edge_nets(m.problem, m.placement)
    again = route(m.adg, nets, search=searcher(m.adg))
    assert mapping._edge_paths(m.problem, m.placement, again, where, bound) == m.paths


def _failing_rounds(monkeypatch) -> list[int]:
    """Make every routing round fail (its first port reported shared); the
    list records the rounds routed."""
    calls: list[int] = []

    def failing(graph, nets, **kwargs):
        r = route(graph, nets, **kwargs)
        calls.append(len(calls) + 1)
        r.overused = [nets[0].source]
        return r

    monkeypatch.setattr(mapping, "route", failing)
    return calls


def test_a_round_budget_cuts_the_repairs_or_stretches_the_last(monkeypatch):
    calls = _failing_rounds(monkeypatch)
    module = preset("chess-2x2").build()
    for budget in (1, 3, ROUNDS, 25):
        calls.clear()
        m = map_dfg(_body(MULADD), adg_view(module), seed=0, rounds=budget, lanes=1)
        assert len(calls) == budget and not m.ok
    assert ROUNDS == 1 + sum(r.rounds for r in REPAIRS)
    assert [(r.rounds, r.heat) for r in mapping.repairs(25)] == [
        (REPAIRS[0].rounds, REPAIRS[0].heat), (24 - REPAIRS[0].rounds, REPAIRS[-1].heat)]
    assert mapping.repairs(1) == [] and mapping.repairs(ROUNDS) == list(REPAIRS)


def test_an_edge_failing_every_round_weighs_at_most_max_weight(monkeypatch):
    # every round fails on the same net: doubled without bound its edges
    # would weigh 2**7 after the cool repair's seven rounds
    _failing_rounds(monkeypatch)
    m = map_dfg(_body(MULADD), adg_view(preset("chess-2x2").build()), seed=0)
    assert max(m.problem.weights) == mapping.MAX_WEIGHT
    assert mapping.REWEIGHT ** REPAIRS[-1].rounds > mapping.MAX_WEIGHT


def test_a_kernel_that_fits_maps_the_same_under_a_larger_budget(tmp_path):
    # shifts fits in a repair round (below): rounds after the one that fits are never routed
    module = preset("chess-8x8-ext4").build()
    func = kernel_func("shifts", tmp_path, adg_view(module).max_join_fanin)
    short = map_dfg(func.regions[0].block, adg_view(module), seed=0)
    long = map_dfg(func.regions[0].block, adg_view(module), seed=0, rounds=40)
    assert short.ok and (long.rounds, long.paths, long.placement.chosen) == (
        short.rounds, short.paths, short.placement.chosen)


def test_a_port_shared_through_a_round_lengthens_every_wire_through_it(monkeypatch):
    # the congestion-guided repair alone, with a router that reports the
    # source port of round 1's first net (a module input: its one port
    # starts every route from there) as shared through every pass: each
    # repair round adds the repair's congestion to the wires from there
    calls: list[int] = []

    def crowded(graph, nets, **kwargs):
        r = route(graph, nets, **kwargs)
        calls.append(nets[0].source if not calls else calls[0])
        r.overused = [calls[0]]
        r.history = [float(r.passes) * (p == calls[0]) for p in range(len(graph.ports))]
        return r

    cool = next(r for r in REPAIRS if r.congestion)
    monkeypatch.setattr(mapping, "REPAIRS", (cool,))
    monkeypatch.setattr(mapping, "route", crowded)
    m = map_dfg(_body(MULADD), adg_view(preset("chess-2x2").build()), seed=0, lanes=1)
    assert len(calls) > 1  # repaired (until no edge runs through the port)
    node = m.adg.ports[calls[0]].node
    assert m.adg.nodes[node].kind == "module_in"
    site = site_of(m.adg, node)
    pes = sorted({site_of(m.adg, n.id) for n in m.adg.nodes if n.pe})
    assert [m.problem.estimate.between(site, pe) for pe in pes] == [
        m.problem.distances.between(site, pe) + cool.congestion * (len(calls) - 1)
        for pe in pes]


def test_a_kernel_the_reheated_repair_fits_maps_in_its_first_round(tmp_path):
    # kernels/gcd.c on chess-8x8-ext4 at seed 2: round 1 leaves ports
    # shared, and a round of the reheated repair routes it (the cool,
    # congestion-guided rounds come second)
    module = preset("chess-8x8-ext4").build()
    func = kernel_func("gcd", tmp_path, adg_view(module).max_join_fanin)
    m = map_dfg(func.regions[0].block, adg_view(module), seed=2)
    assert m.ok and 2 <= m.rounds <= 1 + REPAIRS[0].rounds
    assert check(m, adg_view(module)) == []


def test_each_round_reports_its_stage_and_the_tick_changes_nothing(monkeypatch):
    # every round fails, so the status texts name each round's annealing and
    # routing; the mapping is the one a silent run gives
    _failing_rounds(monkeypatch)
    module = preset("chess-2x2").build()
    heard: list[str] = []
    m = map_dfg(_body(MULADD), adg_view(module), seed=0, rounds=3, tick=heard.append)
    silent = map_dfg(_body(MULADD), adg_view(module), seed=0, rounds=3)
    assert (m.placement.chosen, m.paths) == (silent.placement.chosen, silent.paths)
    said = "\n".join(heard)
    for k in (1, 2, 3):
        assert f"round {k} of at most 3: annealing, move 0 of" in said
        assert f"round {k} of at most 3: routing pass 1 (at most 40), net 1 of" in said


def test_throughput_rounds_never_raise_a_loop_bound_and_lower_some(tmp_path, monkeypatch):
    # the same fit (seed 0) with and without the rounds after it: the loop
    # bounds (throughput.py's model, largest first) never rise, and fall on
    # kernels whose critical recurrence the first placement left long
    from loom.mapper.throughput import throughput

    view = adg_view(preset("chess-8x8-ext2").build())
    lowered = []
    for kernel in ("dot", "zero_trip", "gcd_sub", "fir"):
        body = kernel_func(kernel, tmp_path, view.max_join_fanin).regions[0].block
        bounds = []
        for rounds in (0, mapping.TUNE_ROUNDS):
            monkeypatch.setattr(mapping, "TUNE_ROUNDS", rounds)
            m = map_dfg(body, view, seed=0)
            assert m.ok and not check(m, view), kernel
            bounds.append(sorted((lp.ii for lp in throughput(m, view).loops), reverse=True))
        assert bounds[1] <= bounds[0], (kernel, bounds)
        lowered += [kernel] if bounds[1] < bounds[0] else []
    assert lowered, "no kernel's bounds fell"


def test_each_throughput_round_reweighs_the_best_mappings_critical_edges(tmp_path, monkeypatch):
    # zero_trip on chess-8x8-ext2 at seed 0: a throughput round lowers its
    # bound; the rounds after it must weigh that mapping's critical
    # recurrence, not the fit's
    view = adg_view(preset("chess-8x8-ext2").build())
    body = kernel_func("zero_trip", tmp_path, view.max_join_fanin).regions[0].block
    seen: list[int] = []
    built = mapping._model

    def spy(timing, m):
        model = built(timing, m)
        model_of[id(model)] = m
        return model

    def critical(model, timing):
        seen.append(model_of[id(model)].rounds)
        return real(model, timing)

    model_of: dict[int, mapping.Mapping] = {}
    real = mapping.critical_edges
    monkeypatch.setattr(mapping, "_model", spy)
    monkeypatch.setattr(mapping, "critical_edges", critical)
    m = map_dfg(body, view, seed=0)
    assert seen[0] == 1 and m.rounds > 1   # the fit's first, then a better round's
    assert m.rounds in seen[1:]


def _lanes(monkeypatch, left: dict[int, tuple[int, int]]) -> list[int]:
    """Make a lane of seed s leave left[s] (unrouted edges, shared ports);
    the list records the seeds mapped."""
    seeds: list[int] = []

    def lane(sw, adg, view, weights, seed, rounds, tick, checkpoint):
        seeds.append(seed)
        unrouted, shared = left[seed]
        return SimpleNamespace(seed=seed, ok=(unrouted, shared) == (0, 0),
                               paths=[None] * unrouted + [[0, 1]], overused=list(range(shared)))

    monkeypatch.setattr(mapping, "_lane", lane)
    return seeds


def test_a_near_miss_is_mapped_again_with_the_next_seeds(monkeypatch):
    # LOOM's lanes (spec-mapper.md): the first seed that fits wins; among
    # misses the one that left least, the earlier on a tie
    body, view = _body(MULADD), adg_view(preset("chess-2x2").build())
    seeds = _lanes(monkeypatch, {5: (0, 1), 6: (0, 0), 7: (0, 0)})
    assert map_dfg(body, view, seed=5).seed == 6 and seeds == [5, 6]
    seeds = _lanes(monkeypatch, {5: (0, 3), 6: (0, 2), 7: (0, 2)})
    assert map_dfg(body, view, seed=5).seed == 6 and seeds == [5, 6, 7]
    assert mapping.LANES == 3


def test_a_far_miss_or_a_fit_takes_one_lane(monkeypatch):
    body, view = _body(MULADD), adg_view(preset("chess-2x2").build())
    for first in ((0, 0), (1, 0), (0, mapping.NEAR_MISS + 1)):
        seeds = _lanes(monkeypatch, {0: first, 1: (0, 0)})
        assert map_dfg(body, view, seed=0).seed == 0 and seeds == [0]
