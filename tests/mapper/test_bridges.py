"""Memory bridges as LOOM draws them (mapper/bridges.py): LOOM's tagged
memory cases (PolyArch/loom tests/unit, read from the mirror) through
`loom map`, checked by LOOM's own check.py where the case has one, and the
route tables and regions derived by hand from the case's fabric.mlir."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from loom.cli import main
from tb.config_decode import decoded_fields
from tests.lowering.test_dfg_input import needs_mirror
from tests.mapper.loom_cases import map_case as _map, run_check

CHECKED = [f"{k}-tagged-{c}" for k in ("extmemory", "memory")
           for c in ("map-hierarchy", "map-width-distinct", "egress-width")]
"""Lanes rewritten by map_tag (request side, response side or both), merged
through a tree of switches, tag widths adapted on the way."""


def _decoded(out: Path, capsys) -> dict[str, dict[str, int]]:
    return decoded_fields(out / "dfg.fabric.config.bin", out / "fabric.mlir", capsys, out / "adg")


@needs_mirror
@pytest.mark.parametrize("case", CHECKED)
def test_loom_tagged_memory_cases_map_and_pass_loom_checks(tmp_path, case):
    assert _map(case, tmp_path) == 0
    run_check(case, tmp_path)


@needs_mirror
def test_a_temporal_switch_merges_two_load_lanes(tmp_path, capsys):
    # extmemory-dual-load: pe_0's address enters add_tag 0, pe_1's add_tag 1;
    # the temporal switch tsw_0 merges them (one route-table slot per tag:
    # tag 0 from input 0, tag 1 from input 1) into the memory's one tagged
    # port; tsw_1 (data) and tsw_2 (done) split tag k to output k, the
    # del_tag of pe_k's lane; the region spans tags [0, 2)
    assert _map("extmemory-dual-load", tmp_path) == 0
    f = _decoded(tmp_path, capsys)
    merge = {"slot0.valid": 1, "slot0.tag": 0, "slot0.route.o0.i0": 1, "slot0.route.o0.i1": 0,
             "slot1.valid": 1, "slot1.tag": 1, "slot1.route.o0.i0": 0, "slot1.route.o0.i1": 1}
    split = {"slot0.valid": 1, "slot0.tag": 0, "slot0.route.o0.i0": 1, "slot0.route.o1.i0": 0,
             "slot1.valid": 1, "slot1.tag": 1, "slot1.route.o0.i0": 0, "slot1.route.o1.i0": 1}
    assert f["tsw_0"] == merge and f["tsw_1"] == split and f["tsw_2"] == split
    assert (f["extmem_0"]["region0.start_lane"], f["extmem_0"]["region0.end_lane"]) == (0, 2)


@needs_mirror
def test_request_map_tags_keep_the_lanes_the_memory_answers_on(tmp_path, capsys):
    # extmemory-tagged-map-width-distinct: both lanes add tag 0; map_tag_0
    # (table [1, 0]) makes pe_0's 1, map_tag_1 ([2, 0]) pe_1's 2, distinct on
    # the shared switch sw_0. The memory answers on its logical lanes, 0 for
    # pe_0 (the lower tag) and 1 for pe_1: the response splits send tag 0 to
    # output 0 and tag 1 to output 1 (LOOM's check.py asks the same of tsw_0),
    # and the region spans lanes [0, 2)
    assert _map("extmemory-tagged-map-width-distinct", tmp_path) == 0
    f = _decoded(tmp_path, capsys)
    assert (f["extmem_0"]["region0.start_lane"], f["extmem_0"]["region0.end_lane"]) == (0, 2)
    assert {k: v for k, v in f["sw_0"].items() if v} == {"route.o0.i0": 1, "route.o0.i1": 1}
    for split in ("tsw_0", "tsw_1"):
        assert {k: v for k, v in f[split].items() if v} == {
            "slot0.valid": 1, "slot0.route.o0.i0": 1,
            "slot1.valid": 1, "slot1.tag": 1, "slot1.route.o1.i0": 1}


@needs_mirror
def test_response_map_tags_rewrite_the_tags_the_splits_route(tmp_path, capsys):
    # extmemory-tagged-map-hierarchy: the memory answers lane k with tag k and
    # map_tag [1, 0] swaps them before the splits, so the split sends tag 1
    # to output 0 (lane 0: pe_0's del_tag) and tag 0 to output 1
    assert _map("extmemory-tagged-map-hierarchy", tmp_path) == 0
    f = _decoded(tmp_path, capsys)
    for split in ("tsw_0", "tsw_1"):
        assert {k: v for k, v in f[split].items() if v} == {
            "slot0.valid": 1, "slot0.route.o1.i0": 1,
            "slot1.valid": 1, "slot1.tag": 1, "slot1.route.o0.i0": 1}


@needs_mirror
@pytest.mark.parametrize("case", ["extmemory-dual-store", "memory-dual-loadstore"])
def test_loom_dual_lane_cases_map(tmp_path, case):
    # two stores (two loads and two stores) of one software memory on one
    # hardware memory's tagged families, merged by temporal switches
    assert _map(case, tmp_path) == 0


@needs_mirror
@pytest.mark.parametrize("case", [f"{k}-tagged-{c}-collide" for k in ("extmemory", "memory")
                                  for c in ("map-width", "egress-width")])
def test_a_tag_too_wide_for_a_port_is_refused(tmp_path, capsys, case):
    # LOOM refuses these: a map_tag (request side) or the memory (response
    # side) puts tag 9 where a later port's tag has 3 bits, and a width
    # adaptation truncates, it does not rewrite (9 would meet 1 as 1)
    assert _map(case, tmp_path) == 2
    (line,) = capsys.readouterr().err.strip().splitlines()
    assert "error: C3: edge" in line and "carries tag 9 through hw_port" in line \
        and "whose tag has 3 bits" in line


@needs_mirror
def test_two_software_memories_share_a_memory_of_two_regions(tmp_path):
    # multi-extmemory: extmem_0 has numRegion = 2 and two tagged load lanes
    # (pe_0's addresses enter add_tag 0, pe_1's add_tag 1); the kernel loads
    # from two memrefs, one extmemory each. Both bind to extmem_0, a region
    # and a lane each: region k spans lanes [k, k + 1), extmemory offset 0
    # (the host patches it), i32 elements (log2 4 = 2), and each memory's
    # load runs on the PE whose lane its region holds
    assert _map("multi-extmemory", tmp_path) == 0
    mapping = json.loads((tmp_path / "dfg.fabric.map.json").read_text())
    (memory,) = mapping["memory_regions"]
    assert memory["addr_offset_table"] == [1, 0, 1, 0, 2, 1, 1, 2, 0, 2]
    pe_of = {n["sw_node"]: n["pe_name"] for n in mapping["node_mappings"]}
    # DFG nodes: 6 and 7 the loads of memif0 (node 8) and memif1 (node 9)
    for load, mem in ((6, 8), (7, 9)):
        (region,) = [r for r in memory["regions"] if r["sw_node"] == mem]
        assert pe_of[load] == f"pe_{region['start_lane']}"


@needs_mirror
@pytest.mark.parametrize("case", ["multi-extmemory-store", "mixed-extmemory-loadstore",
                                  "multi-memory"])
def test_loom_shared_memory_cases_map(tmp_path, case):
    # two stores, a load and a store, two on-chip loads: one hardware memory
    # of two regions each; the regions' lanes never overlap
    assert _map(case, tmp_path) == 0
    mapping = json.loads((tmp_path / "dfg.fabric.map.json").read_text())
    (memory,) = mapping["memory_regions"]
    first, second = memory["regions"]
    assert first["end_lane"] <= second["start_lane"]


@needs_mirror
def test_no_more_software_memories_than_regions(tmp_path, capsys):
    # multi-extmemory's fabric with numRegion = 1: its two load lanes could
    # carry both memories' loads, but one region holds one software memory
    assert _map("multi-extmemory", tmp_path) == 0
    capsys.readouterr()
    fabric = tmp_path / "fabric.mlir"
    fabric.write_text(fabric.read_text().replace("numRegion = 2", "numRegion = 1"))
    assert main(["map", str(tmp_path / "dfg.mlir"), "--adg", str(fabric), "-o",
                 str(tmp_path / "one"), "--no-progress"]) == 2
    (line,) = capsys.readouterr().err.strip().splitlines()
    assert "error: C1: " in line and "has 1 memory that can host it and the kernel has 2 ops" \
        in line


DIRECT = ["memory-tagged-direct-boundary", "extmemory-tagged-direct-boundary"]
"""A temporal PE's two load slots wired to a tagged memory without bridges:
the address leaves the PE for a merging spatial switch, the data returns
through a temporal switch straight to a PE input."""


@needs_mirror
@pytest.mark.parametrize("case", DIRECT)
def test_lanes_a_temporal_pe_takes_without_a_bridge(tmp_path, capsys, case):
    # read from the case's fabric.mlir: idx0 and ctrl0 enter with tag 0 (PE
    # inputs 0 and 1), the data of lane 0 arrives on input 2 (tsw_0 output
    # 0); lane 1's on inputs 3, 4 and 5. The load of tag 0 takes lane 0:
    # its address leaves by PE output 1 (sw_0 input 0), its data by output
    # 0; tag 1's by outputs 3 and 2. A load's unit ports: (addr, data, ctrl)
    # -> (data, addr)
    assert _map(case, tmp_path) == 0
    run_check(case, tmp_path)
    tpe = _decoded(tmp_path, capsys)["tpe_0"]
    slots = {tpe[f"insn{s}.tag"]: s for s in (0, 1) if tpe[f"insn{s}.valid"]}
    assert sorted(slots) == [0, 1]
    for tag, (ins, outs) in {0: ((0, 2, 1), (0, 1)), 1: ((3, 5, 4), (2, 3))}.items():
        s = slots[tag]
        assert tuple(tpe[f"insn{s}.in{k}.sel"] for k in range(3)) == ins
        assert tuple(tpe[f"insn{s}.out{k}.sel"] for k in range(2)) == outs
        assert all(tpe[f"insn{s}.result{k}.tag"] == tag for k in range(2))


@needs_mirror
def test_the_mapper_sets_the_tags_of_add_tags_before_a_temporal_pe(tmp_path, capsys):
    # the same ADG with the boundary tags swapped: load 0's address and
    # control add_tags say tag 1, but its lane (0, the memory's first port)
    # answers with tag 0. Those add_tags drive the temporal PE, so their tag
    # is the mapper's (mapper/temporal_slots.py; LOOM, copying the ADG's
    # tags, refuses the swapped file): each slot keeps its lane's tag and
    # the add_tags before it get that tag, whatever the file says
    case = DIRECT[0]
    assert _map(case, tmp_path) == 0
    swapped = tmp_path / "swapped"
    swapped.mkdir()
    text = (tmp_path / "fabric.mlir").read_text()
    for name in ("idx", "ctrl"):
        text = (text.replace(f"%{name}0 {{tag = 0", f"%{name}0 {{tag = 9")
                .replace(f"%{name}1 {{tag = 1", f"%{name}1 {{tag = 0")
                .replace(f"%{name}0 {{tag = 9", f"%{name}0 {{tag = 1"))
    assert text.count("{tag = 1") == 2 and "%idx0 {tag = 1" in text
    (swapped / "fabric.mlir").write_text(text)
    (swapped / "dfg.mlir").write_text((tmp_path / "dfg.mlir").read_text())
    assert main(["map", str(swapped / "dfg.mlir"), "--adg", str(swapped / "fabric.mlir"),
                 "-o", str(swapped), "--no-progress"]) == 0
    fields = _decoded(swapped, capsys)
    tpe = fields["tpe_0"]
    slots = {tpe[f"insn{s}.tag"]: s for s in (0, 1) if tpe[f"insn{s}.valid"]}
    assert sorted(slots) == [0, 1]
    assert tuple(tpe[f"insn{slots[0]}.in{k}.sel"] for k in range(3)) == (0, 2, 1)
    # the file's add_tags in order: idx0, idx1, ctrl0, ctrl1; each gets the
    # tag of the lane its load takes, not the file's (1, 0, 1, 0)
    assert [fields[f"add_tag_{k}"]["tag"] for k in range(4)] == [0, 1, 0, 1]


@needs_mirror
def test_two_flows_whose_tags_meet_leave_an_edge_unrouted_as_in_loom(tmp_path, capsys):
    # tagged-runtime-tag-collide: a enters with tag 1, b with tag 9; map_tag
    # folds 9 onto 1 (table[9] = 1) before the temporal split, so both flows
    # would carry tag 1 through map_tag_0's output. LOOM's expect-fail.txt:
    # "C3: unrouted edge"; its distinct-tag twin maps
    assert _map("tagged-runtime-tag-collide", tmp_path) == 2
    (line,) = capsys.readouterr().err.strip().splitlines()
    assert "error: C3: unrouted edge" in line and "(tag 1)" in line
    distinct = tmp_path / "distinct"
    distinct.mkdir()
    assert _map("tagged-runtime-tag-distinct", distinct) == 0
