"""bench/fabric_area.py: hierarchical synthesis of a fabric. The top runs once
with its children as black boxes, each distinct child once alone; rows carry
Yosys's instance counts, which must match the fabric graph, and the total
(own logic plus each child times its instances) must agree with synthesizing
the same small fabric flattened whole. A second run reads the cache."""

import sys
from pathlib import Path

import pytest

from tb.fabric_runner import load_adg
from loom.fabric.presets import preset
from loom.fabric.rtl.top import fabric_rtl
from loom.rtl.gates import synthesize
from loom.fabric.adg_view import adg_view

pytestmark = pytest.mark.rtl
sys.path.insert(0, str(Path(__file__).resolve().parents[2] / "bench"))

ADG = """
module {
  fabric.module @area(%a: !fabric.bits<8>, %b: !fabric.bits<8>) -> (!fabric.bits<8>, !fabric.bits<8>) {
    %x:2 = fabric.spatial_sw @s0 [connectivity_table = ["11", "11"]] (%a, %y#1)
        : (!fabric.bits<8>, !fabric.bits<8>) -> (!fabric.bits<8>, !fabric.bits<8>)
    %y:2 = fabric.spatial_sw @s1 [connectivity_table = ["11", "11"]] (%x#0, %b)
        : (!fabric.bits<8>, !fabric.bits<8>) -> (!fabric.bits<8>, !fabric.bits<8>)
    fabric.yield %x#1, %y#0 : !fabric.bits<8>, !fabric.bits<8>
  }
}
"""


def _graph_counts(rtl) -> dict[str, int]:
    """Instances per component module, from the fabric graph (not from Yosys)."""
    counts: dict[str, int] = {}
    for _, comp in rtl.components:
        counts[comp.module] = counts.get(comp.module, 0) + 1
    return counts


def test_hierarchical_total_matches_the_flat_top(tmp_path):
    from fabric_area import Synth, fabric_area
    rtl = fabric_rtl(adg_view(load_adg(ADG)), "area")
    area = fabric_area("area", rtl, Synth(tmp_path, None))
    # the two switches share a module; a hop fifo on the one backward link
    # (s1 -> s0), none on the forward one (top.py's _hop_buffer)
    assert [(r.what, r.count) for r in area.rows] == [
        ("spatial_sw s0", 2), ("module loom_fifo_s2_w8", 1)]
    assert area.own is not None and area.own.what == f"top {rtl.top} (own logic)"
    switch, fifo = area.rows
    assert area.total.cells == area.own.cells + 2 * switch.cells + fifo.cells
    flat = synthesize(tmp_path / "area", [f"{m.name}.sv" for m in rtl.modules], rtl.top)
    # flattening may only merge logic across instances; every flip-flop stays
    assert area.total.ffs == flat.ffs
    assert flat.cells <= area.total.cells <= flat.cells * 1.05
    again = fabric_area("area", rtl, Synth(tmp_path, None))   # from the cache
    assert (again.rows, again.own, again.seconds) == (area.rows, area.own, 0.0)


def _check_preset(tmp_path: Path, name: str) -> None:
    from fabric_area import Synth, fabric_area
    rtl = fabric_rtl(adg_view(preset(name).build()), name)
    area = fabric_area(name, rtl, Synth(tmp_path, None))
    counts = {r.what: r.count for r in area.rows}
    graph = _graph_counts(rtl)
    assert sum(r.count for r in area.rows if not r.what.startswith("module ")) == \
        sum(graph.values())
    assert len([r for r in area.rows if not r.what.startswith("module ")]) == len(graph)
    assert any(r.what.startswith("spatial_pe ") for r in area.rows), counts
    assert all(r.cells > 0 for r in area.rows) and area.total.ffs > area.own.ffs > 0


@pytest.mark.slow   # about 3 minutes of Yosys, most of it the PE with eight dividers
def test_chess_2x2_synthesizes_whole(tmp_path):
    _check_preset(tmp_path, "chess-2x2")


@pytest.mark.slow   # 3 minutes each, 5 for 16x16 (its top; bench/README.md)
@pytest.mark.parametrize("name", ["chess-4x4", "chess-8x8", "chess-16x16",
                                  # PEs whose outputs leave through bypassable fifos
                                  "chess-2x2-ext1-f"])
def test_larger_presets_synthesize_whole(tmp_path, name):
    _check_preset(tmp_path, name)
