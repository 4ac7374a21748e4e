"""Source positions of SCF ops, for diagnostics that name a C line."""

from __future__ import annotations

from xdsl.ir import Block, BlockArgument, Operation, SSAValue

from loom.diagnostics import Location
from loom.ir import op_location


def where(thing: Operation | Block | SSAValue | None) -> Location | None:
    if isinstance(thing, BlockArgument):
        return op_location(thing) or where(thing.block.parent_op())
    if isinstance(thing, SSAValue):
        return where(thing.owner)
    if isinstance(thing, Block):
        return where(thing.parent_op())
    if isinstance(thing, Operation):
        return op_location(thing) or where(thing.parent_op())
    return None
