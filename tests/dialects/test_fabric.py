"""fabric.module, fabric.instance and fabric.yield, and the ADG rules of
LOOM's ADGVerifier: instance targets, port counts, tag kinds, dangling ports."""

from __future__ import annotations

import pytest

from loom.dialects.fabric import FabricModuleOp, InstanceOp

B = "!fabric.bits<32>"
T = "!fabric.tagged<!fabric.bits<32>, i1>"

ADG = f"""module {{
  fabric.spatial_sw @sw [connectivity_table = ["11", "11"]] : ({B}, {B}) -> ({B}, {B})
  fabric.module @top(%a: {B}, %b: {B}) -> ({B}, {B}) attributes {{viz_file = "top.viz.json"}} {{
    %s:2 = fabric.instance @sw(%a, %b) {{sym_name = "sw_0_0"}} : ({B}, {B}) -> ({B}, {B})
    fabric.yield %s#0, %s#1 : {B}, {B}
  }}
}}"""


def test_module_and_instance(checked):
    module = checked(ADG)
    top = list(module.ops)[1]
    assert isinstance(top, FabricModuleOp) and top.sym_name == "top"
    inst = next(iter(top.body.block.ops))
    assert isinstance(inst, InstanceOp) and inst.target == "sw"
    assert inst.attributes["sym_name"].data == "sw_0_0"


def test_forward_references_in_the_graph(checked):
    # A loop through a switch: the instance uses its own output (graph region).
    checked(f"""module {{
  fabric.spatial_sw @sw : ({B}, {B}) -> ({B}, {B})
  fabric.module @top(%a: {B}) -> ({B}) {{
    %s:2 = fabric.instance @sw(%a, %s#1) {{sym_name = "sw_0_0"}} : ({B}, {B}) -> ({B}, {B})
    fabric.yield %s#0 : {B}
  }}
}}""")


@pytest.mark.parametrize(("old", "new", "message", "line"), [
    ("fabric.yield %s#0, %s#1 : {B}, {B}".format(B=B), f"fabric.yield %s#0 : {B}",
     "yield operand count mismatch with function results", 3),
    ("fabric.instance @sw(%a, %b)", "fabric.instance @nosuch(%a, %b)",
     "instance target 'nosuch' cannot be resolved from the current host scope", 4),
    ("fabric.instance @sw(%a, %b)", "fabric.instance @sw(%a, %a)",
     "dangling module input port I1 — not connected to any instance", 5),
    (f"fabric.yield %s#0, %s#1 : {B}, {B}", f"fabric.yield %s#0, %s#0 : {B}, {B}",
     "dangling output port O1 of instance 'sw_0_0' — result is not connected", 4),
])
def test_adg_rules(error, old, new, message, line):
    assert old in ADG
    err = error(ADG.replace(old, new))
    assert message in err.message
    assert err.loc is not None and err.loc.line == line


def test_instance_port_count_and_tag_kind(error):
    three = ADG.replace(f"@sw(%a, %b) {{sym_name = \"sw_0_0\"}} : ({B}, {B})",
                        f"@sw(%a, %b, %a) {{sym_name = \"sw_0_0\"}} : ({B}, {B}, {B})")
    assert "dangling input ports on instance 'sw_0_0' — expected 2 connected input(s), got 3" in (
        error(three).message)
    tagged = f"""module {{
  fabric.spatial_sw @sw : ({T}) -> ({T})
  fabric.module @top(%a: {B}) -> ({B}) {{
    %s = fabric.instance @sw(%a) {{sym_name = "sw_0_0"}} : ({B}) -> ({B})
    fabric.yield %s : {B}
  }}
}}"""
    assert "tag-kind mismatch on instance 'sw_0_0' input I0" in error(tagged).message


def test_instance_outside_a_host(error):
    text = f"""module {{
  fabric.spatial_sw @sw : ({B}) -> ({B})
  fabric.instance @sw() : () -> ()
}}"""
    err = error(text)
    assert "must appear directly inside fabric.module, fabric.spatial_pe, or fabric.temporal_pe" in (
        err.message)
    assert err.loc is not None and err.loc.line == 3


def test_duplicate_definitions_across_kinds(error):
    text = ADG.replace("    %s:2 = fabric.instance", f"""    fabric.spatial_sw @d : ({B}) -> ({B})
    fabric.fifo @d [depth = 1] : ({B}) -> ({B})
    %s:2 = fabric.instance""")
    err = error(text)
    assert ("duplicate definition name 'd' in the same host scope between fabric.spatial_sw "
            "and fabric.fifo") in err.message
    assert err.loc is not None and err.loc.line == 5


def test_bad_syntax_is_one_line_at_the_token(error):
    err = error(ADG.replace("[connectivity_table", "[connectivity"))
    assert "unexpected keyword 'connectivity' in SW hardware parameters" in err.message
    assert err.loc is not None and (err.loc.line, err.loc.col) == (2, 26)
