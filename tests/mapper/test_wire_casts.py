"""A wire cast of several uses built once per use (loom.mapper.wire_casts):
each copy has one use, so each folds into its user's unit (contraction's
wires) and the cast needs no PE; a cast with a user that cannot host it
stays as it is. The expected ops are derived from the DFGs by hand."""

from __future__ import annotations

import pytest

from loom.mapper.contraction import contract
from loom.mapper.dfg_graph import dfg_graph
from loom.mapper.matching import UnitKinds
from loom.mapper.wire_casts import split_wire_casts
from tests.mapper.test_precheck import _body

BRANCHES = ("module {\n  handshake.func @k(%v: i32, %a: i32, %b: i32) -> (i32, i32) {\n"
            "    %c = arith.trunci %v : i32 to i1\n"
            "    %f:2 = fork [2] %c : i1\n"
            "    %t0, %e0 = handshake.cond_br %f#0, %a : i32\n"
            "    %t1, %e1 = handshake.cond_br %f#1, %b : i32\n"
            "    handshake.sink %e0 : i32\n    handshake.sink %e1 : i32\n"
            "    handshake.return %t0, %t1 : i32, i32\n  }\n}\n")
"""`lo <= hi` truncated to i1 once, read by two branches (binary search's shape)."""


def _names(body) -> list[str]:
    return [op.name for op in body.ops]


def test_a_wire_of_two_uses_is_built_for_each_and_folds_into_both():
    body = _body(BRANCHES)
    before = contract(dfg_graph(body), UnitKinds.of([]))
    assert before.wired == frozenset() and before.ops == 3   # trunci, two cond_br
    assert split_wire_casts(body) == 1
    # the operand forked, a trunci per branch, each read by its branch
    assert _names(body).count("arith.trunci") == 2
    for op in body.ops:
        if op.name == "arith.trunci":
            (use,) = op.results[0].uses
            assert use.operation.name == "handshake.cond_br" and use.index == 0
            assert op.operands[0].owner.name == "handshake.fork"
            assert op.operands[0].owner.operands[0] is body.args[0]
    after = contract(dfg_graph(body), UnitKinds.of([]))
    assert len(after.wired) == 2 and after.ops == 2


@pytest.mark.parametrize("other", [
    "    handshake.return %t0, %f#1 : i32, i1\n",                     # the return
    "    %x = arith.extui %f#1 : i1 to i32\n    handshake.return %t0, %x : i32, i32\n",
])
def test_a_wire_with_a_user_that_cannot_host_it_stays(other):
    text = BRANCHES.replace(
        "    %t1, %e1 = handshake.cond_br %f#1, %b : i32\n", "").replace(
        "    handshake.sink %e1 : i32\n", "").replace(
        "    handshake.return %t0, %t1 : i32, i32\n", other)
    text = text.replace("-> (i32, i32)", "-> (i32, i1)" if "return %t0, %f" in other
                        else "-> (i32, i32)")
    body = _body(text)
    names = _names(body)
    assert split_wire_casts(body) == 0 and _names(body) == names
