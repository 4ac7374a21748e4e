"""loom.fabric.adg_file: reading an ADG by file path or preset name."""

from __future__ import annotations

from loom.fabric.adg_file import load_adg


def test_a_preset_goes_by_its_canonical_name(tmp_path):
    # `-f4` spells the default input fifo depth: the same fabric as `-f`,
    # so the same file and the same build, not a second one
    adg = load_adg("chess-2x2-ext1-f4", tmp_path)
    assert adg.name == "chess-2x2-ext1-f"
    assert adg.path == tmp_path / "chess-2x2-ext1-f.fabric.mlir"
    assert sorted(p.name for p in tmp_path.iterdir()) == [
        "chess-2x2-ext1-f.fabric.mlir", "chess-2x2-ext1-f.fabric.viz.json"]


def test_a_preset_file_is_read_back_as_written(tmp_path):
    written = load_adg("chess-2x2-ext1", tmp_path)
    again = load_adg(str(written.path), tmp_path / "other")
    assert [n.name for n in again.view.nodes] == [n.name for n in written.view.nodes]
