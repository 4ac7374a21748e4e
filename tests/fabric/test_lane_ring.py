"""Memory lanes around all four sides (`-ring`, fabric/lane_ring.py), checked
on the flattened fabric: each lane is recovered through its tag bridges by
the mapper's own reader (mapper/bridges.py), and the mesh switch it leaves
or enters is read off the links, not off the layout that placed it."""

from __future__ import annotations

import re

import pytest

from loom.diagnostics import LoomError
from loom.fabric.presets import SCALAR_INPUTS, preset
from loom.fabric.topology import spread
from loom.mapper.adg_graph import AdgGraph, flatten
from loom.mapper.bridges import port_links, request_lanes, response_lanes
from loom.fabric.adg_view import adg_view

SIZE = 8
RING = f"chess-{SIZE}x{SIZE}-t2-ext2x3s2-mem1x1s20-ring"
"""Two extmemories of 3 load and 2 store lanes, an on-chip memory of 20 store lanes."""


@pytest.fixture(scope="module")
def ring() -> AdgGraph:
    return flatten(adg_view(preset(RING).build()))


def _lane_switches(g: AdgGraph) -> dict[tuple[str, str, int], str]:
    """(memory, family, lane) -> the mesh switch the lane leaves (request) or enters (response)."""
    feeders, sinks = port_links(g)
    found = {}
    for mem in (n for n in g.nodes if n.kind in ("memory", "extmemory")):
        data_in = [p for p in mem.inputs if not g.ports[p].is_memref]
        for ports, lanes_of, links, families in (
                (data_in, request_lanes, feeders, ("ld_addr", "st_addr", "st_data")),
                (mem.outputs, response_lanes, sinks, ("ld_data", "ld_done", "st_done"))):
            for family, port in zip(families, ports):
                for k, lane in enumerate(lanes_of(g, port, links)):
                    found[(mem.name, family, k)] = g.nodes[g.ports[links[lane.port][0]].node].name
    return found


def _position(switch: str) -> tuple[int, int]:
    m = re.fullmatch(r"sw_(\d+)_(\d+)", switch)
    assert m, switch
    return int(m[1]), int(m[2])


def _side(at: tuple[int, int]) -> str:
    r, c = at
    return {r == 0: "top", r == SIZE: "bottom", c == 0: "left", c == SIZE: "right"}[True]


def test_a_load_or_store_lane_sends_and_receives_on_one_boundary_switch(ring):
    switches = _lane_switches(ring)
    assert len(switches) == 2 * (3 + 3 + 3 + 2 + 2 + 2) + (1 + 1 + 1) + 3 * 20
    lanes = {(m, "ld" if f.startswith("ld") else "st", k) for m, f, k in switches}
    for m, kind, k in lanes:
        families = ("ld_addr", "ld_data", "ld_done") if kind == "ld" else (
            "st_addr", "st_data", "st_done")
        at = {switches[(m, f, k)] for f in families}
        assert len(at) == 1, (m, kind, k, at)
        r, c = _position(at.pop())
        assert (r in (0, SIZE)) != (c in (0, SIZE)), (m, kind, k, r, c)  # a side, not a corner


def test_lanes_are_spread_evenly_around_every_side(ring):
    switches = _lane_switches(ring)
    hosts: dict[str, set[tuple[str, int]]] = {}
    for (m, f, k), sw in switches.items():
        hosts.setdefault(sw, set()).add((m, k if f.startswith("st") else -1 - k))
    counts = [len(hosts.get(f"sw_{r}_{c}", ())) for r in range(SIZE + 1) for c in range(SIZE + 1)
              if (r in (0, SIZE)) != (c in (0, SIZE))]
    assert len(counts) == 4 * (SIZE - 1)
    # 2 x 5 + 21 lane groups on 28 switches: one each, three with two
    assert (min(counts), max(counts), sum(counts)) == (1, 2, 31)
    for memory in ("extmem_0", "extmem_1", "mem_0"):
        sides = {_side(_position(sw)) for (m, _, _), sw in switches.items() if m == memory}
        assert sides == {"top", "bottom", "left", "right"}, (memory, sides)


def test_scalar_ports_stay_where_the_two_sided_preset_has_them(ring):
    def scalar_switches(g: AdgGraph) -> list[str]:
        _, sinks = port_links(g)
        ins = sorted((n for n in g.nodes if n.kind == "module_in"), key=lambda n: n.index)
        assert len(ins) == SCALAR_INPUTS   # memrefs are no nodes
        return [g.nodes[g.ports[sinks[n.outputs[0]][0]].node].name for n in ins]
    at = scalar_switches(ring)
    assert at == scalar_switches(flatten(adg_view(preset(RING.removesuffix("-ring")).build())))
    assert [at.count(f"sw_0_{c}") for c in range(SIZE + 1)] == spread(SCALAR_INPUTS, SIZE + 1)


def test_a_mesh_without_side_switches_between_corners_is_refused():
    with pytest.raises(LoomError, match="no side switch between its corners"):
        preset("chess-1x1-ext1-ring")
    preset("chess-1x1-ring")   # no memory: nothing to place
    preset("chess-1x2-ext1-ring")   # the top and bottom sides have one each


def _groups_by_switch(g: AdgGraph) -> dict[tuple[str, str, int], set[str]]:
    """(memory, ld | st, lane) -> the switches its request and response families use."""
    out: dict[tuple[str, str, int], set[str]] = {}
    for (m, f, k), sw in _lane_switches(g).items():
        out.setdefault((m, f[:2], k), set()).add(sw)
    return out


def test_a_side_preset_puts_each_lane_on_a_switch_of_its_own_with_one_free_beside():
    # chess-8x8-ext2: extmem_0 left, extmem_1 right, a load and a store lane
    # each: four groups, each on one non-corner switch of its memory's side
    groups = _groups_by_switch(flatten(adg_view(preset("chess-8x8-ext2").build())))
    assert len(groups) == 4
    at = {key: _position(sws.pop()) for key, sws in groups.items() if len(sws) == 1}
    assert len(at) == 4   # requests and responses of a lane on one switch
    for (m, _, _), (r, c) in at.items():
        assert c == (0 if m == "extmem_0" else 8) and 0 < r < 8
    for memory in ("extmem_0", "extmem_1"):
        rows = sorted(r for (m, _, _), (r, _) in at.items() if m == memory)
        # one free switch between, no more (a recurrence through both lanes
        # pays a link register a row), and as far from the corners as that allows
        assert rows == [3, 5], (memory, rows)


def test_a_store_lane_sits_two_switches_from_the_load_lane_of_its_number():
    # chess-8x8-ext2x2: each memory has load lanes 0 and 1 and store lane 0,
    # tagged; a loop that loads and stores one array uses lane 0 of each
    groups = _groups_by_switch(flatten(adg_view(preset("chess-8x8-ext2x2").build())))
    at = {key: _position(sws.pop()) for key, sws in groups.items()}
    assert len(at) == 6
    for memory in ("extmem_0", "extmem_1"):
        st0 = at[(memory, "st", 0)]
        for k in (0, 1):
            ld = at[(memory, "ld", k)]
            assert ld[1] == st0[1] and abs(ld[0] - st0[0]) == 2, (memory, k, ld, st0)


def test_a_side_of_more_lanes_than_that_spreads_its_families_along_the_side():
    # chess-8x8-ext4: two memories a side, four lane groups on 7 inner
    # switches: too close for a free switch between them, so each family
    # is spread along the whole side, and some lane's families part
    groups = _groups_by_switch(flatten(adg_view(preset("chess-8x8-ext4").build())))
    assert len(groups) == 8
    assert any(len(sws) > 1 for sws in groups.values())
