"""SCF shapes the lowering does not take, rewritten into ones it does.

`--lift-cf-to-scf` turns a block reached from several branches (`if (a && b)
x; else y;`) into a multiplexer: an `scf.index_switch` on a small integer.
That is exactly a chain of `scf.if`s, which is what the lowering handles.
"""

from __future__ import annotations

from xdsl.dialects import arith, scf
from xdsl.dialects.builtin import IntegerAttr, IntegerType, ModuleOp
from xdsl.ir import Block, Region

from loom.frontend.mlir_ir import IndexCastUIOp


def switches_to_ifs(module: ModuleOp) -> int:
    """Rewrite every scf.index_switch in place; the number rewritten."""
    switches = [op for op in module.walk() if isinstance(op, scf.IndexSwitchOp)]
    for op in reversed(switches):        # innermost first
        _rewrite(op)
    return len(switches)


def _rewrite(op: scf.IndexSwitchOp) -> None:
    types = list(op.result_types)
    tail = op.default_region.clone()
    # The multiplexer is usually `index_castui %flag : i32`; test the flag itself.
    subject = op.arg
    owner = subject.owner
    if isinstance(owner, (IndexCastUIOp, arith.IndexCastOp)) and \
            isinstance(owner.input.type, IntegerType):
        subject = owner.input
    for value, region in reversed(list(zip(op.cases.get_values(), op.case_regions))):
        cst = arith.ConstantOp(IntegerAttr(value, subject.type))
        hit = arith.CmpiOp(subject, cst, "eq")
        if_op = scf.IfOp(hit, types, region.clone(), tail)
        for new in (cst, hit, if_op):
            new.location = op.location
        tail = Region(Block([cst, hit, if_op, scf.YieldOp(*if_op.results)]))
    # Splice the outermost region's body in place of the switch.
    block = tail.block
    yield_op = block.last_op
    assert isinstance(yield_op, scf.YieldOp)
    results = list(yield_op.operands)
    parent = op.parent_block()
    assert parent is not None
    for new in list(block.ops)[:-1]:
        block.detach_op(new)
        parent.insert_op_before(new, op)
    block.erase_op(yield_op)
    for old, new in zip(op.results, results):
        old.replace_all_uses_with(new)
    parent.erase_op(op)
