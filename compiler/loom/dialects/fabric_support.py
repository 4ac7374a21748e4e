"""What of LOOM's fabric LOOM-py maps and generates RTL for.

temporal_pe and decomposable switches parse, verify and round-trip (so
LOOM's files are ours), but the mapper and the RTL generator refuse an ADG
that uses them, with one line naming the component (design.md section 9).
"""

from __future__ import annotations

from collections.abc import Iterator

from xdsl.ir import Operation

from loom.dialects import fabric_syntax as fs
from loom.dialects.fabric_graph import MODULE, resolve_definition


def unsupported_components(module: Operation) -> Iterator[tuple[Operation, str]]:
    """Each graph node of a fabric.module that LOOM-py cannot map, with the reason."""
    for top in module.walk():
        if top.name != MODULE:
            continue
        for op in top.regions[0].block.ops:
            definition = op
            if op.name == "fabric.instance":
                definition = resolve_definition(op, op.attributes["module"].data)  # type: ignore[attr-defined]
            elif not fs.is_inline(op):
                continue
            if definition is None:
                continue
            if (reason := _unsupported(definition)) is not None:
                yield op, reason


def _unsupported(definition: Operation) -> str | None:
    name = definition.attributes.get("sym_name")
    label = f" '{name.data}'" if name is not None else ""  # type: ignore[attr-defined]
    if definition.name == "fabric.temporal_pe":
        return f"fabric.temporal_pe{label} is not supported (temporal PEs are not mapped)"
    if definition.name == "fabric.spatial_sw" and (
            fs.int_param(definition, "decomposable_bits", -1) or -1) > 0:
        return (f"fabric.spatial_sw{label} with decomposable_bits is not supported "
                "(decomposable switches are not mapped)")
    return None
