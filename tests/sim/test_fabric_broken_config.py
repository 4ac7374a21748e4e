"""The fabric checker catches a broken configuration (issue 14): a kernel's
config words, corrupted field by field through the layout (the fields
`loom config decode` shows), must fail the per-edge check with the first
divergence on the DFG edge the corruption breaks. Which edge that is comes
from the map (the mapper's DFG and switch routes), the expected and wrong
values from the C source; nothing is copied from the checker's output.

One small kernel on the smallest preset it maps onto (chess-4x4): one
fabric build (about 45 s) serves every case."""

from __future__ import annotations

import re
from dataclasses import replace

import pytest

from loom.fabric.config_layout import CMPI_PREDICATES
from loom.sim import fabric_flow, profiles
from loom.sim.fabric_flow import FabricResult, FabricSetup
from tb.fabric_runner import mapped_c_kernel

PRESET = "chess-4x4"
# one worker runs the module: the fixture maps and builds once
pytestmark = [pytest.mark.rtl, pytest.mark.xdist_group(PRESET)]
KERNEL = """\
int tiny(int a, int b) {
  int d = a < b ? b - a : a - b;
  return d * 3 + 5;
}

int main(void) {
  tiny(3, 11);
  tiny(20, 7);
  return 0;
}
"""
A, B = 3, 11
"""Invocation 0's arguments (main's first call)."""
M32 = (1 << 32) - 1


@pytest.fixture(scope="module")
def fabric(tmp_path_factory) -> FabricSetup:
    return mapped_c_kernel(KERNEL, "tiny", PRESET, tmp_path_factory.mktemp("broken"))


def _result(s: FabricSetup, values: dict[str, dict[str, int]]) -> FabricResult:
    """A run on the config `values` (decoded slice fields)."""
    result = fabric_flow.run(replace(s, words=s.rtl.layout.encode(values)),
                             profiles.for_seed(1))
    assert result.passed == (not result.problems)
    assert result.report["status"] == ("pass" if result.passed else "fail")
    return result


def _run(s: FabricSetup, values: dict[str, dict[str, int]]) -> list[str]:
    """The problems of a run on the config `values`."""
    return _result(s, values).problems


def _first_edge(problems: list[str]) -> tuple[int, str]:
    """(DFG edge, the rest of the line) of the reported first divergence."""
    found = [re.match(r"first divergence on DFG edge (\d+) (.*)", p) for p in problems]
    hits = [m for m in found if m]
    assert len(hits) == 1, problems
    return int(hits[0].group(1)), hits[0].group(2)


def _decoded(s: FabricSetup) -> dict[str, dict[str, int]]:
    values = s.rtl.layout.decode(s.words)
    assert s.rtl.layout.encode(values) == s.words   # the layout round-trips the config
    return values


def _node(s: FabricSetup, op_name: str, k: int = 0) -> int:
    """The k-th DFG node running `op_name` (map.txt's DFG[n])."""
    return [n.id for n in s.mapped.mapping.sw.nodes if n.op_name == op_name][k]


def _pe(s: FabricSetup, node: int) -> str:
    """The PE that runs `node` (its host's, when a unit holds it folded)."""
    m = s.mapped.mapping
    chosen = m.option_of(node)
    assert chosen is not None
    return m.adg.nodes[chosen.hw_node].pe


def _field(s: FabricSetup, node: int, kind: str) -> str:
    """The payload field of kind `kind` (constant_value, cmpi_predicate) of
    the unit that runs `node`: the PE slice's layout of its opcode."""
    option = s.mapped.mapping.option_of(node)
    assert option is not None and option.candidate is not None
    unit = s.rtl.layout.slice(_pe(s, node)).fu_layouts[option.candidate.opcode]
    (ff,) = [f for f in unit.fu_fields if f.kind == kind]
    return f"fu.{ff.op_index}.value"


def _out_edges(s: FabricSetup, node: int) -> set[int]:
    return {e.id for e in s.mapped.mapping.sw.out_edges(node)}


def _names_route(s: FabricSetup, edge: int, rest: str) -> bool:
    """The report names the switches on the edge's route (the map's path)."""
    m = s.mapped.mapping
    switches = [m.adg.nodes[m.adg.ports[p].node].name for p in m.paths[edge] or []
                if m.adg.nodes[m.adg.ports[p].node].kind == "spatial_sw"]
    every = {n.name for n in m.adg.nodes if n.kind == "spatial_sw"}
    route = rest.split("; route: ", 1)[1].split(")", 1)[0].split(", ")
    return bool(switches) and [r for r in route if r in every] == list(dict.fromkeys(switches))


def test_the_unbroken_configuration_passes_with_every_edge_observed(fabric):
    assert _run(fabric, _decoded(fabric)) == []
    routed = [e for e, path in zip(fabric.mapped.mapping.sw.edges, fabric.mapped.mapping.paths)
              if path and not e.is_memref]
    assert len(fabric.edges.probes) == len(routed) and not fabric.edges.unobserved


def test_a_wrong_constant_diverges_where_it_is_used(fabric):
    values = _decoded(fabric)
    node = _node(fabric, "handshake.constant")   # `d * 3`: the first constant
    pe, field = _pe(fabric, node), _field(fabric, node, "constant_value")
    assert values[pe][field] == 3
    values[pe][field] = 4
    edge, rest = _first_edge(_run(fabric, values))
    host = fabric.mapped.mapping.problem.host_of(node)
    assert edge in _out_edges(fabric, host)
    # on its own unit, the constant's edge carries it; folded into the
    # multiplier's unit (mapper/contraction.py), the product shows it
    d = abs(A - B)
    want, got = (3, 4) if host == node else (d * 3, d * 4)
    assert f"token 0 (invocation 0): expected {want}, got {got}" in rest
    assert "tiny.c:3:" in rest and _names_route(fabric, edge, rest)   # `d * 3`


def test_a_wrong_cmpi_predicate_diverges_on_the_compares_edge(fabric):
    values = _decoded(fabric)
    node = _node(fabric, "arith.cmpi")
    pe, field = _pe(fabric, node), _field(fabric, node, "cmpi_predicate")
    assert CMPI_PREDICATES[values[pe][field]] == "slt"
    values[pe][field] = CMPI_PREDICATES.index("sge")
    edge, rest = _first_edge(_run(fabric, values))
    assert edge in _out_edges(fabric, node)
    assert f"token 0 (invocation 0): expected {int(A < B)}, got {int(A >= B)}" in rest
    assert "tiny.c:2:" in rest and _names_route(fabric, edge, rest)   # `a < b`


def test_a_swapped_pe_input_select_diverges_on_the_subtractions_edge(fabric):
    values = _decoded(fabric)
    node = _node(fabric, "arith.subi")
    pe = _pe(fabric, node)
    cfg = values[pe]
    assert cfg["in0.sel"] != cfg["in1.sel"]
    cfg["in0.sel"], cfg["in1.sel"] = cfg["in1.sel"], cfg["in0.sel"]
    edge, rest = _first_edge(_run(fabric, values))
    assert edge in _out_edges(fabric, node)
    # the subtraction that fired gives -(its golden value): |a - b| either way
    diff = abs(A - B) if "(invocation 0)" in rest else abs(20 - 7)
    assert f"expected {diff}, got {-diff & M32}" in rest


def _crossing(s: FabricSetup) -> tuple[str, int, int, set[int]]:
    """A switch output `o` on some edges' route and another input `j` of that
    switch that carries a different value and may be routed to `o`: (switch,
    o, j, the edges routed through output o). From the map's switch routes."""
    m = s.mapped.mapping
    by_switch: dict[str, list[tuple[int, int, set[int]]]] = {}
    for e, path in zip(m.sw.edges, m.paths):
        for a, b in zip((path or [])[1::2], (path or [])[2::2]):
            node = m.adg.nodes[m.adg.ports[a].node]
            if node.kind == "spatial_sw":
                by_switch.setdefault(node.name, []).append(
                    (m.adg.ports[a].index, m.adg.ports[b].index, {e.id}))
    source = {e.id: (e.src, e.src_index) for e in m.sw.edges}
    for sw, steps in sorted(by_switch.items()):
        fields = {f.name for f in s.rtl.layout.slice(sw).fields}
        for i, o, edges in steps:
            through_o = {e for _, oo, es in steps if oo == o for e in es}
            for j, _, others in steps:
                if source[next(iter(others))] != source[next(iter(edges))] and \
                        f"route.o{o}.i{j}" in fields:
                    return sw, o, j, through_o
    raise AssertionError("no switch output another routed input can reach")


def test_a_flipped_switch_route_bit_diverges_on_the_route_it_crosses(fabric):
    values = _decoded(fabric)
    sw, o, j, edges = _crossing(fabric)
    assert values[sw][f"route.o{o}.i{j}"] == 0
    values[sw][f"route.o{o}.i{j}"] = 1
    edge, rest = _first_edge(_run(fabric, values))
    # an edge through the corrupted switch: through output o, or the one whose
    # token the merged output held back while o's next token waited at its
    # consumer (which the check does not blame: its token arrived)
    m = fabric.mapped.mapping
    crossing = {e.id for e in m.sw.edges if any(
        m.adg.nodes[m.adg.ports[p].node].name == sw for p in m.paths[e.id] or [])}
    assert edges <= crossing and edge in crossing and sw in rest


def test_a_cleared_route_bit_deadlocks_naming_the_stuck_route(fabric):
    values = _decoded(fabric)
    m = fabric.mapped.mapping
    node = _node(fabric, "arith.muli")
    (edge,) = _out_edges(fabric, node)   # d * 3 -> the addition
    path = m.paths[edge]
    assert path is not None
    a, b = next((a, b) for a, b in zip(path[1::2], path[2::2])
                if m.adg.nodes[m.adg.ports[a].node].kind == "spatial_sw")
    sw = m.adg.nodes[m.adg.ports[a].node].name
    field = f"route.o{m.adg.ports[b].index}.i{m.adg.ports[a].index}"
    assert values[sw][field] == 1
    values[sw][field] = 0
    result = _result(fabric, values)
    problems = result.problems
    assert any(p.startswith("deadlock") for p in problems), problems
    # the run's length is when the deadlock was declared, a watchdog's span
    # after the last transfer (it was the last result's cycle: 0 when none came)
    assert result.report["cycles"] > profiles.for_seed(1).watchdog
    short = next(p for p in problems if p.startswith("short of golden tokens"))
    assert f"DFG edge {edge} " in short and f"DFG edge {edge} " in problems[0]
