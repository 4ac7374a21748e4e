"""The map and config artifacts against LOOM's formats: the words of LOOM's
sw1-pe1 case derived by hand from ConfigGen's layout rules, the file
framings of ConfigGenConfig.cpp, and LOOM's own tests/unit check.py
scripts run on our files (LOOM's unit runner links `dfg.<suffix>` to
`dfg.fabric.<suffix>`; viz.html is the next issue's, so its stand-in
embeds the map JSON verbatim, as LOOM's viz does)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from loom.ir import parse
from loom.mapper.artifacts import write_artifacts
from loom.mapper.config_files import read_config_bin
from loom.mapper.mapping import map_dfg
from loom.fabric.adg_view import adg_view
from tests.lowering.test_dfg_input import _mirror_file, needs_mirror
from tests.mapper.loom_cases import run_check
from tests.mapper.test_placement import _body


def _map_case(case: str, tmp_path: Path, dfg: str = "dfg"):
    body = _body(_mirror_file(f"tests/unit/{case}/{dfg}.mlir"))
    module = parse(_mirror_file(f"tests/unit/{case}/fabric.mlir"), "fabric.mlir").module
    m = map_dfg(body, adg_view(module), seed=0)
    return m, write_artifacts(m, adg_view(module), tmp_path, f"{dfg}.fabric")


@needs_mirror
def test_sw1_pe1_words_derived_by_hand(tmp_path):
    # sw_0 (5 in x 4 out, full table): bit o*5+i. a: in0->out0 (bit 0);
    # b: in1->out1 (bit 6); the sum from the PE (in3) -> out2 (bit 13); ctrl
    # in2 -> out3 (bit 17). pe_0: enable, opcode(1 bit: 2 units) = 0 (fu_add),
    # 3 input muxes of sel(1)+discard+disconnect (fu_mac has 3 inputs): in0
    # sel 0, in1 sel 1, in2 disconnect (bit 10); 2 output demuxes of
    # sel(1)+2: out0 sel 0, out1 past fu_add's arity: disconnect (bit 16);
    # payload 3 bits (fu_mac's mux) zero.
    m, written = _map_case("sw1-pe1", tmp_path)
    assert m.ok and not written.violations
    words = read_config_bin((tmp_path / "dfg.fabric.config.bin").read_bytes())
    assert words == [(1 << 0) | (1 << 6) | (1 << 13) | (1 << 17),
                     (1 << 0) | (1 << 5) | (1 << 10) | (1 << 16)]
    assert (tmp_path / "dfg.fabric.config.bin").read_bytes()[:4] == bytes([0x41, 0x20, 0x02, 0])
    header = (tmp_path / "dfg.fabric.config.h").read_text()
    assert "static const uint32_t loom_runtime_config_words[] = {\n    0x22041, 0x10421\n};" \
        in header and "loom_runtime_config_complete = 1;" in header
    config = json.loads((tmp_path / "dfg.fabric.config.json").read_text())
    assert [(s["name"], s["kind"], s["hw_node"], s["word_offset"], s["word_count"])
            for s in config["slices"]] == [("sw_0", "spatial_sw", 3, 0, 1),
                                           ("pe_0", "spatial_pe", None, 1, 1)]
    mapping = json.loads((tmp_path / "dfg.fabric.map.json").read_text())
    # LOOM's keys in LOOM's order, ours (the throughput model) after its timing
    assert list(mapping) == ["seed", "techmap", "search", "timing", "throughput",
                             "node_mappings", "edge_routings", "port_table", "switch_routes",
                             "pe_routes", "fu_configs", "tag_configs", "fifo_configs",
                             "temporal_registers", "memory_regions"]
    text = (tmp_path / "dfg.fabric.map.txt").read_text()
    assert "DFG[3] arith.addi -> ADG[4] fu_add (PE: pe_0)" in text


CHECKED = [("function-unit-configs", "dfg", "function-unit-configs"),
           ("spatial-pe-disable", "dfg", "spatial-pe-disable"),
           ("dataflow-flowops", "dfg", "dataflow-flowops"),
           ("dataflow-invariant", "dfg", "dataflow-invariant"),
           ("fifo-bypassable", "dfg", "fifo-bypassable"),
           ("map-tag", "dfg", "map-tag"),
           ("techmap", "dfg-add", "techmap-add"),
           ("techmap", "dfg-mul", "techmap-mul")]


@needs_mirror
@pytest.mark.parametrize("case,dfg,name", CHECKED)
def test_loom_check_scripts_accept_our_artifacts(tmp_path, case, dfg, name):
    m, written = _map_case(case, tmp_path, dfg)
    assert m.ok and not written.violations
    run_check(case, tmp_path, dfg, name)


@needs_mirror
@pytest.mark.parametrize("case,region", [
    # extmemory: region 0 valid, lanes [0, 1), offset 0 (the host patches
    # it), i32 elements: log2(4) = 2; memory without a memref argument:
    # offset slot 0 x 4096 (docs/loom-fabric-notes.md 4.5)
    ("sw2-pe1-extmem1", [1, 0, 1, 0, 2]),
    ("memory-loadstore", [1, 0, 1, 0, 2]),
])
def test_memory_region_tables(tmp_path, case, region):
    m, written = _map_case(case, tmp_path)
    assert m.ok and not written.violations
    mapping = json.loads((tmp_path / "dfg.fabric.map.json").read_text())
    (memory,) = mapping["memory_regions"]
    assert memory["addr_offset_table"] == region
    config = json.loads((tmp_path / "dfg.fabric.config.json").read_text())
    (s,) = [s for s in config["slices"] if s["kind"] == memory["memory_kind"]]
    assert config["words"][s["word_offset"]:s["word_offset"] + 5] == region


TWO_LOADS = """\
module {
  handshake.func @two(%mem: memref<?xi64>, %i: index, %j: index, %c0: none, %c1: none, ...)
      -> (i64, i64, none, none) {
    %d0, %a0 = load [%i] %m#0, %c0 : index, i64
    %d1, %a1 = load [%j] %m#1, %c1 : index, i64
    %m:4 = extmemory[ld = 2, st = 0] (%mem : memref<?xi64>) (%a0, %a1) {id = 0 : i32}
        : (index, index) -> (i64, i64, none, none)
    return %d0, %d1, %m#2, %m#3 : i64, i64, none, none
  }
}
"""


def test_two_load_lanes_share_a_tagged_memory_through_its_bridges(tmp_path):
    # chess-2x2-ext2x2 (fabric/memory_bridge.py): extmem_0 has 2 tagged load
    # lanes; lane k enters add_tag k (ADG tag k), both merge in a tagged
    # switch; responses split by a temporal_sw, lane k leaving by output k.
    # So: load k's address reaches the memory port through add_tag k with
    # tag k, distinct tags share the port (C4 allows it), and the temporal
    # switch holds one slot per tag, tags ascending, each routing input 0 to
    # output k; the region spans lanes [0, 2) (docs/loom-fabric-notes.md 4.5).
    from loom.fabric.presets import preset
    module = preset("chess-2x2-ext2x2").build()
    m = map_dfg(_body(TWO_LOADS), adg_view(module), seed=0)
    written = write_artifacts(m, adg_view(module), tmp_path, "two.chess-2x2-ext2x2")
    assert m.ok and written.violations == []
    g = m.adg
    mem = g.nodes[m.placement.chosen[7].hw_node]  # node 7: the extmemory (after 5 args, 2 loads)
    for k, edge in enumerate(e for e in m.sw.edges if e.dst == 7 and e.dst_index in (1, 2)):
        path = m.paths[edge.id]
        assert path[-1] == mem.inputs[1]  # ld_addr, after the memref
        tags = [g.nodes[g.ports[p].node].tag for p in path
                if g.nodes[g.ports[p].node].kind == "add_tag"]
        assert set(tags) == {k}
    values = written.config.values
    table = next(v for name, v in values.items() if name.startswith(mem.name)
                 and "slot0.valid" in v and "slot0.route.o0.i0" in v)
    assert table == {"slot0.valid": 1, "slot0.tag": 0, "slot0.route.o0.i0": 1,
                     "slot1.valid": 1, "slot1.tag": 1, "slot1.route.o1.i0": 1}
    assert [values[mem.name][f"region0.{f}"] for f in
            ("valid", "start_lane", "end_lane", "addr_offset", "elem_size_log2")] == [1, 0, 2, 0, 3]
