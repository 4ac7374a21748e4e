"""The golden model's graph: nodes (an actor plus its channels) and edges.

Built from a `handshake.func` by golden/build.py, or by hand in tests. Every
channel has at most one producer and one consumer: a DFG value used twice
must be forked explicitly.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from loom.diagnostics import Location
from loom.golden.actor import Actor
from loom.golden.channel import Channel


@dataclass(eq=False)
class Node:
    label: str                      # unique, e.g. "fork3"
    kind: str                       # the MLIR op name, e.g. "handshake.fork"
    actor: Actor
    ins: list[Channel]
    outs: list[Channel]
    loc: Location | None = None
    firings: int = 0

    def where(self) -> str:
        return f"{self.kind} '{self.label}'" + (f" ({self.loc})" if self.loc else "")


@dataclass
class Graph:
    name: str
    nodes: list[Node] = field(default_factory=list)
    channels: dict[str, Channel] = field(default_factory=dict)
    #: function arguments: a Channel for a token argument, or the memref's
    #: argument index for a memory argument (consumed by an extmemory node)
    inputs: list[Channel | None] = field(default_factory=list)
    outputs: list[Channel] = field(default_factory=list)
    #: argument index -> memory node (extmemory) serving it
    memories: dict[int, Node] = field(default_factory=dict)
    #: memref arguments no op accesses: their (unchanged) contents
    untouched: dict[int, list[int]] = field(default_factory=dict)
    #: arg indices of control (`none`) arguments: one token each per invocation
    control_inputs: set[int] = field(default_factory=set)
    #: arg index of the trailing start token, if the function takes one
    start_arg: int | None = None
    #: result index of the trailing done token, if the function returns one
    done_result: int | None = None
    #: widths of the function's token results
    result_widths: list[int] = field(default_factory=list)
    attributes: dict[str, Any] = field(default_factory=dict)
    #: the scheduler's compiled step function (golden/codegen.py) and the node
    #: count it was compiled for
    compiled: tuple[int, Any] | None = field(default=None, repr=False, compare=False)

    def channel(self, name: str, width: int) -> Channel:
        if name in self.channels:
            raise ValueError(f"duplicate channel name {name!r}")
        ch = Channel(name, width)
        self.channels[name] = ch
        return ch

    def add(self, label: str, kind: str, actor: Actor, ins: list[Channel],
            outs: list[Channel], loc: Location | None = None) -> Node:
        if len(ins) != actor.n_in or len(outs) != actor.n_out:
            raise ValueError(f"{kind} '{label}': actor takes {actor.n_in} inputs and "
                             f"{actor.n_out} outputs, wired with {len(ins)} and {len(outs)}")
        node = Node(label, kind, actor, ins, outs, loc)
        for ch in ins:
            if ch.consumer is not None:
                raise ValueError(f"channel {ch.name!r} is used by both "
                                 f"{ch.consumer.where()} and {node.where()}")
            ch.consumer = node
        for ch in outs:
            ch.producer = node
        self.nodes.append(node)
        return node
