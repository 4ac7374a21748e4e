"""Negotiated-congestion routing on the hand-worked ADG of test_adg_graph.

Ports (see test_adg_graph): module inputs 0, 1; sw_0 inputs 2, 3 and
outputs 4, 5 (input 0 reaches output 0 only, input 1 both); fu_add inputs
6, 7; fu_mul inputs 9, 10; the module output 12 (from fu_add 8, fu_mul 11).
"""

from __future__ import annotations

from loom.mapper.router import HISTORY_FACTOR, Net, route
from tests.mapper.test_adg_graph import _graph


def test_two_nets_take_disjoint_switch_outputs():
    r = route(_graph(), [Net(0, (6,)), Net(1, (7,))])
    assert r.ok and r.passes == 1
    assert r.paths == [[[0, 2, 4, 6]], [[1, 3, 5, 7]]]


def test_negotiation_moves_the_net_that_has_a_choice():
    # net 0 (from b) may use either switch output and takes output 0 first
    # (lower port id); net 1 (from a) has only output 0, so history on
    # port 4 pushes net 0 to output 1
    r = route(_graph(), [Net(1, (6,)), Net(0, (7,))])
    assert r.ok
    assert r.paths == [[[1, 3, 5, 6]], [[0, 2, 4, 7]]]


def test_broadcast_branches_inside_the_switch():
    # b to both inputs of fu_add: one tree, branching at the switch input 3
    # (LOOM's spatial PE contract: fanout happens at a switch input; a
    # switch output is one PE input, whose mux feeds one unit input)
    r = route(_graph(), [Net(1, (6, 7))])
    assert r.ok
    assert r.paths == [[[1, 3, 4, 6], [1, 3, 5, 7]]]


def test_unreachable_sink_and_lasting_overuse_are_reported():
    # fu_add's output reaches only the module output: fu_mul's input is unreachable
    r = route(_graph(), [Net(0, (6,)), Net(8, (9,))], passes=3)
    assert not r.ok and r.paths[0] == [[0, 2, 4, 6]] and r.paths[1] == [None]
    # two nets from one port can never be separated: the budget ends, the
    # shared ports are named
    r = route(_graph(), [Net(0, (6,)), Net(0, (7,))], passes=3)
    assert not r.ok and r.passes == 3 and r.overused[:3] == [0, 2, 4]


def test_same_inputs_same_routes():
    nets = [Net(1, (6, 10)), Net(0, (7,))]
    assert route(_graph(), nets).paths == route(_graph(), nets).paths


def test_history_counts_the_passes_that_ended_with_a_port_shared():
    # the two nets from one port share 0, 2 and 4 after each of the 3 passes;
    # history grows by HISTORY_FACTOR per such pass, nowhere else
    r = route(_graph(), [Net(0, (6,)), Net(0, (7,))], passes=3)
    assert [(p, h) for p, h in enumerate(r.history) if h] == [
        (p, 3 * HISTORY_FACTOR) for p in (0, 2, 4)]
