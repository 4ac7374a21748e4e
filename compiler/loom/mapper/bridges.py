"""The lanes of a memory's port families, through their tag bridges.

A tagged memory family is fed through a bridge (fabric/memory_bridge.py,
LOOM's mesh-*-extmem ADGs): request lanes enter `add_tag` ops (tag k on
lane k), merged by a tagged spatial switch when there are several, into the
memory port; a response port is split by a `temporal_sw` (one route table
per tag) into `del_tag` ops. LOOM routes a software lane to the bridge
boundary and then recovers the fixed bridge path (spec-mapper-model.md,
"bridge-boundary recovery"); so does this module. A family without a bridge
(an untagged port) is one lane: the port itself.

Response lanes are numbered by the temporal switch output they leave by;
the configuration routes tag k to output k (config_values.py), so lane k
carries tag k on both sides of the memory.
"""

from __future__ import annotations

from dataclasses import dataclass

from loom.dialects.fabric_types import TaggedType
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
    if len(src) != 1 or not isinstance(g.ports[port].type, TaggedType):
        return [Lane(0, port, (port,))]
    node = _node(g, src[0])
    if node.kind == "add_tag":
        return [Lane(max(node.tag, 0), node.inputs[0], (node.inputs[0], src[0], port))]
    if node.kind != "spatial_sw":
        return [Lane(0, port, (port,))]
    lanes = []
    for sw_in in node.inputs:
        tag_out = feeders.get(sw_in, [])
        if len(tag_out) == 1 and _node(g, tag_out[0]).kind == "add_tag":
            add = _node(g, tag_out[0])
            lanes.append(Lane(add.tag, add.inputs[0],
                              (add.inputs[0], tag_out[0], sw_in, src[0], port)))
    return sorted(lanes, key=lambda lane: lane.tag)


def response_lanes(g: AdgGraph, port: int, sinks: dict[int, list[int]]) -> list[Lane]:
    """The lanes out of memory output `port`, lane k leaving by switch output k."""
    dst = sinks.get(port, [])
    if len(dst) != 1 or not isinstance(g.ports[port].type, TaggedType):
        return [Lane(0, port, (port,))]
    node = _node(g, dst[0])
    if node.kind == "del_tag":
        return [Lane(0, node.outputs[0], (port, dst[0], node.outputs[0]))]
    if node.kind != "temporal_sw":
        return [Lane(0, port, (port,))]
    lanes = []
    for k, out in enumerate(node.outputs):
        nxt = sinks.get(out, [])
        if len(nxt) == 1 and _node(g, nxt[0]).kind == "del_tag":
            dt = _node(g, nxt[0])
            lanes.append(Lane(k, dt.outputs[0], (port, dst[0], out, nxt[0], dt.outputs[0])))
    return lanes


__all__ = ["Lane", "request_lanes", "response_lanes"]
