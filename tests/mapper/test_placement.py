"""Placement and routing on hand-worked cases and on LOOM's unit cases.

The hand-worked ADG is test_adg_graph's: module inputs 0, 1 (ports); sw_0
inputs 2, 3, outputs 4, 5 (input 0 reaches output 0 only, input 1 both);
fu_add inputs 6, 7 and output 8; fu_mul 9, 10 and 11; module output 12.
"""

from __future__ import annotations

import random

from loom.ir import parse
from loom.lowering.dfg_input import normalize_module
from loom.mapper.annealing import anneal
from loom.mapper.mapping import map_dfg
from loom.mapper.placement import build_problem, construct, total_cost
from loom.mapper.dfg_graph import dfg_graph
from loom.fabric.adg_view import adg_view
from tests.lowering.test_dfg_input import _mirror_file, needs_mirror
from tests.mapper.test_precheck import kernel_func

ADD = """\
module {
  handshake.func @k(%a: i32, %b: i32) -> (i32) {
    %s = arith.addi %a, %b : i32
    return %s : i32
  }
}
"""


def _body(text: str):
    parsed = parse(text, "k.dfg.mlir")
    normalize_module(parsed.module, "k.dfg.mlir")
    func = next(op for op in parsed.module.walk() if op.name == "handshake.func")
    return func.regions[0].block


def _adg_module():
    from tests.mapper.test_adg_graph import ADG
    return parse(ADG, "a.fabric.mlir").module


def test_hand_worked_add_places_and_routes_as_derived_by_hand():
    # a, b bind first-fit to module inputs 0, 1; the add has one host
    # (fu_add); a reaches fu_add's input 0 through sw input 0 -> output 0
    # (its only route), b its input 1 through sw input 1 -> output 1
    m = map_dfg(_body(ADD), adg_view(_adg_module()), seed=0)
    assert m.ok
    g = m.adg
    assert [g.nodes[o.hw_node].name for o in m.placement.chosen] == [
        "module_in_0", "module_in_1", "fu_add", "module_out_0"]
    assert m.paths == [[0, 2, 4, 6], [1, 3, 5, 7], [8, 12]]


def test_a_value_on_both_inputs_of_one_unit_needs_a_switch_broadcast():
    # muli(b, b): b enters sw input 1 and branches there to outputs 0 and 1
    # (PE inputs 0 and 1); a PE input never feeds two unit inputs
    text = ADD.replace("arith.addi %a, %b", "arith.muli %b, %b")
    m = map_dfg(_body(text), adg_view(_adg_module()), seed=0)
    assert m.ok
    assert m.paths[:2] == [[1, 3, 4, 9], [1, 3, 5, 10]]  # a is unused: no edge
    # muli(a, a): a reaches only switch output 0, so its second use is unroutable
    m = map_dfg(_body(ADD.replace("arith.addi %a, %b", "arith.muli %a, %a")),
                adg_view(_adg_module()), seed=0)
    assert not m.ok and None in m.paths


def test_annealing_never_ends_worse_than_the_constructive_placement():
    from loom.fabric.presets import preset
    from loom.mapper.adg_graph import flatten
    text = """\
module {
  handshake.func @k(%a: i64, %b: i64, %c: i64) -> (i64) {
    %s = arith.addi %a, %b : i64
    %t = arith.subi %s, %c : i64
    %u = arith.xori %t, %a : i64
    %v = arith.addi %u, %s : i64
    return %v : i64
  }
}
"""
    module = preset("chess-4x4").build()
    problem = build_problem(dfg_graph(_body(text)), flatten(adg_view(module)), adg_view(module))
    rng = random.Random(5)
    first = construct(problem, rng)
    before = total_cost(problem, first)
    after = total_cost(problem, anneal(problem, first, rng))
    assert after <= before
    assert all(o is not None for o in first.chosen)


@needs_mirror
def test_loom_unit_cases_map_and_same_seed_gives_same_result(tmp_path):
    # LOOM's own mapping cases (tests/unit/<case>/{dfg,fabric}.mlir) map
    for case in ("sw1-pe1", "function-unit-configs", "dataflow-flowops", "dataflow-invariant",
                 "spatial-pe-disable", "sw2-pe1-extmem1", "memory-loadstore"):
        dfg = _body(_mirror_file(f"tests/unit/{case}/dfg.mlir"))
        adg = adg_view(parse(_mirror_file(f"tests/unit/{case}/fabric.mlir"), "f.mlir").module)
        first = map_dfg(dfg, adg, seed=7)
        assert first.ok, case
        again = map_dfg(dfg, adg, seed=7)
        assert again.paths == first.paths
        assert again.placement.chosen == first.placement.chosen


@needs_mirror
def test_loom_invalid_cases_do_not_map():
    # LOOM's expect-fail cases: two ops, one PE (C8); a route through a
    # unit (C10); a unit output fanning out without a switch (C11)
    for case in ("spatial-pe-exclusive-invalid", "pe-transit-invalid",
                 "non-switch-broadcast-invalid"):
        dfg = _body(_mirror_file(f"tests/unit/{case}/dfg.mlir"))
        adg = adg_view(parse(_mirror_file(f"tests/unit/{case}/fabric.mlir"), "f.mlir").module)
        assert not map_dfg(dfg, adg, seed=0).ok, case


def test_a_tagged_lane_is_estimated_to_its_own_bridge_end(tmp_path):
    # clamp stores to `out` from three places: three store lanes of one
    # tagged extmemory, each entering the fabric through its own add_tag on
    # its own side switch (presets.py deals them along the side); a store's
    # route estimate runs to its lane's add_tag, not to the nearest lane
    from loom.fabric.presets import preset
    from loom.mapper.adg_graph import flatten
    from loom.mapper.placement import Placement, edge_cost, memory_lanes

    name = "chess-8x8-ext6x6s3"
    module = preset(name).build()
    func = kernel_func("clamp", tmp_path)
    problem = build_problem(dfg_graph(func.regions[0].block), flatten(adg_view(module)), adg_view(module))
    sw, adg = problem.sw, problem.adg
    memory = next(n.id for n in sw.nodes if n.kind == "memory" and memory_lanes(n.op)[1] == 3)
    into = [e for e in sw.edges if e.dst == memory and not e.is_memref]
    option = problem.options[memory][0]
    placement = Placement.empty(len(sw.nodes))
    placement.assign(memory, option)
    pe = next(o for o in problem.options[into[0].src] if o.site == "pe:pe_0_1")
    costs = set()
    for e in into:
        placement.chosen[e.src] = pe
        port = option.in_port(e.dst_index)
        bridge_end = adg.ports[port].node
        assert adg.nodes[bridge_end].kind == "add_tag"
        lane = problem.distances.between("pe:pe_0_1", f"node:{bridge_end}")
        assert edge_cost(problem, placement, e.id) == lane
        costs.add(lane)
        placement.chosen[e.src] = None
    assert len(costs) > 1  # the lanes sit at different distances from pe_0_1


def test_an_untagged_lane_is_estimated_to_its_own_boundary_switch(tmp_path):
    # chess-8x8-ext2: an untagged extmemory's load and store lanes are wired
    # straight to two boundary switches of its side (lane_ring.py); a route
    # to a lane ends at its switch, so the estimate runs there, not to the
    # memory's nearest port (dot's load lane was four rows past it)
    from loom.fabric.presets import preset
    from loom.mapper.adg_graph import flatten
    from loom.mapper.bridges import port_links
    from loom.mapper.placement import Placement, edge_cost, memory_lanes

    module = preset("chess-8x8-ext2").build()
    view = adg_view(module)
    func = kernel_func("while_sum", tmp_path)   # loads and stores one array
    problem = build_problem(dfg_graph(func.regions[0].block), flatten(view), view)
    sw, adg = problem.sw, problem.adg
    feeders, _ = port_links(adg)
    memory = next(n.id for n in sw.nodes if n.kind == "memory" and memory_lanes(n.op) == (1, 1))
    into = [e for e in sw.edges if e.dst == memory and not e.is_memref]
    option = problem.options[memory][0]
    placement = Placement.empty(len(sw.nodes))
    placement.assign(memory, option)
    switches = set()
    for e in into:
        src = next(o for o in problem.options[e.src] if o.site == "pe:pe_0_1")
        placement.chosen[e.src] = src
        port = option.in_port(e.dst_index)
        assert adg.nodes[adg.ports[port].node].kind == "extmemory"   # no bridge
        (wire,) = feeders[port]
        switch = adg.ports[wire].node
        assert adg.nodes[switch].kind == "spatial_sw"
        assert edge_cost(problem, placement, e.id) == problem.distances.between(
            "pe:pe_0_1", f"node:{switch}")
        switches.add(switch)
        placement.chosen[e.src] = None
    assert len(switches) == 2   # the load lane's switch and the store lane's
