"""Forks and buffers fold into nets; sinks are discard; memrefs get no net."""

from __future__ import annotations

from loom.ir import parse, verify_module
from loom.mapper.dfg_nets import dfg_nets

DFG = """\
module {
  handshake.func @k(%a: i32, %b: i32) -> (i32, i32) {
    %f:2 = fork [2] %a : i32
    %s = arith.addi %f#0, %b : i32
    %g:2 = fork [2] %s : i32
    %bb = buffer [2] seq %g#1 : i32
    %p = arith.muli %f#1, %bb : i32
    %q = arith.subi %g#0, %g#0 : i32
    sink %q : i32
    return %p, %g#0 : i32, i32
  }
}
"""


def _nets():
    parsed = parse(DFG, "k.dfg.mlir")
    func = next(iter(parsed.module.ops))
    ops = {op.name: op for op in func.regions[0].block.ops}
    return dfg_nets(func.regions[0].block), ops


def test_fork_and_buffer_fold_into_one_net():
    nets, ops = _nets()
    add, mul, sub, ret = ops["arith.addi"], ops["arith.muli"], ops["arith.subi"], \
        ops["handshake.return"]
    assert [(n.source, n.sinks) for n in nets] == [
        ((None, 0), ((add, 0), (mul, 0))),              # a through fork f
        ((None, 1), ((add, 1),)),                       # b
        ((add, 0), ((mul, 1), (sub, 0), (sub, 1), (ret, 1))),  # s through g and bb
        ((mul, 0), ((ret, 0),)),
    ]                                                   # q goes to a sink: no net
