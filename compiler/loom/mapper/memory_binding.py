"""Which hardware memories a DFG memory may bind to (LOOM's rule,
docs/loom-fabric-notes.md section 3.2)."""

from __future__ import annotations

from collections.abc import Sequence

from xdsl.dialects.builtin import MemRefType
from xdsl.ir import Operation

from loom.mapper.dfg_ops import attr_int, memref_type
from loom.mapper.inventory import HwMemory, memref_elements
from loom.mapper.port_types import kind_width


def memory_candidates(sw: Operation, memories: Sequence[HwMemory]) -> list[HwMemory]:
    """The hardware memories a DFG memory may bind to (LOOM's rule, section 3.2):
    same kind, the software load and store lanes within the hardware's
    (several lanes only on a tagged memory), element width sw <= hw; an
    on-chip memory also holds every element of the software one (region 0
    starts at address 0: config_values.py). How many software memories share
    one (<= numRegion) is the placement's check."""
    kind = sw.name.removeprefix("handshake.")
    ld, st = attr_int(sw, "ld_count") or 0, attr_int(sw, "st_count") or 0
    memref = memref_type(sw)
    elem = kind_width(memref.element_type) if isinstance(memref, MemRefType) else None
    result = []
    for hw in memories:
        if hw.kind != kind or ld > hw.ld_count or st > hw.st_count:
            continue
        if (ld > 1 or st > 1) and not hw.tagged:
            continue
        if elem is not None and hw.elem_width is not None and elem[1] > hw.elem_width:
            continue
        size = memref_elements(memref)
        if hw.elements is not None and (size is None or size > hw.elements):
            continue
        result.append(hw)
    return result


__all__ = ["memory_candidates"]
