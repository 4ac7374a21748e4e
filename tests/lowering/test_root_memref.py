"""The memory object an access reaches (lowering/root_memref.py): through
memref.cast to an argument or an allocation; any other op between them is
refused in one line (a select of two arrays is no one memory)."""

from __future__ import annotations

import pytest

from loom.diagnostics import LoomError
from loom.ir import parse
from loom.lowering.root_memref import root_memref

SCF = """module {{
  func.func @k(%a: memref<8xi32>, %b: memref<8xi32>, %c: i1, %i: index) -> i32 {{
{view}
    %v = memref.load %m[%i] : memref<{shape}xi32>
    return %v : i32
  }}
}}
"""


def _load(view: str, shape: str = "8"):
    module = parse(SCF.format(view=view, shape=shape), "k.scf.mlir").module
    func = next(op for op in module.walk() if op.name == "func.func")
    return func, next(op for op in module.walk() if op.name == "memref.load")


def test_a_cast_reaches_the_argument_behind_it():
    func, load = _load('    %m = "memref.cast"(%a) : (memref<8xi32>) -> memref<?xi32>', "?")
    assert root_memref(load.operands[0]) is func.body.block.args[0]


def test_a_select_of_two_arrays_is_refused():
    _, load = _load("    %m = arith.select %c, %a, %b : memref<8xi32>")
    with pytest.raises(LoomError, match="accesses through arith.select are not supported"):
        root_memref(load.operands[0])
