"""The smallest preset for a set of kernels (mapper/preset_fit.py, `loom adg
--for`), against what the kernels' C sources and the preset grammar say:
sum_n has more ops than a 4x4 has PEs, dot reads two arrays, vecadd three
(a, b, c), and the presets come smallest first (`loom adg --list`)."""

from __future__ import annotations

from pathlib import Path

from loom.cli import main
from loom.fabric.presets import presets
from loom.inputs import KernelSource
from loom.mapper.preset_fit import fit_presets

REMF = """\
module {
  handshake.func @remf(%a: f32, %b: f32) -> (f32) {
    %c = arith.remf %a, %b : f32
    return %c : f32
  }
}
"""
"""A float remainder: no preset has its unit (the float preset's stop at cmpf)."""


def test_the_first_preset_with_three_memories_and_enough_pes_maps_all(tmp_path):
    sources = [KernelSource(k, out_dir=tmp_path / k) for k in ("sum_n", "dot", "vecadd")]
    fit = fit_presets(sources)
    names = [p.name for p in presets()]
    # the first 8x8 with three extmemories or more: chess-8x8-ext4
    assert fit.name == "chess-8x8-ext4"
    assert [p.preset for p in fit.passed_over] == names[:names.index("chess-8x8-ext4")]
    stopped = {p.preset: (p.kernel, p.reason.message) for p in fit.passed_over}
    assert stopped["chess-4x4-ext2"][0] == "sum_n"            # 19 ops, 16 PEs
    assert stopped["chess-8x8-ext1"][0] == "dot"              # two arrays, one memory
    kernel, why = stopped["chess-8x8-ext2"]                   # three arrays, two memories
    assert kernel == "vecadd" and why.startswith("C1:") and "3 ops that need one" in why
    assert fit.view is not None
    shares = {p.compiled.inputs.name: p.line(fit.view) for p in fit.placed}
    assert ", 1 of 4 memories," in shares["sum_n"]
    assert ", 2 of 4 memories," in shares["dot"]
    assert ", 3 of 4 memories," in shares["vecadd"]
    assert all(" of 64 PEs," in line for line in shares.values())


def test_for_file_reads_names_and_comments(tmp_path, capsys):
    names = tmp_path / "kernels.txt"
    names.write_text("# the bench's two smallest\nsum_n\n\ndot   # two arrays\n")
    assert main(["adg", "--for-file", str(names), "-o", str(tmp_path / "o"),
                 "--no-progress"]) == 0
    out = capsys.readouterr().out.splitlines()
    # sum_n needs 17 PEs of a spatial mesh, more than a 4x4 has: the 4x4 of
    # temporal ALU PEs after the spatial 4x4s hosts both
    assert "adg: chess-4x4-ext2-tpe4 maps all 2 kernel(s)" in out
    assert [line.split()[0] for line in out[-2:]] == ["sum_n", "dot"]


def test_no_preset_maps_every_kernel_in_one_line(tmp_path, capsys):
    dfg = tmp_path / "remf.dfg.mlir"
    dfg.write_text(REMF)
    assert main(["adg", "--for", f"sum_n,{dfg}", "-o", str(tmp_path / "o"),
                 "--no-progress"]) == 2
    (line,) = capsys.readouterr().err.strip().splitlines()
    largest = presets()[-1].name
    assert f"error: loom adg --for: no preset maps every kernel; on the largest, {largest}, " \
           f"remf: C1: no function unit in {largest} can host arith.remf" in line
    assert line.startswith(str(dfg))   # a .dfg.mlir is mapped as it is


def test_for_without_kernels_is_refused(tmp_path, capsys):
    assert main(["adg", "--for", ",", "--no-progress"]) == 2
    assert "loom adg --for: no kernel named" in capsys.readouterr().err
    assert not Path("gen/adg-for/,").exists()


def test_for_with_a_preset_is_refused(tmp_path, capsys):
    assert main(["adg", "chess-2x2", "--for", "sum_n", "--no-progress"]) == 2
    assert "--for and --for-file take no preset" in capsys.readouterr().err
