"""memref.global in MLIR's custom syntax (loom.dialects.memref_extras), as
mlir-opt prints a constant table and reads it back."""

from __future__ import annotations

from xdsl.dialects.builtin import DenseIntOrFPElementsAttr

from loom.dialects.memref_extras import GlobalOp
from loom.ir import parse_module, print_module
from tests.test_ir_syntax import _mlir_opt

GENERIC = """
"memref.global"() <{sym_name = "t", type = memref<2x3xi8>, initial_value = dense<[[1, -2, 3], [4, 5, 127]]> : tensor<2x3xi8>, sym_visibility = "private", constant}> : () -> ()
"memref.global"() <{sym_name = "w", type = memref<2xi32>, initial_value = dense<7> : tensor<2xi32>, sym_visibility = "public"}> : () -> ()
"""


def test_a_constant_table_parses_as_mlir_prints_it():
    pretty = _mlir_opt(GENERIC)
    assert 'memref.global "private" constant @t : memref<2x3xi8> = dense<' in pretty
    module = parse_module(pretty)
    t, w = list(module.ops)
    assert isinstance(t, GlobalOp) and t.constant is not None and t.sym_name.data == "t"
    assert isinstance(t.initial_value, DenseIntOrFPElementsAttr)
    assert [int(v) for v in t.initial_value.get_values()] == [1, -2, 3, 4, 5, 127]
    assert isinstance(w, GlobalOp) and w.constant is None and w.sym_visibility.data == "public"
    # what we print, mlir-opt reads as the same globals
    assert _mlir_opt(print_module(module), "--mlir-print-op-generic") == \
        _mlir_opt(pretty, "--mlir-print-op-generic")
