"""spatial_sw, temporal_sw and fifo against LOOM's rules (FabricOpsMemory.cpp)."""

from __future__ import annotations

import pytest

B = "!fabric.bits<32>"
T = "!fabric.tagged<!fabric.bits<32>, i1>"


def sw(params: str, ins: list[str], outs: list[str], kind: str = "spatial_sw") -> str:
    return (f"module {{\n  fabric.{kind} @sw {params} : ({', '.join(ins)}) -> "
            f"({', '.join(outs)})\n}}")


def test_broadcast_switch_in_a_module(checked):
    # One input feeding both outputs (broadcast); a sparse table ("01": input 1 only).
    text = f"""module {{
  fabric.spatial_sw @xbar [connectivity_table = ["11", "01"]] : ({B}, {B}) -> ({B}, {B})
  fabric.module @m(%a: {B}, %b: {B}) -> ({B}, {B}) {{
    %s:2 = fabric.instance @xbar(%a, %b) {{sym_name = "sw_0_0"}} : ({B}, {B}) -> ({B}, {B})
    %i:2 = fabric.spatial_sw @inl [connectivity_table = ["11", "11"]] (%s#0, %s#1) attributes {{route_table = ["10", "10"]}} : ({B}, {B}) -> ({B}, {B})
    fabric.yield %i#0, %i#1 : {B}, {B}
  }}
}}"""
    checked(text)


@pytest.mark.parametrize(("text", "message"), [
    (sw("", [B] * 33, [B]), "may have at most 32 input ports"),
    (sw("", [B], [B] * 33), "may have at most 32 output ports"),
    (sw("", [B, T], [B]), "all ports must share the same tag-kind"),
    (sw("[decomposable_bits = 0]", [B], [B]), "decomposable_bits must be -1 or a positive integer"),
    (sw("[decomposable_bits = 8]", [T], [T]), "tagged spatial_sw cannot be decomposable"),
    (sw("[decomposable_bits = 5]", [B], [B]), "input payload width must be divisible by decomposable_bits"),
    (sw('[connectivity_table = ["11"]]', [B, B], [B, B]), "connectivity_table must have 2 row(s), got 1"),
    (sw('[connectivity_table = ["1", "12"]]', [B], [B, B]), "connectivity_table row 1 must have 1 column(s), got 2"),
    (sw('[connectivity_table = ["2"]]', [B], [B]), "connectivity_table row 0 must contain only '0' or '1'"),
])
def test_spatial_sw_rules(error, text, message):
    err = error(text)
    assert message in err.message and err.loc is not None and err.loc.line == 2


def test_decomposable_switch_parses_and_round_trips(checked):
    checked(sw('[connectivity_table = ["11", "11"], decomposable_bits = 8]', [B, B], [B, B]))


def test_temporal_sw(checked, error):
    checked(sw('[num_route_table = 2, connectivity_table = ["1", "1"]]', [T], [T, T], "temporal_sw"))
    assert "input 0 must be !fabric.tagged" in error(
        sw("[num_route_table = 1]", [B], [T], "temporal_sw")).message
    assert "num_route_table must be >= 1" in error(
        sw("[num_route_table = 0]", [T], [T], "temporal_sw")).message
    other = "!fabric.tagged<!fabric.bits<32>, i2>"
    assert "all ports must have the same tagged type; output 0" in error(
        sw("[num_route_table = 1]", [T], [other], "temporal_sw")).message


FIFO = """module {
  fabric.module @m(%a: i32) -> (i32) {
    %o = fabric.fifo @f PARAMS (%a) ATTRS : (i32) -> (TYPE)
    fabric.yield %o : TYPE
  }
}"""


def fifo(params: str, attrs: str = "", out: str = "i32") -> str:
    return FIFO.replace("PARAMS", params).replace("ATTRS", attrs).replace("TYPE", out)


def test_fifo(checked, error):
    checked(fifo("[depth = 2, bypassable]", "attributes {bypassed = true}"))
    checked(fifo("[depth = 1]"))
    assert "depth must be at least 1" in error(fifo("[depth = 0]")).message
    assert "bypassed requires bypassable" in error(
        fifo("[depth = 2]", "attributes {bypassed = true}")).message
    assert "input and output types must match" in error(fifo("[depth = 2]", out="i16")).message
