"""The lanes of a memory's port families, through their tag bridges.

A tagged memory family is fed through a bridge (fabric/memory_bridge.py,
LOOM's mesh-*-extmem ADGs): request lanes enter `add_tag` ops (tag k on
lane k), merged by a tagged spatial switch when there are several, into the
memory port; a response port is split by a `temporal_sw` (one route table
per tag) into `del_tag` ops. LOOM routes a software lane to the bridge
boundary and then recovers the fixed bridge path (spec-mapper-model.md,
"bridge-boundary recovery"); so does this module. A family without a bridge
(an untagged port) is one lane: the port itself.

Response lanes are numbered by the temporal switch output they leave by
(depth first through a tree of them); each bridge del_tag records its
lane's tag, and the configuration routes that tag to it (config_values.py),
so lane k carries tag k on both sides of the memory.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING

from loom.dialects.fabric_types import TaggedType

if TYPE_CHECKING:
    from loom.mapper.adg_graph import AdgGraph


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
            _node(g, src[0]).kind not in ("add_tag", "spatial_sw"):
        return [Lane(0, port, (port,))]
    return sorted(_tagged_sources(g, port, feeders), key=lambda lane: lane.tag)


def _tagged_sources(g: AdgGraph, port: int, feeders: dict[int, list[int]]) -> list[Lane]:
    """The add_tag lanes behind input `port`, through merge switches (a tree
    when a family has more lanes than a switch has ports)."""
    src = feeders.get(port, [])
    if len(src) != 1:
        return []
    node = _node(g, src[0])
    if node.kind == "add_tag":
        return [Lane(max(node.tag, 0), node.inputs[0], (node.inputs[0], src[0], port))]
    if node.kind != "spatial_sw":
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
    if node.kind != "temporal_sw":
        return [Lane(0, port, (port,))]
    leaves = _split_leaves(g, port, sinks)
    return [Lane(k, end, path) for k, (end, path) in enumerate(leaves) if end >= 0]


def _split_leaves(g: AdgGraph, port: int, sinks: dict[int, list[int]]
                  ) -> list[tuple[int, tuple[int, ...]]]:
    """(del_tag output or -1, path from `port`) per leaf of the split tree
    below output `port`, in output order."""
    dst = sinks.get(port, [])
    node = _node(g, dst[0]) if len(dst) == 1 else None
    if node is not None and node.kind == "temporal_sw":
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


def tag_response_lanes(g: AdgGraph) -> None:
    """Each bridge del_tag learns the tag of its lane (AdgNode.tag), the tag the
    split switches above it route there (config_values.py, tag_at)."""
    _, sinks = port_links(g)
    for node in g.nodes:
        if node.resource_class != "memory":
            continue
        for port in node.outputs:
            for lane in response_lanes(g, port, sinks):
                end = _node(g, lane.port)
                if end.kind == "del_tag":
                    end.tag = lane.tag


def tag_at(g: AdgGraph, path: list[int], i: int) -> int:
    """The runtime tag at path[i] (a tagged port): the last add_tag before it,
    else the lane tag of the bridge del_tag after it (the tag the split
    switches' route tables send there), else the first temporal_sw output
    after it."""
    for p in reversed(path[:i]):
        node = g.nodes[g.ports[p].node]
        if node.kind == "add_tag":
            return node.tag
    for p in path[i:]:
        node = g.nodes[g.ports[p].node]
        if node.kind == "del_tag" and node.tag >= 0:
            return node.tag
    for a, b in zip(path[i:], path[i + 1:]):
        node = g.nodes[g.ports[a].node]
        if node.kind == "temporal_sw" and g.ports[b].node == node.id:
            return g.ports[b].index
    return -1


__all__ = ["Lane", "port_links", "request_lanes", "response_lanes", "tag_at", "tag_response_lanes"]
