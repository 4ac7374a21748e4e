"""Memories of the fabric: on-chip `memory` and host-side `extmemory`.

    %m:3 = fabric.memory @mem [ldCount = 1, stCount = 1, lsqDepth = 0,
        memrefType = memref<256xi32>, numRegion = 1] (%ld_addr, %st_addr, %st_data)
        : (..) -> (..)
    %e:2 = fabric.extmemory @ext [ldCount = 1, stCount = 0, memrefType = memref<?xi32>]
        (%memref, %ld_addr) : (memref<?xi32>, T) -> (T, T)

Port families, one port each whatever the lane count: inputs [memref (ext
only)], ld_addr if ldCount > 0, st_addr and st_data if stCount > 0; outputs
ld_data and ld_done if ldCount > 0, st_done if stCount > 0, and the memref
of a public memory. A family with more than one lane is tagged, with a tag
of at least max(1, clog2(lanes)) bits. `addr_offset_table` holds numRegion x
[valid, start_tag, end_tag, addr_offset, elem_size_log2]. Rules and messages
follow LOOM's FabricOpsMemory.cpp.
"""

from __future__ import annotations

from typing import ClassVar

from xdsl.dialects.builtin import ArrayAttr, DenseArrayBase, IntegerAttr, MemRefType
from xdsl.ir import Attribute
from xdsl.irdl import irdl_op_definition
from xdsl.utils.exceptions import VerifyException

from loom.dialects import fabric_syntax as fs
from loom.dialects.fabric_component import ComponentOp
from loom.dialects.fabric_types import TaggedType, scalar_width

REGION_FIELDS = 5

_PARAMS = (
    fs.HwParam("ldCount"),
    fs.HwParam("stCount"),
    fs.HwParam("lsqDepth"),
    fs.HwParam("memrefType", "memref_type"),
)


def family_tag_width(lanes: int) -> int:
    """The least tag width of a family with `lanes` lanes (LOOM: max(1, clog2))."""
    return max(1, (lanes - 1).bit_length())


def _check_family(port: Attribute, lanes: int) -> None:
    payload = port
    if isinstance(port, TaggedType):
        need = family_tag_width(lanes)
        if port.tag_width < need:
            raise VerifyException(
                f"tagged memory family tag width is too small: {port.tag_width} < {need}"
            )
        payload = port.value_type
    elif lanes > 1:
        raise VerifyException(f"multi-lane memory family must be tagged: {port}")
    if isinstance(payload, MemRefType):
        raise VerifyException(
            f"memory request/response family must not use memref payloads: {payload}"
        )
    if scalar_width(payload) is None:
        raise VerifyException(f"memory family payload must be scalar or none, got {payload}")


def _region_table(op: ComponentOp) -> list[int] | None:
    value = op.attributes.get("addr_offset_table")
    if value is None:
        return None
    if isinstance(value, DenseArrayBase):
        return [int(v) for v in value.get_values()]
    if isinstance(value, ArrayAttr) and all(isinstance(v, IntegerAttr) for v in value.data):
        return [v.value.data for v in value.data]  # pyright: ignore
    raise VerifyException("addr_offset_table must be an array of integers")


def _check_region_table(op: ComponentOp) -> None:
    regions = fs.int_param(op, "numRegion", 1) or 0
    if regions < 1:
        raise VerifyException("numRegion must be >= 1")
    table = _region_table(op)
    if table is None:
        return
    if len(table) != regions * REGION_FIELDS:
        raise VerifyException("addr_offset_table length must be numRegion * 5")
    ranges: list[tuple[int, int]] = []
    for k in range(regions):
        valid, start, end, _offset, elem_log2 = table[k * REGION_FIELDS:(k + 1) * REGION_FIELDS]
        if valid == 0:
            continue
        if valid != 1:
            raise VerifyException("addr_offset_table valid flag must be 0 or 1")
        if start >= end:
            raise VerifyException("addr_offset_table requires start_tag < end_tag")
        if elem_log2 < 0:
            raise VerifyException("addr_offset_table elem_size_log2 must be >= 0")
        if any(not (end <= s or start >= e) for s, e in ranges):
            raise VerifyException("addr_offset_table tag ranges must not overlap")
        ranges.append((start, end))


class _MemoryBase(ComponentOp):
    HAS_MEMREF_INPUT: ClassVar[bool] = False

    @classmethod
    def normalize_runtime(cls, attrs: dict[str, Attribute]) -> dict[str, Attribute]:
        # LOOM spells the region table addrOffsetTable internally; both parse.
        if "addrOffsetTable" in attrs:
            attrs["addr_offset_table"] = attrs.pop("addrOffsetTable")
        return attrs

    @property
    def ld_count(self) -> int:
        return fs.int_param(self, "ldCount", 0) or 0

    @property
    def st_count(self) -> int:
        return fs.int_param(self, "stCount", 0) or 0

    @property
    def memref_type(self) -> Attribute | None:
        return self.attributes.get("memref_type")

    def _check_families(self, extra_outputs: int) -> None:
        ld, st = self.ld_count, self.st_count
        if ld < 0:
            raise VerifyException("ldCount must be >= 0")
        if st < 0:
            raise VerifyException("stCount must be >= 0")
        if (fs.int_param(self, "lsqDepth", 0) or 0) < 0:
            raise VerifyException("lsqDepth must be >= 0")
        memref = self.memref_type
        if not isinstance(memref, MemRefType):
            raise VerifyException("memrefType must be a memref")
        if scalar_width(memref.element_type) is None:
            raise VerifyException(
                f"memrefType element type is unsupported for memory families: "
                f"{memref.element_type}"
            )
        ftype = fs.function_type(self)
        ins, outs = list(ftype.inputs.data), list(ftype.outputs.data)
        in_lanes = ([ld] if ld else []) + ([st, st] if st else [])
        out_lanes = ([ld, ld] if ld else []) + ([st] if st else [])
        n_in = len(in_lanes) + int(self.HAS_MEMREF_INPUT)
        n_out = len(out_lanes) + extra_outputs
        if len(ins) != n_in:
            raise VerifyException(f"function_type must have {n_in} input(s), got {len(ins)}")
        if len(outs) != n_out:
            raise VerifyException(f"function_type must have {n_out} result(s), got {len(outs)}")
        if self.HAS_MEMREF_INPUT:
            if ins[0] != memref:
                raise VerifyException("function type input 0 must match memrefType")
            ins = ins[1:]
        for port, lanes in zip(ins, in_lanes):
            _check_family(port, lanes)
        for port, lanes in zip(outs, out_lanes):
            _check_family(port, lanes)


@irdl_op_definition
class MemoryOp(_MemoryBase):
    """On-chip scratchpad; `is_private = false` exports its memref."""

    name = "fabric.memory"
    WHAT: ClassVar[str] = "memory"
    HW_PARAMS: ClassVar[tuple[fs.HwParam, ...]] = (*_PARAMS, fs.HwParam("is_private", flag=True), fs.HwParam("numRegion"))

    def verify_component(self) -> None:
        private = fs.bool_param(self, "is_private", True)
        self._check_families(0 if private else 1)
        if not private and fs.function_type(self).outputs.data[-1] != self.memref_type:
            raise VerifyException("public memory memref result must match memrefType")
        _check_region_table(self)


@irdl_op_definition
class ExtMemoryOp(_MemoryBase):
    """Interface to host memory; input 0 is the memref it serves."""

    name = "fabric.extmemory"
    WHAT: ClassVar[str] = "extmemory"
    HW_PARAMS: ClassVar[tuple[fs.HwParam, ...]] = (*_PARAMS, fs.HwParam("numRegion"))
    HAS_MEMREF_INPUT: ClassVar[bool] = True

    def verify_component(self) -> None:
        self._check_families(0)
        _check_region_table(self)
        if self.operands and self.operands[0].type != self.memref_type:
            raise VerifyException("operand 0 must match memrefType")
