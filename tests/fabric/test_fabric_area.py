"""bench/fabric_area.py on a small fabric: a row per distinct component module
with its instance count, then the whole top; the top is at least as large as
its components together (Yosys flattens the same modules), and a second run
reads the cache."""

import sys
from pathlib import Path

import pytest

from tb.fabric_runner import load_adg
from loom.fabric.rtl.top import fabric_rtl

pytestmark = pytest.mark.rtl
sys.path.insert(0, str(Path(__file__).resolve().parents[2] / "bench"))

ADG = """
module {
  fabric.module @area(%a: !fabric.bits<8>, %b: !fabric.bits<8>) -> (!fabric.bits<8>, !fabric.bits<8>) {
    %x:2 = fabric.spatial_sw @s0 [connectivity_table = ["11", "11"]] (%a, %b)
        : (!fabric.bits<8>, !fabric.bits<8>) -> (!fabric.bits<8>, !fabric.bits<8>)
    %y:2 = fabric.spatial_sw @s1 [connectivity_table = ["11", "11"]] (%x#0, %x#1)
        : (!fabric.bits<8>, !fabric.bits<8>) -> (!fabric.bits<8>, !fabric.bits<8>)
    fabric.yield %y#0, %y#1 : !fabric.bits<8>, !fabric.bits<8>
  }
}
"""


def test_rows_per_component_then_top(tmp_path):
    from fabric_area import Synth, fabric_area
    rtl = fabric_rtl(load_adg(ADG), "area")
    synth = Synth(tmp_path, None)
    rows = fabric_area("area", rtl, synth)
    assert [(r.what, r.count) for r in rows] == [("spatial_sw s0", 2), (f"top {rtl.top}", 1)]
    switch, top = rows
    assert 0 < 2 * switch.cells <= top.cells and 0 < 2 * switch.ffs <= top.ffs
    assert fabric_area("area", rtl, Synth(tmp_path, None)) == rows   # from the cache
