"""Which RTL unit each DFG op gets (loom.rtl.op_units): float ops get the
float units with their formats; an op without a unit stops in one line."""

import pytest

from loom.diagnostics import LoomError
from loom.golden.run import find_func
from loom.ir import parse_module
from loom.rtl.netlist import build_netlist

FLOAT_OPS = """
handshake.func @f(%a: f64, %b: f64, %n: i32, %start: none) -> (f64, f32, i16, none) {
  %0 = arith.OP %a, %b : f64
  %1 = arith.truncf %0 : f64 to f32
  %2 = arith.fptosi %1 : f32 to i16
  %3 = arith.sitofp %n : i32 to f64
  %4 = math.sqrt %3 : f64
  handshake.sink %4 : f64
  handshake.return %0, %1, %2, %start : f64, f32, i16, none
}
"""


# binary64's FloPoCo stage counts under 5 ns in Dynamatic's components.json
LATENCY_64 = {"addf": 7, "subf": 7, "mulf": 3, "divf": 36}


def _netlist(op: str):
    module = parse_module("builtin.module {" + FLOAT_OPS.replace("OP", op) + "}", "t.mlir")
    return build_netlist(find_func(module, None, "t.mlir"), "t.mlir")


@pytest.mark.parametrize("op", ["addf", "subf", "mulf", "divf", "minnumf", "maxnumf"])
def test_float_ops_get_their_units(op):
    families = {i.spec.family: i.spec.params for i in _netlist(op).instances}
    expected = {"w": 64} | ({"latency": LATENCY_64[op]} if op in LATENCY_64 else {})
    assert families[op] == expected
    assert families["truncf"]["w_in"] == 64 and families["truncf"]["w_out"] == 32
    assert families["fptosi"]["w_in"] == 32 and families["fptosi"]["w_out"] == 16
    assert families["sitofp"]["w_in"] == 32 and families["sitofp"]["w_out"] == 64
    assert families["sqrt"]["w"] == 64


def test_remf_stops_in_one_line():
    with pytest.raises(LoomError) as err:
        _netlist("remf")
    text = err.value.format()
    assert "arith.remf on floating point has no RTL unit yet" in text and "\n" not in text


def test_a_memref_of_unknown_extent_stops_in_one_line():
    # LOOM's DFGs take `memref<?xi32, ...>` arguments; the RTL memory's depth
    # is the product of the extents, so one must be given
    text = """builtin.module {
    handshake.func @f(%m: memref<?xi32>, %i: index, %start: none) -> (i32, none) {
      %d, %a = handshake.load [%i] %mem#0, %start : index, i32
      %mem:2 = handshake.extmemory[ld = 1, st = 0] (%m : memref<?xi32>) (%a) {id = 0 : i32}
          : (index) -> (i32, none)
      handshake.return %d, %mem#1 : i32, none
    }}"""
    func = find_func(parse_module(text, "t.mlir"), None, "t.mlir")
    with pytest.raises(LoomError) as err:
        build_netlist(func, "t.mlir")
    line = err.value.format()
    assert "memref<?xi32>: the RTL memory needs every extent known" in line and "\n" not in line
