"""LOOM's DFG form as input (issue 13, item 2): parse, normalize, run.

LOOM writes `handshake.func` with a trailing `...`, `argNames/resNames`, a
bare `return`, single result types without parentheses and values with
several uses. The mirror's files are read at test time (skipped when the
mirror is absent, as in tests/dialects/test_fabric_loom.py); expected values
come from each kernel's arithmetic, not from our own output.
"""

from __future__ import annotations

import json
import os
import subprocess
from pathlib import Path

import pytest
from xdsl.dialects.builtin import MemRefType

from loom.cli import main
from loom.ir import load_module
from loom.lowering.dfg_input import load_dfg, prepare_dfg

MIRROR = Path(os.environ.get("LOOM_MIRROR", "/work/.mirror/PolyArch+loom/repo"))
HAVE_MIRROR = (MIRROR / "HEAD").exists()
needs_mirror = pytest.mark.skipif(not HAVE_MIRROR, reason=f"LOOM mirror not found at {MIRROR}")
GOLDEN_DATA = Path(__file__).parents[1] / "golden" / "data"

SQUARE = """\
module {
  handshake.func @sq(%a: i32, %b: i32, %ctrl: none, ...) -> (i32, none)
      attributes {argNames = ["a", "b", "ctrl"], resNames = ["r", "done"]} {
    %s = arith.addi %a, %b : i32
    %p = arith.muli %s, %s : i32
    %d = handshake.join %ctrl : none
    return %p, %d : i32, none
  }
}
"""


def _mirror_file(path: str) -> str:
    return subprocess.run(["git", "-C", str(MIRROR), "show", f"HEAD:{path}"], check=True,
                          capture_output=True, text=True).stdout


def _mirror_dfgs() -> list[str]:
    if not HAVE_MIRROR:
        return []
    out = subprocess.run(["git", "-C", str(MIRROR), "ls-tree", "-r", "--name-only", "HEAD"],
                         check=True, capture_output=True, text=True).stdout
    return sorted(p for p in out.split() if p.endswith("dfg.mlir"))


def _single_use(module) -> bool:
    func = next(op for op in module.ops if op.name == "handshake.func")
    body = func.regions[0].block
    values = [*body.args, *(r for op in body.ops for r in op.results)]
    return all(len(list(v.uses)) <= 1 for v in values if not isinstance(v.type, MemRefType))


def _golden(tmp_path: Path, name: str, text: str, bundle: dict, capsys) -> tuple[int, dict, str]:
    dfg = tmp_path / name
    dfg.write_text(text)
    stem = name.removesuffix(".mlir").removesuffix(".dfg")
    (tmp_path / f"{stem}.bundle.json").write_text(json.dumps(bundle))
    status = main(["run", str(dfg), "-o", str(tmp_path / "out")])
    out = capsys.readouterr()
    report = json.loads((tmp_path / "out" / f"{stem}.golden.json").read_text())
    return status, report, out.out + out.err


def test_loom_form_normalizes_names_and_forks(tmp_path):
    path = tmp_path / "sq.dfg.mlir"
    path.write_text(SQUARE)
    module = load_dfg(path)
    func = next(op for op in module.ops if op.name == "handshake.func")
    assert [a.data for a in func.attributes["arg_names"]] == ["a", "b", "ctrl"]
    assert [a.data for a in func.attributes["res_names"]] == ["r", "done"]
    assert "argNames" not in func.attributes
    assert _single_use(module)


def test_square_runs_on_the_golden_model(tmp_path, capsys):
    a, b = 3, -9
    bundle = {"case_name": "sq",
              "scalar_inputs": [{"arg_index": 0, "data": [a]}, {"arg_index": 1, "data": [b]}],
              "expected_outputs": [{"result_index": 0, "data": [(a + b) ** 2]}]}
    status, report, out = _golden(tmp_path, "sq.dfg.mlir", SQUARE, bundle, capsys)
    assert status == 0, out
    assert report["results"][0][0] == (a + b) ** 2


def test_our_own_dfg_is_used_as_it_is(tmp_path):
    src = GOLDEN_DATA / "sum_loop.dfg.mlir"
    assert prepare_dfg(src, tmp_path, "sum_loop") == src
    assert not (tmp_path / "sum_loop.dfg.mlir").exists()


@needs_mirror
@pytest.mark.parametrize("path", _mirror_dfgs())
def test_every_loom_dfg_parses_and_normalizes(tmp_path, path):
    dfg = tmp_path / "dfg.mlir"
    dfg.write_text(_mirror_file(path))
    module = load_dfg(dfg)
    assert _single_use(module)
    # the normalized form is ours: it parses back to the same module
    out = prepare_dfg(dfg, tmp_path, "dfg")
    again = load_module(out)
    assert _single_use(again)


@needs_mirror
def test_loom_all_pes_on_the_golden_model(tmp_path, capsys):
    # tests/unit/all-pes: result = (a + b) * 2, the control argument used twice
    a, b = 5, 6
    bundle = {"case_name": "all-pes",
              "scalar_inputs": [{"arg_index": 0, "data": [a]}, {"arg_index": 1, "data": [b]}],
              "expected_outputs": [{"result_index": 0, "data": [(a + b) * 2]}]}
    status, report, out = _golden(tmp_path, "dfg.mlir", _mirror_file("tests/unit/all-pes/dfg.mlir"),
                                  bundle, capsys)
    assert status == 0, out
    assert report["results"][0][0] == (a + b) * 2


@needs_mirror
def test_loom_extmemory_load_on_the_golden_model(tmp_path, capsys):
    # tests/rtl/fabric/extmemory/single_load: out = mem[idx], a forward
    # reference to the extmemory and a memref<?xi32> sized by the bundle
    mem, idx = [10, 20, 30, 40, 50], 3
    bundle = {"case_name": "single_load", "scalar_inputs": [{"arg_index": 1, "data": [idx]}],
              "memory_regions": [{"memref_arg_index": 0, "elem_size_bytes": 4, "values": mem}],
              "expected_outputs": [{"result_index": 0, "data": [mem[idx]]}]}
    text = _mirror_file("tests/rtl/fabric/extmemory/single_load.dfg.mlir")
    status, report, out = _golden(tmp_path, "single_load.dfg.mlir", text, bundle, capsys)
    assert status == 0, out
    assert report["results"][0][0] == mem[idx]


def test_loom_names_alone_are_normalized_too(tmp_path):
    # every value used once: only argNames/resNames differ from our form,
    # and the DFG commands read must carry our names (arg_names, res_names)
    text = """\
module {
  handshake.func @pass(%a: i32, %ctrl: none, ...) -> (i32, none)
      attributes {argNames = ["a", "ctrl"], resNames = ["r", "done"]} {
    return %a, %ctrl : i32, none
  }
}
"""
    path = tmp_path / "pass.dfg.mlir"
    path.write_text(text)
    out = prepare_dfg(path, tmp_path / "out", "pass")
    assert out != path
    written = out.read_text()
    assert "arg_names" in written and "argNames" not in written
