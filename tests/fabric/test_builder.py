"""The ADG builder: what it writes parses, verifies and round-trips with our
fabric dialect; it equals a hand-written ADG of the same spec; dangling ports
and bad wires are refused; a tagged extmemory gets LOOM's bridges; the viz
sidecar has LOOM's format."""

from __future__ import annotations

import json

import pytest
from xdsl.ir import Operation

from loom.diagnostics import LoomError
from loom.fabric import function_units as fu
from loom.fabric.builder import MODULE_IN, MODULE_OUT, AdgBuilder, PortRef, bits
from loom.fabric.memory_bridge import ExtMemorySpec, attach_extmemory
from loom.fabric.topology import SidePorts, chess_mesh
from loom.ir import parse, print_module, verify_module
from loom.fabric.adg_view import adg_view

B = "!fabric.bits<64>"


def canonical(text: str) -> str:
    """Parse, verify and print with SSA names dropped: equal graphs print equal."""
    parsed = parse(text, "t.mlir")
    verify_module(parsed.module, "t.mlir", parsed.op_positions)
    for op in parsed.module.walk():
        for value in (*op.results, *(a for r in op.regions for b in r.blocks for a in b.args)):
            value.name_hint = None
    return print_module(parsed.module)


def round_trips(text: str) -> bool:
    printed = canonical(text)
    return canonical(printed) == printed


# LOOM's buildChessMesh(1, 1) by hand, from its rule: horizontal switch links
# first (row by row), then vertical ones, then the PE's ports NW, NE, SW, SE;
# a link uses one port index in both directions; boundary ports come last.
CHESS_1X1 = f"""module {{
  fabric.spatial_pe @pe_add(%a0: {B}, %a1: {B}, %a2: {B}, %a3: {B}) -> ({B}, {B}, {B}, {B}) {{
    fabric.function_unit @fu_add(%x: i64, %y: i64) -> (i64) [latency = 1, interval = 1] {{
      %s = arith.addi %x, %y : i64
      fabric.yield %s : i64
    }}
    fabric.yield
  }}
  fabric.spatial_sw @chess_sw_4x3 [connectivity_table = ["1111", "1111", "1111"]] : ({B}, {B}, {B}, {B}) -> ({B}, {B}, {B})
  fabric.spatial_sw @chess_sw_3x3 [connectivity_table = ["111", "111", "111"]] : ({B}, {B}, {B}) -> ({B}, {B}, {B})
  fabric.spatial_sw @chess_sw_3x4 [connectivity_table = ["111", "111", "111", "111"]] : ({B}, {B}, {B}) -> ({B}, {B}, {B}, {B})
  fabric.module @chess_1x1(%a: {B}) -> ({B}) {{
    %nw:3 = fabric.instance @chess_sw_4x3(%ne#0, %sw#1, %pe#0, %a) {{sym_name = "sw_0_0"}} : ({B}, {B}, {B}, {B}) -> ({B}, {B}, {B})
    %ne:3 = fabric.instance @chess_sw_3x3(%nw#0, %se#1, %pe#1) {{sym_name = "sw_0_1"}} : ({B}, {B}, {B}) -> ({B}, {B}, {B})
    %sw:3 = fabric.instance @chess_sw_3x3(%se#0, %nw#1, %pe#2) {{sym_name = "sw_1_0"}} : ({B}, {B}, {B}) -> ({B}, {B}, {B})
    %se:4 = fabric.instance @chess_sw_3x4(%sw#0, %ne#1, %pe#3) {{sym_name = "sw_1_1"}} : ({B}, {B}, {B}) -> ({B}, {B}, {B}, {B})
    %pe:4 = fabric.instance @pe_add(%nw#2, %ne#2, %sw#2, %se#2) {{sym_name = "pe_0_0"}} : ({B}, {B}, {B}, {B}) -> ({B}, {B}, {B}, {B})
    fabric.yield %se#3 : {B}
  }}
}}
"""


def _chess_1x1() -> AdgBuilder:
    b = AdgBuilder("chess_1x1")
    pe = b.define_pe("pe_add", 4, 4, 64, [fu.binary("fu_add", "arith.addi", "i64")])
    a = b.add_input("a", B)
    out = b.add_output("r", B)
    mesh = chess_mesh(b, 1, 1, lambda r, c: pe,
                      {"top": SidePorts(inputs=[1]), "bottom": SidePorts(outputs=[0, 1])})
    b.connect(a, mesh.ingress["top"][0])
    b.connect(mesh.egress["bottom"][0], out)
    return b


def test_builder_equals_the_hand_written_adg():
    text = _chess_1x1().emit()
    assert canonical(text) == canonical(CHESS_1X1)


def test_output_round_trips():
    assert round_trips(_chess_1x1().emit())


def test_printed_names_are_a_fixed_point():
    # SSA names follow LOOM's builder (%v<i>, %scalar<k>, %mem<k>); a name ending
    # in _<n> (like %sw_0_0) would be renamed by every print and parse.
    text = _memory_hub(ExtMemorySpec("extmem_0", ld=2, st=1)).emit()
    assert "%v0:5 = fabric.instance @hub_sw(" in text and "(%mem0, " in text
    printed = print_module(parse(text, "t.mlir").module)
    assert print_module(parse(printed, "p.mlir").module) == printed


def _switch_loop() -> AdgBuilder:
    b = AdgBuilder("loop")
    sw = b.define_switch("sw", 2, 2, 64)
    b.instance(sw, "sw_0")
    b.connect(b.add_input("a", B), PortRef("sw_0", 0))
    b.connect(PortRef("sw_0", 0), b.add_output("o", B))
    return b


@pytest.mark.parametrize(("finish", "problem"), [
    (lambda b: b.connect(PortRef("sw_0", 1), PortRef("sw_0", 1)), None),
    (lambda b: None, "input port 1 of sw_0 is not driven (and 1 more)"),
    (lambda b: b.connect(b.add_input("c", B), PortRef("sw_0", 1)),
     "output port 1 of sw_0 is not connected"),
    (lambda b: (b.connect(PortRef("sw_0", 1), PortRef("sw_0", 1)), b.add_input("c", B)),
     "module input c is not connected"),
    (lambda b: (b.connect(PortRef("sw_0", 1), PortRef("sw_0", 1)), b.add_output("p", B)),
     "module output p is not driven"),
])
def test_dangling_ports_are_errors(finish, problem):
    b = _switch_loop()
    finish(b)
    if problem is None:
        b.build()
        return
    with pytest.raises(LoomError) as info:
        b.emit()
    assert info.value.message == f"ADG loop: dangling port: {problem}"


def test_nothing_is_repaired():
    # LOOM's builder refuses to emit an unconnected input rather than looping it back.
    b = _switch_loop()
    assert b.dangling() == ["input port 1 of sw_0 is not driven",
                            "output port 1 of sw_0 is not connected"]


@pytest.mark.parametrize(("wire", "message"), [
    (lambda b: b.connect(PortRef(MODULE_IN, 0), PortRef("sw_0", 0)),
     "sw_0 port 0 is driven twice (module input 0 and module input 0)"),
    (lambda b: b.connect(PortRef("sw_0", 5), PortRef("sw_0", 1)), "sw_0 port 5 has no such output"),
    (lambda b: b.connect(PortRef("sw_0", 1), PortRef("nope", 0)), "no node named 'nope'"),
    (lambda b: b.connect(PortRef("sw_0", 1), PortRef(MODULE_OUT, 3)),
     "module output 3 has no such input port"),
    (lambda b: b.connect(b.add_input("t", "!fabric.tagged<!fabric.bits<64>, i1>"),
                         PortRef("sw_0", 1)), "tag-kind mismatch"),
    (lambda b: b.instance(b.switches["sw"], "sw_0"), "the name 'sw_0' is already used"),
    (lambda b: b.define_switch("sw", 1, 1, 64), "duplicate definition name 'sw'"),
    (lambda b: b.define_switch("big", 33, 1, 64), "33 input ports (a switch has 1..32)"),
    (lambda b: b.define_switch("odd", 2, 1, 64, ["1"]), "needs 1 rows of 2"),
    (lambda b: b.add_input("m", "memref<?xi64>"), "memrefs first"),
])
def test_bad_wiring_is_refused(wire, message):
    with pytest.raises(LoomError) as info:
        wire(_switch_loop())
    assert message in info.value.message
    assert "\n" not in info.value.format()


def _memory_hub(spec: ExtMemorySpec, bridged: bool = True) -> AdgBuilder:
    """One crossbar switch carrying the memory's lanes, plus one module input and output."""
    b = AdgBuilder("hub")
    mem = b.add_input("mem0", spec.memref_type)
    n_req = spec.ld + 2 * spec.st
    n_resp = 2 * spec.ld + spec.st
    sw = b.define_switch("hub_sw", n_resp + 1, n_req + 1, 64)
    b.instance(sw, "sw_0")
    b.connect(b.add_input("a", B), PortRef("sw_0", n_resp))
    b.connect(PortRef("sw_0", n_req), b.add_output("o", B))
    requests = [PortRef("sw_0", k) for k in range(n_req)]
    responses = [PortRef("sw_0", k) for k in range(n_resp)]
    if bridged:
        attach_extmemory(b, spec, mem, requests, responses)
    else:
        # The families wired straight, untagged: what the bridges exist for.
        b.extmemory(spec.name, mem, spec.ld, spec.st, spec.memref_type, B)
        for family, port in enumerate((requests[0], requests[spec.ld], requests[spec.ld + 1])):
            b.connect(port, PortRef(spec.name, 1 + family))
        for k, lane in zip(range(3), (responses[0], responses[spec.ld], responses[2 * spec.ld])):
            b.connect(PortRef(spec.name, k), lane)
        for port in requests[1:spec.ld]:
            b.connect(port, b.add_output(f"x{port.port}", B))
        for port in (*responses[1:spec.ld], *responses[spec.ld + 1:2 * spec.ld]):
            b.connect(b.add_input(f"y{port.port}", B), port)
    return b


def _count(module, name: str) -> int:
    return sum(op.name == name for op in module.walk())


def test_two_load_lanes_get_tag_bridges():
    module = _memory_hub(ExtMemorySpec("extmem_0", ld=2, st=1)).build()
    # LOOM's mesh-*-extmem-2 bridge: add_tag per request lane, a tagged 2:1
    # spatial_sw on ld_addr, 1:2 temporal_sws on ld_data and ld_done, del_tag
    # per response lane.
    assert _count(module, "fabric.add_tag") == 2 + 1 + 1
    assert _count(module, "fabric.del_tag") == 2 + 2 + 1
    assert _count(module, "fabric.temporal_sw") == 1   # one definition, two instances
    ext = next(op for op in module.walk() if op.name == "fabric.extmemory")
    tagged = "!fabric.tagged<!fabric.bits<64>, i1>"
    assert [str(v.type) for v in ext.operands[1:]] == [tagged] * 3
    instances = [op.attributes["sym_name"].data for op in module.walk()
                 if op.name == "fabric.instance"]
    assert instances == ["sw_0", "extmem_0_ld_addr_mux", "extmem_0_ld_data_demux",
                         "extmem_0_ld_done_demux"]
    split = next(op for op in module.walk() if op.name == "fabric.temporal_sw")
    assert split.attributes["num_route_table"].value.data == 2


def test_four_lanes_take_two_tag_bits():
    module = _memory_hub(ExtMemorySpec("extmem_0", ld=4, st=1)).build()
    ext = next(op for op in module.walk() if op.name == "fabric.extmemory")
    assert str(ext.operands[1].type) == "!fabric.tagged<!fabric.bits<64>, i2>"
    tags = [op.attributes["tag"].value.data for op in module.walk() if op.name == "fabric.add_tag"]
    assert tags == [0, 1, 2, 3, 0, 0]


def test_two_lanes_without_bridges_are_rejected_by_the_dialect():
    with pytest.raises(LoomError) as info:
        _memory_hub(ExtMemorySpec("extmem_0", ld=2, st=1), bridged=False).build()
    assert "multi-lane memory family must be tagged" in info.value.message


def test_one_lane_memory_is_untagged():
    module = _memory_hub(ExtMemorySpec("extmem_0", ld=1, st=1)).build()
    assert _count(module, "fabric.add_tag") == _count(module, "fabric.del_tag") == 0
    ext = next(op for op in module.walk() if op.name == "fabric.extmemory")
    assert [str(v.type) for v in ext.operands] == ["memref<?xi64>", B, B, B]


def _module_op(module) -> Operation:
    return next(op for op in module.walk() if op.name == "fabric.module")


def test_write_sets_viz_file_and_writes_loom_sidecar(tmp_path):
    b = _chess_1x1()
    mlir, viz = b.write(tmp_path, "tiny")
    assert (mlir.name, viz.name) == ("tiny.fabric.mlir", "tiny.fabric.viz.json")
    text = mlir.read_text()
    assert round_trips(text)
    parsed = parse(text, str(mlir))
    assert _module_op(parsed.module).attributes["viz_file"].data == viz.name
    doc = json.loads(viz.read_text())
    # LOOM's sidecar (ADGBuilderViz.cpp): version, the two label arrays, components, routes.
    assert list(doc) == ["version", "moduleInputLabels", "moduleOutputLabels", "components",
                         "routes"]
    assert doc["version"] == 1
    assert doc["moduleInputLabels"] == ["a: bits<64>"] and doc["moduleOutputLabels"] == ["r: bits<64>"]
    comps = {c["name"]: c for c in doc["components"]}
    assert set(comps) == {"sw_0_0", "sw_0_1", "sw_1_0", "sw_1_1", "pe_0_0"}
    assert comps["pe_0_0"]["kind"] == "spatial_pe" and comps["sw_1_0"]["kind"] == "spatial_sw"
    assert (comps["sw_1_0"]["grid_row"], comps["sw_1_0"]["grid_col"]) == (1, 0)
    for c in comps.values():
        assert {"center_x", "center_y", "width", "height"} <= set(c)
    # one route per wire: 4 switch links and 4 PE links both ways, plus the two module ports
    assert len(doc["routes"]) == 8 + 8 + 2
    route = next(r for r in doc["routes"] if r["from"] == "module_in")
    assert (route["from_port"], route["to"], route["to_port"]) == (0, "sw_0_0", 3)
    assert all(set(p) == {"x", "y"} for r in doc["routes"] for p in r["points"])


def test_unplaced_nodes_do_not_overlap(tmp_path):
    _, viz = _memory_hub(ExtMemorySpec("extmem_0", ld=2, st=1)).write(tmp_path)
    centers = [(c["center_x"], c["center_y"]) for c in json.loads(viz.read_text())["components"]]
    assert len(set(centers)) == len(centers)


def test_unwritable_directory_is_one_line(tmp_path):
    blocker = tmp_path / "file"
    blocker.write_text("")
    with pytest.raises(LoomError) as info:
        _chess_1x1().write(blocker / "sub")
    assert info.value.message.startswith("cannot write the ADG:")


def test_pe_needs_units_with_distinct_names():
    b = AdgBuilder("x")
    with pytest.raises(LoomError, match="at least one function unit"):
        b.define_pe("pe", 1, 1, 64, [])
    unit = fu.binary("u", "arith.addi", "i64")
    with pytest.raises(LoomError, match="function unit names repeat"):
        b.define_pe("pe", 2, 1, 64, [unit, unit])
    assert bits(8) == "!fabric.bits<8>"


def test_fifo_map_tag_and_on_chip_memory():
    b = AdgBuilder("misc")
    t1 = "!fabric.tagged<!fabric.bits<64>, i1>"
    t2 = "!fabric.tagged<!fabric.bits<64>, i2>"
    sw = b.define_switch("sw", 4, 4, 64)
    b.instance(sw, "sw_0")
    b.connect(b.add_input("a", B), PortRef("sw_0", 3))
    fifo = b.fifo("fifo_0", B, 2, bypassable=True)
    b.connect(PortRef("sw_0", 3), PortRef(fifo.name, 0))
    tag = b.add_tag(B, t1, 1)
    b.connect(PortRef(fifo.name, 0), PortRef(tag.name, 0))
    remap = b.map_tag(t1, t2, [(True, 1, 3), (False, 0, 0)])
    b.connect(PortRef(tag.name, 0), PortRef(remap.name, 0))
    drop = b.del_tag(t2, B)
    b.connect(PortRef(remap.name, 0), PortRef(drop.name, 0))
    b.connect(PortRef(drop.name, 0), b.add_output("o", B))
    from loom.fabric.memory_bridge import attach_memory
    attach_memory(b, ExtMemorySpec("memory_0", ld=1, st=1, memref_type="memref<256xi64>"),
                  [PortRef("sw_0", k) for k in range(3)], [PortRef("sw_0", k) for k in range(3)])
    text = b.emit()
    assert "fabric.fifo @fifo_0 [depth = 2, bypassable] (" in text
    assert ("fabric.map_tag %v2 [table_size = 2 : i64] attributes {table = [[1 : i64, 1 : i64, "
            "3 : i64], [0 : i64, 0 : i64, 0 : i64]]}") in text
    assert ("fabric.memory @memory_0 [ldCount = 1, stCount = 1, lsqDepth = 0, "
            "memrefType = memref<256xi64>, numRegion = 1] (") in text
    module = b.build()
    from loom.fabric.config_layout import fabric_layout
    kinds = [s.kind for s in fabric_layout(adg_view(module)).slices]
    assert kinds == ["spatial_sw", "fifo", "add_tag", "map_tag", "memory"]
    assert round_trips(text)
