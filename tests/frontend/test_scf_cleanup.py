"""scf.index_switch becomes a chain of scf.if that computes the same values."""

from __future__ import annotations

import pytest

from loom.bundle import Bundle, ScalarInput
from loom.frontend.mlir_ir import parse_module, print_generic
from loom.frontend.reference import run_reference
from loom.frontend.scf_cleanup import switches_to_ifs

SWITCH = """\
func.func @sw(%x: i32, %y: i32) -> i32 {
  %i = arith.index_castui %x : i32 to index
  %r = scf.index_switch %i -> i32
  case 0 {
    %a = arith.addi %y, %y : i32
    scf.yield %a : i32
  }
  case 2 {
    %b = arith.muli %y, %y : i32
    scf.yield %b : i32
  }
  case 7 {
    scf.yield %x : i32
  }
  default {
    %c = arith.constant -1 : i32
    scf.yield %c : i32
  }
  return %r : i32
}
"""


def test_switch_becomes_ifs(tmp_path):
    module = parse_module(SWITCH, "sw.scf.mlir")
    assert switches_to_ifs(module) == 1
    text = print_generic(module)
    assert "scf.index_switch" not in text and text.count('"scf.if"') == 3
    original, rewritten = tmp_path / "a.scf.mlir", tmp_path / "b.scf.mlir"
    original.write_text(SWITCH)
    rewritten.write_text(text)
    for x in (0, 1, 2, 3, 7, 8, -1):
        bundle = Bundle("sw", scalar_inputs=[ScalarInput(0, [x]), ScalarInput(1, [5])])
        expected = {0: 10, 2: 25, 7: 7}.get(x, -1) & 0xFFFFFFFF
        for path in (original, rewritten):
            assert run_reference(path, bundle, "sw").results == [[expected]]


@pytest.mark.parametrize("name", ["and_or", "early_return"])
def test_no_switch_survives_in_kernels(compiled, name):
    assert "scf.index_switch" not in compiled(name).scf_mlir.read_text()
