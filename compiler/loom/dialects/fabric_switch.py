"""Routing components of the fabric: `spatial_sw`, `temporal_sw` and `fifo`.

    fabric.spatial_sw @sw [connectivity_table = ["11", "01"]] : (T, T) -> (T, T)
    fabric.temporal_sw @ts [num_route_table = 2, connectivity_table = ["1", "1"]]
        : (!fabric.tagged<V, i1>) -> (!fabric.tagged<V, i1>, !fabric.tagged<V, i1>)
    %o = fabric.fifo @f [depth = 2, bypassable] (%a) attributes {bypassed = true} : (T) -> (T)

`connectivity_table` has one binary string per output; character j is 1 when
input j may drive that output. Rules and messages are LOOM's.
"""

from __future__ import annotations

from typing import ClassVar

from xdsl.irdl import irdl_op_definition
from xdsl.utils.exceptions import VerifyException

from loom.dialects import fabric_syntax as fs
from loom.dialects.fabric_component import ComponentOp
from loom.dialects.fabric_types import TaggedType, is_tagged, scalar_width

MAX_SWITCH_PORTS = 32


def _check_port_counts(op: ComponentOp) -> None:
    ftype = fs.function_type(op)
    n_in, n_out = len(ftype.inputs.data), len(ftype.outputs.data)
    if n_in == 0 or n_out == 0:
        raise VerifyException("must have at least one input and one output")
    if n_in > MAX_SWITCH_PORTS:
        raise VerifyException(f"may have at most {MAX_SWITCH_PORTS} input ports")
    if n_out > MAX_SWITCH_PORTS:
        raise VerifyException(f"may have at most {MAX_SWITCH_PORTS} output ports")


@irdl_op_definition
class SpatialSwOp(ComponentOp):
    """A configurable crossbar; an input may feed several outputs (broadcast)."""

    name = "fabric.spatial_sw"
    WHAT: ClassVar[str] = "SW"
    HW_PARAMS: ClassVar[tuple[fs.HwParam, ...]] = (
        fs.HwParam("connectivity_table"),
        fs.HwParam("route_table"),
        fs.HwParam("decomposable_bits"),
    )

    def verify_component(self) -> None:
        _check_port_counts(self)
        ftype = fs.function_type(self)
        ports = [*ftype.inputs.data, *ftype.outputs.data]
        tagged = any(is_tagged(t) for t in ports)
        if tagged and not all(is_tagged(t) for t in ports):
            raise VerifyException(
                "all ports must share the same tag-kind; mixing tagged and non-tagged "
                "ports is not allowed"
            )
        bits = self.decomposable_bits
        if bits == 0 or bits < -1:
            raise VerifyException("decomposable_bits must be -1 or a positive integer")
        if tagged and bits != -1:
            raise VerifyException("tagged spatial_sw cannot be decomposable")
        if bits > 0:
            for role, types in (("input", ftype.inputs.data), ("output", ftype.outputs.data)):
                for t in types:
                    width = scalar_width(t.value_type if isinstance(t, TaggedType) else t)
                    if width is None:
                        raise VerifyException(
                            f"unsupported port type for decomposable spatial_sw: {t}"
                        )
                    if width % bits:
                        raise VerifyException(
                            f"{role} payload width must be divisible by decomposable_bits"
                        )
        if bits == -1:
            fs.check_binary_table(
                fs.string_rows(self, "connectivity_table"),
                len(ftype.outputs.data), len(ftype.inputs.data), "connectivity_table",
            )

    @property
    def decomposable_bits(self) -> int:
        return fs.int_param(self, "decomposable_bits", -1) or 0


@irdl_op_definition
class TemporalSwOp(ComponentOp):
    """A tag-aware switch: per-tag route tables (`num_route_table` slots)."""

    name = "fabric.temporal_sw"
    WHAT: ClassVar[str] = "temporal_sw"
    HW_PARAMS: ClassVar[tuple[fs.HwParam, ...]] = (fs.HwParam("num_route_table"), fs.HwParam("connectivity_table"))

    def verify_component(self) -> None:
        _check_port_counts(self)
        if (fs.int_param(self, "num_route_table") or 0) < 1:
            raise VerifyException("num_route_table must be >= 1")
        ftype = fs.function_type(self)
        canonical = None
        for role, types in (("input", ftype.inputs.data), ("output", ftype.outputs.data)):
            for i, t in enumerate(types):
                if not is_tagged(t):
                    raise VerifyException(f"{role} {i} must be !fabric.tagged")
                if canonical is None:
                    canonical = t
                elif t != canonical:
                    raise VerifyException(
                        f"all ports must have the same tagged type; {role} {i} has type "
                        f"{t} but expected {canonical}"
                    )
        fs.check_binary_table(
            fs.string_rows(self, "connectivity_table"),
            len(ftype.outputs.data), len(ftype.inputs.data), "connectivity_table",
        )
        routes = self.attributes.get("route_table")
        if routes is not None and len(getattr(routes, "data", ())) > (
            fs.int_param(self, "num_route_table") or 0
        ):
            raise VerifyException("route_table cannot contain more rows than num_route_table")


@irdl_op_definition
class FifoOp(ComponentOp):
    """A buffer of `depth` slots; `bypassable` adds a config bit to skip it."""

    name = "fabric.fifo"
    WHAT: ClassVar[str] = "fifo"
    HW_PARAMS: ClassVar[tuple[fs.HwParam, ...]] = (fs.HwParam("depth"), fs.HwParam("bypassable", flag=True))

    def verify_component(self) -> None:
        ftype = fs.function_type(self)
        if len(ftype.inputs.data) != 1 or len(ftype.outputs.data) != 1:
            raise VerifyException("must have exactly one input and one output")
        if ftype.inputs.data[0] != ftype.outputs.data[0]:
            raise VerifyException("input and output types must match")
        depth = fs.int_param(self, "depth")
        if depth is None:
            raise VerifyException("requires depth hardware parameter")
        if depth < 1:
            raise VerifyException("depth must be at least 1")
        if fs.bool_param(self, "bypassed") and "bypassable" not in self.attributes:
            raise VerifyException("bypassed requires bypassable")
