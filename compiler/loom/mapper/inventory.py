"""The ADG's inventory as the mapper sees it: every PE's function units, and
every memory with the parameters its binding checks, read off the view.
"""

from __future__ import annotations

from dataclasses import dataclass
from math import prod

from xdsl.dialects.builtin import MemRefType
from xdsl.ir import Attribute, Operation

from loom.dialects import fabric_syntax as fs
from loom.dialects.fabric_types import TaggedType
from loom.fabric.adg_view import AdgView, FunctionUnit
from loom.mapper.port_types import kind_width


def hw_units(view: AdgView) -> list[FunctionUnit]:
    """Every PE's function units, PEs in fabric.module body order."""
    return [u for n in view.of_kind("spatial_pe", "temporal_pe") for u in n.units]


@dataclass(frozen=True)
class HwMemory:
    """A fabric.memory or fabric.extmemory node."""

    name: str
    kind: str
    """memory | extmemory"""
    ld_count: int
    st_count: int
    num_region: int
    elem_width: int | None
    tagged: bool
    """Whether its port families carry tags (lanes shared by tag)."""
    elements: int | None = None
    """An on-chip memory's storage in elements (None: external, any size)."""


def memref_elements(memref: Attribute | None) -> int | None:
    """The element count of a static memref (None: dynamic or not a memref)."""
    if not isinstance(memref, MemRefType) or any(d < 0 for d in memref.get_shape()):
        return None
    return prod(memref.get_shape())



def hw_memories(view: AdgView) -> list[HwMemory]:
    """The ADG's memories in body order, by their canonical names."""
    return [hw_memory(n.name, n.kind, n.definition) for n in view.of_kind("memory", "extmemory")]


def hw_memory(name: str, kind: str, op: Operation) -> HwMemory:
    """The memory a fabric.memory or fabric.extmemory definition describes."""
    ftype = fs.function_type(op)
    memref = op.attributes.get("memref_type")  # LOOM's memrefType, as the dialect stores it
    elem = kind_width(memref.element_type) if isinstance(memref, MemRefType) else None
    ports = [t for t in (*ftype.inputs.data, *ftype.outputs.data) if not isinstance(t, MemRefType)]
    return HwMemory(name, kind, fs.int_param(op, "ldCount", 0) or 0,
                    fs.int_param(op, "stCount", 0) or 0, fs.int_param(op, "numRegion", 1) or 1,
                    elem[1] if elem else None, any(isinstance(t, TaggedType) for t in ports),
                    memref_elements(memref) if kind == "memory" else None)


__all__ = ["HwMemory", "hw_memories", "hw_memory", "hw_units", "memref_elements"]
