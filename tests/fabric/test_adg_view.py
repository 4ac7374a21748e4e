"""The ADG view: canonical names (LOOM's auto names), kinds, a PE's units in
opcode order, switch connectivity, and the unsupported-component rule."""

from __future__ import annotations

import pytest

from loom.diagnostics import LoomError
from loom.fabric.adg_view import adg_view
from loom.ir import parse
from tb.fabric_runner import load_adg

B = "!fabric.bits<32>"
T = "!fabric.tagged<!fabric.bits<32>, i1>"


def _view(text: str):
    return adg_view(load_adg(text, "v.fabric.mlir"))


NAMES = f"""module {{
  fabric.spatial_pe @pe(%p0: {B}, %p1: {B}) -> ({B}) {{
    fabric.function_unit @fu_add(%a: i32, %b: i32) -> (i32) [latency = 1, interval = 1] {{
      %0 = arith.addi %a, %b : i32
      fabric.yield %0 : i32
    }}
    fabric.function_unit @fu_mul(%a: i32, %b: i32) -> (i32) [latency = 1, interval = 1] {{
      %0 = arith.muli %a, %b : i32
      fabric.yield %0 : i32
    }}
    fabric.yield
  }}
  fabric.spatial_sw @sw [connectivity_table = ["10", "11"]] : ({B}, {B}) -> ({B}, {B})
  fabric.module @m(%a: {B}, %b: {B}) -> ({B}) {{
    %s:2 = fabric.instance @sw(%a, %b) : ({B}, {B}) -> ({B}, {B})
    %f = fabric.fifo [depth = 2] (%s#0) : ({B}) -> ({B})
    %g = fabric.fifo [depth = 2] (%s#1) : ({B}) -> ({B})
    %p = fabric.instance @pe(%f, %g) {{sym_name = "pe_0"}} : ({B}, {B}) -> ({B})
    fabric.yield %p : {B}
  }}
}}"""


def test_names_kinds_units_and_connectivity():
    # LOOM's rules: an unnamed instance is inst_<n> (n its place among the
    # graph nodes), an unnamed inline fifo fifo_<k> (k counting fifos)
    view = _view(NAMES)
    assert view.name == "m"
    assert [(n.name, n.kind) for n in view.nodes] == [
        ("inst_0", "spatial_sw"), ("fifo_0", "fifo"), ("fifo_1", "fifo"),
        ("pe_0", "spatial_pe")]
    pe = view.node("pe_0")
    assert pe.is_pe and not pe.is_routing
    assert [(u.pe, u.opcode, u.name) for u in pe.units] == [
        ("pe_0", 0, "fu_add"), ("pe_0", 1, "fu_mul")]
    sw = view.node("inst_0")
    assert sw.is_switch and sw.is_routing
    # row o of the table lists the inputs output o may take
    assert sw.connectivity() == ((0, 0), (1, 0), (1, 1))
    assert view.consumers(view.nodes[1].outputs[0]) == [("pe_0", 0)]
    assert view.max_join_fanin == 0


def test_the_layout_and_the_mapper_name_nodes_alike():
    # the config slices and the mapper's flattened nodes read the same names
    from loom.fabric.config_layout import fabric_layout
    from loom.mapper.adg_graph import flatten
    view = _view(NAMES)
    slices = {s.name for s in fabric_layout(view).slices}
    assert slices == {"inst_0", "pe_0"}   # the fifos are not bypassable: no bits
    flat = {n.name for n in flatten(view).nodes if n.kind != "fu"} | {
        n.pe for n in flatten(view).nodes if n.kind == "fu"}
    assert slices <= flat


def test_unsupported_components_are_named():
    view = _view(f"""module {{
  fabric.spatial_sw @dsw [connectivity_table = ["11", "11"], decomposable_bits = 8] : ({B}, {B}) -> ({B}, {B})
  fabric.spatial_sw @sw : ({B}, {B}) -> ({B}, {B})
  fabric.temporal_pe @tpe(%a: {T}) -> ({T}) [num_register = 0, num_instruction = 1, reg_fifo_depth = 0] {{
    fabric.function_unit @fu(%x: i32) -> (i32) [latency = 1, interval = 1] {{
      %0 = arith.addi %x, %x : i32
      fabric.yield %0 : i32
    }}
    fabric.yield
  }}
  fabric.module @m(%a: {B}, %b: {B}, %t: {T}) -> ({B}, {B}, {B}, {B}, {T}) {{
    %d:2 = fabric.instance @dsw(%a, %b) {{sym_name = "sw_0_0"}} : ({B}, {B}) -> ({B}, {B})
    %s:2 = fabric.instance @sw(%a, %b) {{sym_name = "sw_0_1"}} : ({B}, {B}) -> ({B}, {B})
    %p = fabric.instance @tpe(%t) {{sym_name = "pe_0_0"}} : ({T}) -> ({T})
    fabric.yield %d#0, %d#1, %s#0, %s#1, %p : {B}, {B}, {B}, {B}, {T}
  }}
}}""")
    found = [(n.name, n.unsupported) for n in view.nodes if n.unsupported]
    assert found == [
        ("sw_0_0", "fabric.spatial_sw 'dsw' with decomposable_bits is not supported "
                   "(decomposable switches are not mapped)"),
    ]   # the temporal PE maps and builds (docs/fabric/temporal_pe.md)
    with pytest.raises(LoomError, match="decomposable_bits"):
        view.check_supported()


def test_a_module_without_a_fabric_module_is_refused():
    parsed = parse("module {\n}\n", "e.mlir")
    with pytest.raises(LoomError, match="no fabric.module"):
        adg_view(parsed.module)
