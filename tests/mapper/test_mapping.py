"""map_dfg's routing rounds: the result is the round that left the least to
repair, with the placement that round routed."""

from __future__ import annotations

from loom.fabric.presets import preset
from loom.mapper import mapping
from loom.mapper.mapping import ROUTE_ROUNDS, edge_nets, map_dfg
from loom.mapper.router import route, searcher
from tests.mapper.test_placement import ADD, _body

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
    m = map_dfg(_body(MULADD), preset("chess-2x2").build(), seed=0)
    assert len(calls) == ROUTE_ROUNDS
    assert (m.rounds, len(m.overused)) == (1, 1)
    # the kept placement is the one that round routed: the (deterministic)
    # router, run again on it, gives the kept paths
    nets, where, bound = edge_nets(m.problem, m.placement)
    again = route(m.adg, nets, search=searcher(m.adg))
    assert mapping._edge_paths(m.problem, m.placement, again, where, bound) == m.paths
