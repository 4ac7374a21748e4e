"""The lanes of a memory's port families, through their tag bridges.

A tagged memory family is fed through a bridge (fabric/memory_bridge.py,
LOOM's mesh-*-extmem ADGs): request lanes enter `add_tag` ops (tag k on
lane k), merged by tagged spatial or temporal switches when there are
several, into the memory port; a response port is split by a `temporal_sw`
(one route table per tag) into `del_tag` ops. `map_tag` ops on either side
rewrite the tag on the way (LOOM's tagged-map cases): a lane's tag is the
one the memory sees. LOOM routes a software lane to the bridge
boundary and then recovers the fixed bridge path (spec-mapper-model.md,
"bridge-boundary recovery"); so does this module. A family without a bridge
(an untagged port) is one lane: the port itself.

Request lanes are numbered by their tags at the memory, ascending; response
lanes by the temporal switch output they leave by (depth first through a
tree of them), and response lane k leaves the memory with tag k, LOOM's
logical lane (its tagged-map-width-distinct case: requests that reach the
memory with tags 1 and 2 are answered on lanes 0 and 1). Each bridge
del_tag records its lane, and the configuration routes that tag, rewritten
by the map_tags on the way, to it (config_values.py, tag_at).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING

from loom.dialects.fabric_types import TaggedType

if TYPE_CHECKING:
    from loom.mapper.adg_graph import AdgGraph, AdgNode


MERGES = ("spatial_sw", "temporal_sw")
"""The switches that merge a family's request lanes: a tagged spatial switch
(tag-agnostic) or a temporal switch (its route table sends each lane's tag
from that lane's input; LOOM's extmemory-dual-load case)."""


@dataclass(frozen=True)
class Lane:
    tag: int
    port: int
    """The fabric-side port: an add_tag input, a del_tag output, or the family port."""
    bridge: tuple[int, ...]
    """Request: the ports from `port` to the memory port; response: from the
    memory port to `port` (just the port when there is no bridge)."""


def _node(g: AdgGraph, port: int):
    return g.nodes[g.ports[port].node]


def request_lanes(g: AdgGraph, port: int, feeders: dict[int, list[int]]) -> list[Lane]:
    """The lanes into memory input `port`, by tag."""
    src = feeders.get(port, [])
    if len(src) != 1 or not isinstance(g.ports[port].type, TaggedType) or \
            _node(g, src[0]).kind not in ("add_tag", "map_tag", *MERGES):
        return [Lane(0, port, (port,))]
    lanes = _tagged_sources(g, port, feeders)
    # a lane a temporal PE feeds directly carries its slot's tag, which the
    # mapper sets: the k-th such lane (depth first) takes tag k
    direct = [k for k, lane in enumerate(lanes) if lane.tag == DIRECT]
    for rank, k in enumerate(direct):
        lanes[k] = Lane(rank, lanes[k].port, lanes[k].bridge)
    return sorted(lanes, key=lambda lane: lane.tag)


DIRECT = -2
"""The tag of a lane a temporal PE's output feeds before it is numbered."""


def _temporal_ends(g: AdgGraph, ports: list[int]) -> bool:
    """Whether `ports` are the units' ports of one temporal PE: the flattened
    PE's output (or input), a tagged lane's boundary without a bridge (LOOM's
    memory-tagged-direct-boundary case)."""
    nodes = [_node(g, p) for p in ports]
    return bool(nodes) and all(n.slots for n in nodes) and len({n.pe for n in nodes}) == 1


def _tagged_sources(g: AdgGraph, port: int, feeders: dict[int, list[int]]) -> list[Lane]:
    """The add_tag lanes behind input `port`, through merge switches (a tree
    when a family has more lanes than a switch has ports), and the lanes a
    temporal PE feeds directly (tagged by its slots, numbered by
    request_lanes)."""
    src = feeders.get(port, [])
    if _temporal_ends(g, src):
        return [Lane(DIRECT, port, (port,))]
    if len(src) != 1:
        return []
    node = _node(g, src[0])
    if node.kind == "add_tag":
        return [Lane(max(node.tag, 0), node.inputs[0], (node.inputs[0], src[0], port))]
    if node.kind == "map_tag":
        return [Lane(node.tag_map[lane.tag], lane.port, (*lane.bridge, src[0], port))
                for lane in _tagged_sources(g, node.inputs[0], feeders)
                if lane.tag in node.tag_map]
    if node.kind not in MERGES:
        return []
    return [Lane(lane.tag, lane.port, (*lane.bridge, src[0], port))
            for sw_in in node.inputs for lane in _tagged_sources(g, sw_in, feeders)]


def response_lanes(g: AdgGraph, port: int, sinks: dict[int, list[int]]) -> list[Lane]:
    """The lanes out of memory output `port`: lane k is the k-th split-switch
    output in order (through a tree of splits, depth first), and carries tag k."""
    dst = sinks.get(port, [])
    if len(dst) != 1 or not isinstance(g.ports[port].type, TaggedType):
        return [Lane(0, port, (port,))]
    node = _node(g, dst[0])
    if node.kind == "del_tag":
        return [Lane(0, node.outputs[0], (port, dst[0], node.outputs[0]))]
    if not _splits(node):
        return [Lane(0, port, (port,))]
    leaves = _split_leaves(g, port, sinks)
    return [Lane(k, end, path) for k, (end, path) in enumerate(leaves) if end >= 0]


def _splits(node: AdgNode) -> bool:
    """A stage of a response bridge: a temporal switch (splits by tag), a
    map_tag, or a one-output spatial switch (passes the tag on, its width
    adapted: LOOM's tagged-egress-width case)."""
    return node.kind in ("temporal_sw", "map_tag") or \
        (node.kind == "spatial_sw" and len(node.outputs) == 1)


def _split_leaves(g: AdgGraph, port: int, sinks: dict[int, list[int]]
                  ) -> list[tuple[int, tuple[int, ...]]]:
    """(del_tag output, or the switch output a temporal PE's units take, or
    -1; path from `port`) per leaf of the split tree below output `port`, in
    output order."""
    dst = sinks.get(port, [])
    if _temporal_ends(g, dst):
        return [(port, (port,))]   # a temporal PE's input: its slots match the tag
    node = _node(g, dst[0]) if len(dst) == 1 else None
    if node is not None and _splits(node):
        return [(end, (port, dst[0], *path)) for out in node.outputs
                for end, path in _split_leaves(g, out, sinks)]
    if node is not None and node.kind == "del_tag":
        return [(node.outputs[0], (port, dst[0], node.outputs[0]))]
    return [(-1, (port,))]


def port_links(g: AdgGraph) -> tuple[dict[int, list[int]], dict[int, list[int]]]:
    """(feeders, sinks): the ports each port is fed by and feeds, in edge order
    (what request_lanes and response_lanes follow)."""
    feeders: dict[int, list[int]] = {}
    sinks: dict[int, list[int]] = {}
    for e in g.edges:
        feeders.setdefault(e.dst, []).append(e.src)
        sinks.setdefault(e.src, []).append(e.dst)
    return feeders, sinks


def families(ld: bool, st: bool) -> tuple[list[str], list[str]]:
    """A memory's request and response families in port order (LOOM: a family
    is omitted when its count is 0; spec-fabric-memory-interface.md)."""
    return ((["ld_addr"] if ld else []) + (["st_addr", "st_data"] if st else []),
            (["ld_data", "ld_done"] if ld else []) + (["st_done"] if st else []))


def tag_response_lanes(g: AdgGraph) -> None:
    """Each bridge del_tag learns the memory tag of its lane (AdgNode.tag)."""
    _, sinks = port_links(g)
    for node in g.nodes:
        if node.resource_class != "memory":
            continue
        for port in node.outputs:
            for lane in response_lanes(g, port, sinks):
                end = _node(g, lane.port)
                if end.kind == "del_tag":
                    end.tag = lane.tag


def tag_at(g: AdgGraph, path: list[int], i: int, chosen: dict[int, int] | None = None) -> int:
    """The runtime tag at path[i] (a tagged port): that of the last add_tag
    before it (the ADG's, or the one the mapper `chosen` for an add_tag of
    its own: temporal_slots.add_tag_choices), else (a response) the memory
    tag of the bridge del_tag after it, each rewritten by the map_tags
    between there and path[i]; else the first temporal_sw output after it."""
    start = next((j for j in range(i - 1, -1, -1)
                  if g.nodes[g.ports[path[j]].node].kind == "add_tag"), None)
    if start is not None:
        node = g.nodes[g.ports[path[start]].node]
        tag = (chosen or {}).get(node.id, node.tag)
    else:
        start = 0
        end = next((g.nodes[g.ports[p].node] for p in path[i:]
                    if g.nodes[g.ports[p].node].kind == "del_tag"
                    and g.nodes[g.ports[p].node].tag >= 0), None)
        if end is None:
            return _split_output(g, path, i)
        tag = end.tag
    for j in range(start, i):  # a map_tag's input at j, its output at j + 1 <= i
        node = g.nodes[g.ports[path[j]].node]
        if node.kind == "map_tag" and g.ports[path[j]].direction == "in":
            tag = node.tag_map.get(tag, -1)
    return tag


def direct_lane_tag(g: AdgGraph, path: list[int], feeders: dict[int, list[int]],
                    sinks: dict[int, list[int]]) -> int:
    """The tag of the memory lane a route takes without a bridge, from or to a
    temporal PE (request: the lane's tag; response: the lane's index), or -1
    (`feeders`, `sinks`: port_links(g)). The slot at the PE end must hold
    that tag (temporal_slots.py)."""
    if _node(g, path[-1]).resource_class == "memory":
        lanes, links = request_lanes(g, path[-1], feeders), feeders
    elif _node(g, path[0]).resource_class == "memory":
        lanes, links = response_lanes(g, path[0], sinks), sinks
    else:
        return -1
    return next((lane.tag for lane in lanes
                 if lane.port in path and _temporal_ends(g, links.get(lane.port, []))), -1)


def _split_output(g: AdgGraph, path: list[int], i: int) -> int:
    for a, b in zip(path[i:], path[i + 1:]):
        node = g.nodes[g.ports[a].node]
        if node.kind == "temporal_sw" and g.ports[b].node == node.id:
            return g.ports[b].index
    return -1


__all__ = ["Lane", "direct_lane_tag", "families", "port_links", "request_lanes", "response_lanes", "tag_at",
           "tag_response_lanes"]
