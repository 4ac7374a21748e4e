"""Topologies, checked on the parsed ADG against LOOM's rules (ADGBuilderTopology.cpp):
the chess mesh's links and PE(r,c)'s four corner switches, the lattice and
torus meshes' neighbour links."""

from __future__ import annotations

from collections import Counter

import pytest
from xdsl.ir import Operation

from loom.diagnostics import LoomError
from loom.fabric import function_units as fu
from loom.fabric.builder import AdgBuilder, PEDef
from loom.fabric.topology import SidePorts, chess_mesh, lattice_mesh, spread, torus_mesh

B = "!fabric.bits<64>"


def _pe(b: AdgBuilder, n: int = 4) -> PEDef:
    return b.define_pe("pe", n, n, 64, [fu.binary("fu_add", "arith.addi", "i64")])


def _close(b: AdgBuilder, mesh) -> None:
    """One module input and output on the first free boundary ports."""
    b.connect(b.add_input("a", B), mesh.ingress["top"][0])
    b.connect(mesh.egress["bottom"][0], b.add_output("r", B))


def _instances(module) -> dict[str, Operation]:
    return {op.attributes["sym_name"].data: op for op in module.walk()
            if op.name == "fabric.instance"}


def _owner(value) -> str | None:
    op = value.owner
    return op.attributes["sym_name"].data if isinstance(op, Operation) and \
        "sym_name" in op.attributes and op.name == "fabric.instance" else None


def _edges(module) -> Counter:
    """(producer instance, consumer instance) -> wires, from the parsed SSA graph."""
    edges: Counter = Counter()
    for name, op in _instances(module).items():
        for v in op.operands:
            if (src := _owner(v)) is not None:
                edges[(src, name)] += 1
    return edges


@pytest.mark.parametrize(("rows", "cols", "tracks"), [(1, 1, 1), (2, 2, 1), (2, 3, 1), (3, 2, 1),
                                                     (4, 4, 1), (2, 3, 2), (3, 3, 3)])
def test_chess_mesh_links_follow_loom(rows, cols, tracks):
    b = AdgBuilder("chess")
    mesh = chess_mesh(b, rows, cols, lambda r, c: _pe(b) if (r, c) == (0, 0) else b.pes["pe"],
                      {"top": SidePorts(inputs=[1]), "bottom": SidePorts(outputs=[1])}, tracks)
    _close(b, mesh)
    module = b.build()
    inst = _instances(module)
    pes = [n for n in inst if n.startswith("pe_")]
    sws = [n for n in inst if n.startswith("sw_")]
    assert len(pes) == rows * cols and len(sws) == (rows + 1) * (cols + 1)
    edges = _edges(module)
    sw_links = sum(k for (s, d), k in edges.items() if s.startswith("sw_") and d.startswith("sw_"))
    # (R+1) rows of C horizontal links and R rows of C+1 vertical links, both
    # directions, each `tracks` times
    assert sw_links == 2 * tracks * ((rows + 1) * cols + rows * (cols + 1))
    for (s, d), k in edges.items():
        if s.startswith("sw_") and d.startswith("sw_"):
            (r0, c0), (r1, c1) = (tuple(map(int, n.split("_")[1:])) for n in (s, d))
            assert abs(r0 - r1) + abs(c0 - c1) == 1 and k == tracks == edges[(d, s)]
    for r in range(rows):
        for c in range(cols):
            pe = inst[f"pe_{r}_{c}"]
            corners = [f"sw_{r}_{c}", f"sw_{r}_{c + 1}", f"sw_{r + 1}_{c}", f"sw_{r + 1}_{c + 1}"]
            # PE port k comes from and goes to corner k (NW, NE, SW, SE)
            assert [_owner(v) for v in pe.operands] == corners
            for k, result in enumerate(pe.results):
                assert [use.operation.attributes["sym_name"].data for use in result.uses] == [
                    corners[k]]
    # A switch has at most 4 * tracks + 4 links (4 neighbours, 4 PEs) besides boundary ports.
    for name in sws:
        op = inst[name]
        links = sum(1 for v in op.operands if _owner(v) is not None)
        r, c = map(int, name.split("_")[1:])
        neighbours = (r > 0) + (r < rows) + (c > 0) + (c < cols)
        cells = sum(0 <= pr < rows and 0 <= pc < cols for pr in (r - 1, r) for pc in (c - 1, c))
        assert links == tracks * neighbours + cells <= 4 * tracks + 4


def test_chess_mesh_port_order_is_loom_slot_order():
    # In LOOM's slot order, interior switch sw_1_1 of a 2x2 mesh takes its
    # horizontal links (to sw_1_0, sw_1_2), then vertical (sw_0_1, sw_2_1),
    # then PEs pe_0_0, pe_0_1, pe_1_0, pe_1_1 (its SE, SW, NE, NW corner).
    b = AdgBuilder("chess")
    pe = _pe(b)
    mesh = chess_mesh(b, 2, 2, lambda r, c: pe,
                      {"top": SidePorts(inputs=[1]), "bottom": SidePorts(outputs=[1])})
    _close(b, mesh)
    sw = _instances(b.build())["sw_1_1"]
    assert [_owner(v) for v in sw.operands] == [
        "sw_1_0", "sw_1_2", "sw_0_1", "sw_2_1", "pe_0_0", "pe_0_1", "pe_1_0", "pe_1_1"]


def test_a_second_track_sits_beside_the_first():
    b = AdgBuilder("chess")
    pe = _pe(b)
    mesh = chess_mesh(b, 2, 2, lambda r, c: pe,
                      {"top": SidePorts(inputs=[1]), "bottom": SidePorts(outputs=[1])}, tracks=2)
    _close(b, mesh)
    sw = _instances(b.build())["sw_1_1"]
    assert [_owner(v) for v in sw.operands] == [
        "sw_1_0", "sw_1_0", "sw_1_2", "sw_1_2", "sw_0_1", "sw_0_1", "sw_2_1", "sw_2_1",
        "pe_0_0", "pe_0_1", "pe_1_0", "pe_1_1"]


def test_a_chess_mesh_needs_a_track():
    b = AdgBuilder("chess")
    pe = _pe(b)
    with pytest.raises(LoomError, match="needs at least one track"):
        chess_mesh(b, 1, 1, lambda r, c: pe, tracks=0)


def test_boundary_ports_follow_the_links():
    b = AdgBuilder("chess")
    pe = _pe(b)
    mesh = chess_mesh(b, 1, 2, lambda r, c: pe, {
        "top": SidePorts(inputs=[0, 2]), "left": SidePorts(outputs=[1, 1]),
        "bottom": SidePorts(outputs=[1])})
    # sw_0_1: 3 neighbours + 2 PEs, so its extra inputs are ports 5 and 6; sw_1_0
    # (2 neighbours + 1 PE) has its bottom port before its left one.
    assert [(p.node, p.port) for p in mesh.ingress["top"]] == [("sw_0_1", 5), ("sw_0_1", 6)]
    assert [(p.node, p.port) for p in mesh.egress["left"]] == [("sw_0_0", 3), ("sw_1_0", 4)]
    assert [(p.node, p.port) for p in mesh.egress["bottom"]] == [("sw_1_0", 3)]
    assert mesh.ingress["right"] == []


def test_chess_mesh_needs_four_port_pes():
    b = AdgBuilder("chess")
    pe = _pe(b, 3)
    with pytest.raises(LoomError, match="needs 4 inputs and 4 outputs"):
        chess_mesh(b, 1, 1, lambda r, c: pe)


def test_side_counts_must_fit_the_side():
    b = AdgBuilder("chess")
    pe = _pe(b)
    with pytest.raises(LoomError, match="top side: 3 inputs counts for 2 switches"):
        chess_mesh(b, 1, 1, lambda r, c: pe, {"top": SidePorts(inputs=[1, 1, 1])})


@pytest.mark.parametrize("wrap", [False, True])
def test_lattice_and_torus_links(wrap):
    rows, cols = 3, 4
    b = AdgBuilder("grid")
    pe = _pe(b, 2)
    build = torus_mesh if wrap else lattice_mesh
    mesh = build(b, rows, cols, lambda r, c: pe,
                 {"top": SidePorts(inputs=[1]), "bottom": SidePorts(outputs=[1])})
    _close(b, mesh)
    module = b.build()
    edges = _edges(module)
    for r in range(rows):
        for c in range(cols):
            # every PE port sits on its own switch
            assert edges[(f"pe_{r}_{c}", f"sw_{r}_{c}")] == 2
            assert edges[(f"sw_{r}_{c}", f"pe_{r}_{c}")] == 2
            if wrap:
                for dr, dc in ((0, 1), (1, 0)):
                    other = f"sw_{(r + dr) % rows}_{(c + dc) % cols}"
                    assert edges[(f"sw_{r}_{c}", other)] == edges[(other, f"sw_{r}_{c}")] == 1
    sw_links = sum(k for (s, d), k in edges.items() if s.startswith("sw_") and d.startswith("sw_"))
    horizontal = rows * (cols if wrap else cols - 1)
    vertical = cols * (rows if wrap else rows - 1)
    assert sw_links == 2 * (horizontal + vertical)
    assert mesh.switches[2][3] == "sw_2_3" and mesh.pes[0][1] == "pe_0_1"


def test_spread_matches_loom():
    # buildSpreadSideCounts of tests/e2e/adgs/common/E2EADGs.cpp, worked by hand
    assert spread(1, 7) == [0, 0, 0, 1, 0, 0, 0]
    assert spread(4, 7) == [1, 0, 1, 0, 1, 0, 1]
    assert spread(2, 7) == [1, 0, 0, 0, 0, 0, 1]
    assert spread(5, 3) == [1, 2, 2]
    assert spread(0, 3) == [0, 0, 0]


def test_spread_past_two_rounds_stays_even():
    # LOOM clamps the extras past one per switch at the end switches, so 36
    # ports on 9 switches gave 11 to each corner switch (3 fabric inputs);
    # full rounds now go one per switch, the remainder LOOM's way (center first)
    assert spread(36, 9) == [4] * 9
    assert spread(38, 9) == [4, 4, 4, 4, 5, 5, 4, 4, 4]
    assert spread(18, 9) == [2] * 9  # as LOOM: 9 extras, one on every switch
