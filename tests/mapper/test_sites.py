"""Site distances on the hand-worked ADG of test_adg_graph: module inputs
(sites node:0, node:1; ports 0, 1) reach sw_0 (node:2; inputs 2, 3, outputs
4, 5), whose outputs both reach every input of pe_0; a wire costs 1 plus
the congestion of its two ports."""

from __future__ import annotations

from loom.mapper.sites import UNREACHABLE, SiteDistances
from tests.mapper.test_adg_graph import _graph


def test_without_congestion_a_distance_counts_wires():
    d = SiteDistances.of(_graph())
    assert d.between("node:0", "pe:pe_0") == 2  # module input -> switch -> PE
    assert d.between("node:0", "node:2") == 1
    # nothing transits a unit: the module output is reached from the PE only
    assert d.between("node:0", "node:5") == UNREACHABLE
    assert d.between("pe:pe_0", "node:5") == 1


def test_a_wire_costs_one_plus_the_congestion_of_its_two_ports():
    g = _graph()
    congestion = [0.0] * len(g.ports)
    congestion[2] = 0.5  # the switch input from module input a
    congestion[4] = 3.0  # one switch output: the other still reaches the PE at cost 1
    d = SiteDistances.of(g, congestion)
    assert d.between("node:0", "pe:pe_0") == 1.5 + 1
    assert d.between("node:1", "pe:pe_0") == 1 + 1
    congestion[5] = 1.0  # both outputs crowded: the cheaper wire counts
    d = SiteDistances.of(g, congestion)
    assert d.between("node:1", "pe:pe_0") == 1 + 2
    assert d.between("node:0", "pe:pe_0") == 1.5 + 2
