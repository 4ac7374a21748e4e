"""fabric.memory / fabric.extmemory with a configured region table (LOOM's
spec-fabric-memory-interface.md and fabric_memory_lsq.sv, with our element
addressing).

A request's tag is its lane. It is served when its tag is below the
family's lane count and some valid region's [start_lane, end_lane) holds
the tag (the first such region counts); otherwise it waits forever and stops
its family. Its element address is LOOM's byte address over the element
size, in 32 bits: (addr_offset + (addr << elem_size_log2)) >> elem_size_log2.
A load returns the element (0 past the storage) on ld_data and a token on
ld_done, both with the request's tag; a store pairs the k-th st_addr and
the k-th st_data of its lane, writes the element (not past the storage) and
gives a st_done token with its tag. Per lane, results keep request order.

Across lanes the order of accesses depends on timing; the model refuses
streams where that could matter (a load of an element some store writes,
two lanes storing to one element) and store streams whose pairing depends on
timing (a store token that waits, lanes with unequal address and data
counts).

Spec: docs/fabric/memory.md, docs/fabric/extmemory.md
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field

from loom.fabric.config_layout import REGION_FIELD_NAMES, region_field

ADDR_MASK = (1 << 32) - 1


@dataclass(frozen=True)
class Region:
    valid: int
    start: int
    end: int
    offset: int
    elem_size_log2: int

    def holds(self, tag: int) -> bool:
        return bool(self.valid & 1) and self.start <= tag < self.end

    def element(self, addr: int) -> int:
        size = self.elem_size_log2 & 7
        return ((self.offset + ((addr & ADDR_MASK) << size)) & ADDR_MASK) >> size


def regions(fields: Mapping[str, int], count: int) -> list[Region]:
    """The region table of a memory slice (config_layout's field names)."""
    return [Region(*(fields.get(region_field(r, n), 0) for n in REGION_FIELD_NAMES))
            for r in range(count)]


def lookup(table: Sequence[Region], tag: int) -> Region | None:
    return next((r for r in table if r.holds(tag)), None)


@dataclass
class MemoryResult:
    """Per output family, the values each tag (lane) receives; tokens taken per
    input family; the storage afterwards."""

    outputs: dict[str, dict[int, list[int]]]
    consumed: dict[str, int]
    memory: list[int]
    stores: dict[int, int] = field(default_factory=dict)
    """element -> lane that stored it."""


def memory(table: Sequence[Region], ld: int, st: int, contents: Sequence[int], width: int,
           ld_addr: Sequence[tuple[int, int]] = (), st_addr: Sequence[tuple[int, int]] = (),
           st_data: Sequence[tuple[int, int]] = ()) -> MemoryResult:
    """Requests are (tag, value) pairs; `width` is the element width."""
    mem = list(contents)
    res = MemoryResult({"ld_data": {}, "ld_done": {}, "st_done": {}}, {}, mem)
    _stores(res, table, st, st_addr, st_data, width)
    taken = 0
    for tag, addr in ld_addr:
        region = lookup(table, tag) if tag < ld else None
        if region is None:
            break
        at = region.element(addr)
        if at in res.stores:
            raise ValueError(f"a load of element {at}, which lane {res.stores[at]} stores")
        res.outputs["ld_data"].setdefault(tag, []).append(mem[at] if at < len(mem) else 0)
        res.outputs["ld_done"].setdefault(tag, []).append(0)
        taken += 1
    res.consumed["ld_addr"] = taken
    return res


def _stores(res: MemoryResult, table: Sequence[Region], st: int,
            st_addr: Sequence[tuple[int, int]], st_data: Sequence[tuple[int, int]],
            width: int) -> None:
    lanes: dict[int, tuple[list[int], list[int]]] = {}
    for tag, addr in st_addr:
        region = lookup(table, tag) if tag < st else None
        if region is None:
            raise ValueError(f"a store address with tag {tag} waits: pairing depends on timing")
        lanes.setdefault(tag, ([], []))[0].append(region.element(addr))
    for tag, value in st_data:
        if tag >= st:
            raise ValueError(f"store data with tag {tag} waits: pairing depends on timing")
        lanes.setdefault(tag, ([], []))[1].append(value & ((1 << width) - 1))
    for tag, (addrs, values) in sorted(lanes.items()):
        if len(addrs) != len(values):
            raise ValueError(f"lane {tag}: {len(addrs)} store addresses, {len(values)} data")
        for at, value in zip(addrs, values):
            if res.stores.setdefault(at, tag) != tag:
                raise ValueError(f"lanes {res.stores[at]} and {tag} both store element {at}")
            if at < len(res.memory):
                res.memory[at] = value
        res.outputs["st_done"][tag] = [0] * len(addrs)
    res.consumed["st_addr"], res.consumed["st_data"] = len(st_addr), len(st_data)


__all__ = ["MemoryResult", "Region", "lookup", "memory", "regions"]
