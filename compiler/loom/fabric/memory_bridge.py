"""Attaching an extmemory to a fabric, with the tag bridges of a multi-lane one.

An extmemory has one port per family (ld_addr; st_addr, st_data; ld_data,
ld_done; st_done), whatever its lane counts. With one load and one store
lane the families are untagged and wire straight to the fabric. With more
lanes in a family, every family is tagged with a tag of cw(max(ld, st))
bits (as LOOM's builder types them; at least 1 bit), and each family gets
a bridge, as in LOOM's mesh-*-extmem-2 ADGs (tests/e2e/adgs/common):

- a request family of n lanes: n `add_tag` (tags 0..n-1), merged by a
  tagged n:1 `spatial_sw` when n > 1, into the memory port;
- a response family of n lanes: the memory port split by a 1:n
  `temporal_sw` (n route tables, one per tag) when n > 1, then n `del_tag`
  (each followed by a bypassable fifo on the `-f` presets: lane_slots).

A switch has at most `bridge_fanin` ports a side (LOOM's limit of 32), so a
family of more lanes is bridged by a tree: the lanes in consecutive groups
of at most that many, each group merged (split) by its own switch, and the
groups merged (split) again, level by level. A split switch above the
leaves has one route table per tag that passes it. Lane k of a response
family is the k-th del_tag in switch-output order, so the tag k a request
lane attaches comes back on response lane k.

The fabric side sees untagged lanes: `requests` are the fabric ports that
drive the memory (ld_addr x ld, st_addr x st, st_data x st), `responses`
the fabric ports it drives (ld_data x ld, ld_done x ld, st_done x st).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from loom.diagnostics import LoomError
from loom.fabric.builder import MAX_SWITCH_PORTS, AdgBuilder, Node, PortRef, SwitchDef, bits, \
    tagged


@dataclass(frozen=True)
class ExtMemorySpec:
    """Lanes and types of a memory or extmemory (memref_type: LOOM's memrefType)."""

    name: str
    ld: int
    st: int
    memref_type: str = "memref<?xi64>"
    width: int = 64
    num_region: int = 1
    bridge_fanin: int = MAX_SWITCH_PORTS
    """Most lanes one bridge switch merges or splits; more make a tree."""
    lane_slots: int = 0
    """Slots of a bypassable fifo after each tagged response lane's del_tag
    (the `-f` presets), in place of the two-slot buffer the fabric top puts
    there otherwise (AdgView.link_buffer's "lane"): bypassed, it keeps the
    slots and the registered ready that keep one lane's slow consumer from
    blocking the others, and loses the cycle a memory's done token spent
    there on every memory-ordering recurrence."""

    @property
    def tag_width(self) -> int:
        """0 when untagged; else cw(max(ld, st)), at least 1."""
        lanes = max(self.ld, self.st)
        return 0 if lanes <= 1 else max(1, (lanes - 1).bit_length())

    @property
    def request_lanes(self) -> list[tuple[str, int]]:
        return ([("ld_addr", self.ld)] if self.ld else []) + (
            [("st_addr", self.st), ("st_data", self.st)] if self.st else [])

    @property
    def response_lanes(self) -> list[tuple[str, int]]:
        return ([("ld_data", self.ld), ("ld_done", self.ld)] if self.ld else []) + (
            [("st_done", self.st)] if self.st else [])


def lane_count(lanes: Sequence[tuple[str, int]]) -> int:
    return sum(n for _, n in lanes)


def attach_extmemory(b: AdgBuilder, spec: ExtMemorySpec, memref: PortRef,
                     requests: Sequence[PortRef], responses: Sequence[PortRef]) -> Node:
    """The extmemory `spec.name` on module memref input `memref`, bridged to the fabric."""
    return _attach(b, spec, memref, requests, responses)


def attach_memory(b: AdgBuilder, spec: ExtMemorySpec, requests: Sequence[PortRef],
                  responses: Sequence[PortRef]) -> Node:
    """An on-chip memory (`spec.memref_type` of static shape), bridged like an extmemory."""
    return _attach(b, spec, None, requests, responses)


def _attach(b: AdgBuilder, spec: ExtMemorySpec, memref: PortRef | None,
            requests: Sequence[PortRef], responses: Sequence[PortRef]) -> Node:
    want_req, want_resp = lane_count(spec.request_lanes), lane_count(spec.response_lanes)
    if len(requests) != want_req or len(responses) != want_resp:
        raise LoomError(f"extmemory {spec.name}: needs {want_req} request and {want_resp} "
                        f"response ports, got {len(requests)} and {len(responses)}")
    plain = bits(spec.width)
    port = tagged(plain, spec.tag_width) if spec.tag_width else plain
    if memref is None:
        mem = b.memory(spec.name, spec.ld, spec.st, spec.memref_type, port, spec.num_region)
    else:
        mem = b.extmemory(spec.name, memref, spec.ld, spec.st, spec.memref_type, port,
                          spec.num_region)
    first = 1 if memref is not None else 0
    req_iter, resp_iter = iter(requests), iter(responses)
    for family, (kind, n) in enumerate(spec.request_lanes):
        lanes = [next(req_iter) for _ in range(n)]
        _request(b, spec, kind, lanes, PortRef(mem.name, first + family), plain, port)
    for family, (kind, n) in enumerate(spec.response_lanes):
        lanes = [next(resp_iter) for _ in range(n)]
        _response(b, spec, kind, lanes, PortRef(mem.name, family), plain, port)
    return mem


def _request(b: AdgBuilder, spec: ExtMemorySpec, kind: str, lanes: list[PortRef],
             mem_port: PortRef, plain: str, port: str) -> None:
    if not spec.tag_width:
        b.connect(lanes[0], mem_port)
        return
    tagged_lanes = []
    for k, lane in enumerate(lanes):
        tag = b.add_tag(plain, port, k)
        b.connect(lane, PortRef(tag.name, 0))
        tagged_lanes.append(PortRef(tag.name, 0))
    b.connect(_merge(b, spec, f"{spec.name}_{kind}_mux", tagged_lanes, port), mem_port)


def _merge(b: AdgBuilder, spec: ExtMemorySpec, name: str, sources: list[PortRef],
           port: str) -> PortRef:
    """One port that carries every source: a merge switch, or a tree of them."""
    if len(sources) == 1:
        return sources[0]
    groups = _groups(len(sources), spec.bridge_fanin)
    if len(groups) > 1:
        sources = [_merge(b, spec, f"{name}{j}", sources[lo:hi], port)
                   for j, (lo, hi) in enumerate(groups)]
    merge = b.instance(_bridge_switch(b, "tag_merge", len(sources), 1, port), name)
    for k, source in enumerate(sources):
        b.connect(source, PortRef(merge.name, k))
    return PortRef(merge.name, 0)


def _response(b: AdgBuilder, spec: ExtMemorySpec, kind: str, lanes: list[PortRef],
              mem_port: PortRef, plain: str, port: str) -> None:
    if not spec.tag_width:
        b.connect(mem_port, lanes[0])
        return
    sources = _split(b, spec, f"{spec.name}_{kind}_demux", mem_port, len(lanes), port)
    for k, (source, lane) in enumerate(zip(sources, lanes)):
        drop = b.del_tag(port, plain)
        b.connect(source, PortRef(drop.name, 0))
        out = PortRef(drop.name, 0)
        if spec.lane_slots:
            fifo = b.fifo(f"{spec.name}_{kind}_lane{k}", plain, spec.lane_slots,
                          bypassable=True)
            b.connect(out, PortRef(fifo.name, 0))
            out = PortRef(fifo.name, 0)
        b.connect(out, lane)


def _split(b: AdgBuilder, spec: ExtMemorySpec, name: str, source: PortRef, n: int,
           port: str) -> list[PortRef]:
    """n ports, lane order, that `source`'s tags 0..n-1 reach: a split switch, or a tree."""
    if n == 1:
        return [source]
    groups = _groups(n, spec.bridge_fanin)
    split = b.instance(_bridge_switch(b, "tag_split", 1, len(groups), port, tables=n), name)
    b.connect(source, PortRef(split.name, 0))
    if len(groups) == n:
        return [PortRef(split.name, k) for k in range(n)]
    return [lane for j, (lo, hi) in enumerate(groups)
            for lane in _split(b, spec, f"{name}{j}", PortRef(split.name, j), hi - lo, port)]


def _groups(n: int, fanin: int) -> list[tuple[int, int]]:
    """[lo, hi) ranges of n lanes: n of one lane when n <= fanin, else at most
    `fanin` groups as even as can be, each bridged by a subtree."""
    if fanin < 2:
        raise LoomError(f"a bridge switch must take at least 2 lanes, not {fanin}")
    if n <= fanin:
        return [(k, k + 1) for k in range(n)]
    per_group = fanin
    while -(-n // per_group) > fanin:
        per_group *= fanin
    count = -(-n // per_group)
    bounds = [n * j // count for j in range(count + 1)]
    return list(zip(bounds, bounds[1:]))


def _bridge_switch(b: AdgBuilder, prefix: str, n_in: int, n_out: int, port: str,
                   tables: int = 0) -> SwitchDef:
    """A tagged n:1 spatial_sw (merge) or 1:n temporal_sw (split; `tables`
    route tables, default one per output), defined once per shape."""
    tag_bits = port.rsplit(", i", 1)[1].rstrip(">")
    temporal = prefix == "tag_split"
    tables = tables or n_out
    name = f"{prefix}_{n_in}x{n_out}_t{tag_bits}" + (f"_r{tables}" if tables != n_out else "")
    if name in b.switches:
        return b.switches[name]
    return b.define_switch_typed(name, [port] * n_in, [port] * n_out, temporal=temporal,
                                 num_route_table=tables if temporal else 1)


__all__ = ["ExtMemorySpec", "attach_extmemory", "attach_memory", "lane_count"]
