"""scf.while as mlir-opt prints it: no assignment list when there are no operands
(loom.ir.normalize_syntax)."""

from __future__ import annotations

import subprocess

from loom.frontend.toolchain import find_toolchain
from loom.ir import parse_module, print_module

GENERIC = """
"func.func"() <{function_type = (i32) -> i32, sym_name = "f"}> ({
^bb0(%x: i32):
  "scf.while"() ({
    %c = "arith.cmpi"(%x, %x) <{predicate = 2 : i64}> : (i32, i32) -> i1
    "scf.condition"(%c) : (i1) -> ()
  }, {
    "scf.yield"() : () -> ()
  }) : () -> ()
  "func.return"(%x) : (i32) -> ()
}) : () -> ()
"""


def _mlir_opt(text: str, *flags: str) -> str:
    tc = find_toolchain()
    return subprocess.run([tc.mlir_opt, *flags, "-"], input=text, capture_output=True,
                          text=True, check=True).stdout


def test_a_while_without_operands_parses_as_mlir_prints_it():
    pretty = _mlir_opt(GENERIC)
    assert "scf.while : () -> ()" in pretty          # MLIR's own spelling
    module = parse_module(pretty)
    ours = print_module(module)
    # What we print is accepted by mlir-opt and means the same program.
    assert _mlir_opt(ours, "--mlir-print-op-generic") == \
        _mlir_opt(pretty, "--mlir-print-op-generic")
