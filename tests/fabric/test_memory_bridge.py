"""A memory's tag bridges (fabric/memory_bridge.py) and the lanes the mapper
recovers through them (mapper/bridges.py). The reference is the builder's own
wiring: lane k of a family is the k-th fabric port handed to attach_memory,
so each recovered lane must start (request) or end (response) at that port,
with tag k, through switches of at most `bridge_fanin` ports a side. More
lanes than that make a tree (sha256_block's 64 round-constant stores into
one local array; LOOM's switches have at most 32 ports)."""

from __future__ import annotations

import pytest

from loom.fabric.builder import AdgBuilder, bits
from loom.fabric.memory_bridge import ExtMemorySpec, attach_memory, lane_count
from loom.mapper.adg_graph import AdgGraph, flatten
from loom.mapper.bridges import port_links, request_lanes, response_lanes
from loom.fabric.adg_view import adg_view


def _bridged(spec: ExtMemorySpec) -> AdgGraph:
    """`spec` as an on-chip memory whose lanes are the module's ports, in order."""
    b = AdgBuilder("bridge")
    requests = [b.add_input(f"rq{k}", bits(spec.width))
                for k in range(lane_count(spec.request_lanes))]
    responses = [b.add_output(f"rs{k}", bits(spec.width))
                 for k in range(lane_count(spec.response_lanes))]
    attach_memory(b, spec, requests, responses)
    return flatten(adg_view(b.build()))


def _switch_ports(g: AdgGraph) -> list[tuple[str, int, int]]:
    return [(n.name, len(n.inputs), len(n.outputs)) for n in g.nodes
            if n.kind in ("spatial_sw", "temporal_sw")]


CASES = [(ExtMemorySpec("mem", 1, 64, "memref<64xi32>", 32), 2),
         (ExtMemorySpec("mem", 5, 5, "memref<64xi32>", 32, bridge_fanin=2), 3),
         (ExtMemorySpec("mem", 3, 2, "memref<64xi32>", 32), 1)]
"""(memory, the most switches a lane of a family of several crosses)."""


def _families(g: AdgGraph, spec: ExtMemorySpec):
    """(family, its lane count, its recovered lanes, the links to follow out of
    a lane's fabric port, the module port index of its lane 0): request
    families, then response families."""
    mem = next(n for n in g.nodes if n.kind == "memory")
    feeders, sinks = port_links(g)
    for lanes_of, families, ports, links in (
            (request_lanes, spec.request_lanes, mem.inputs, feeders),
            (response_lanes, spec.response_lanes, mem.outputs, sinks)):
        first = 0
        for family, (kind, n) in enumerate(families):
            yield kind, n, lanes_of(g, ports[family], links), links, first
            first += n


@pytest.mark.parametrize("spec,depth", CASES, ids=["st64-fanin32", "5-fanin2", "flat"])
def test_every_lane_reaches_its_own_port_with_its_own_tag(spec, depth):
    g = _bridged(spec)
    assert all(max(i, o) <= spec.bridge_fanin for _, i, o in _switch_ports(g)), _switch_ports(g)
    for kind, n, lanes, links, first in _families(g, spec):
        assert [lane.tag for lane in lanes] == list(range(n)), kind
        for k, lane in enumerate(lanes):
            end = g.nodes[g.ports[links[lane.port][0]].node]
            assert end.kind.startswith("module_") and end.index == first + k, (kind, k)
            if end.kind == "module_out":
                del_tag = g.nodes[g.ports[lane.port].node]
                assert (del_tag.kind, del_tag.tag) == ("del_tag", k), (kind, k)
        if kind in ("ld_addr", "st_addr", "st_data"):
            levels = [len({g.ports[p].node for p in lane.bridge
                           if g.nodes[g.ports[p].node].kind == "spatial_sw"}) for lane in lanes]
            assert max(levels) == (depth if n > 1 else 0), (kind, levels)


def test_sixty_four_store_lanes_make_two_levels_of_32():
    g = _bridged(CASES[0][0])
    ports = {name: (i, o) for name, i, o in _switch_ports(g)}
    for family in ("st_addr", "st_data"):
        assert [ports[f"mem_{family}_mux{s}"] for s in ("", "0", "1")] == [(2, 1), (32, 1),
                                                                           (32, 1)]
    assert [ports[f"mem_st_done_demux{s}"] for s in ("", "0", "1")] == [(1, 2), (1, 32), (1, 32)]
    assert "mem_ld_addr_mux" not in ports   # one load lane: its add_tag feeds the port


def test_a_root_split_has_a_route_table_per_tag_below_it():
    b = AdgBuilder("bridge")
    spec = ExtMemorySpec("mem", 1, 64, "memref<64xi32>", 32)
    requests = [b.add_input(f"rq{k}", bits(32)) for k in range(lane_count(spec.request_lanes))]
    responses = [b.add_output(f"rs{k}", bits(32))
                 for k in range(lane_count(spec.response_lanes))]
    attach_memory(b, spec, requests, responses)
    tables = {sw.name: sw.num_route_table for sw in b.switches.values() if sw.temporal}
    assert tables == {"tag_split_1x2_t6_r64": 64, "tag_split_1x32_t6": 32}
