"""`loom compile` and `loom run --stage scf|cf` through the command line."""

from __future__ import annotations

import importlib
import json
import shutil
from pathlib import Path

import pytest

from loom.cli import main

ROOT = Path(__file__).resolve().parents[2]


@pytest.fixture()
def workdir(tmp_path, monkeypatch):
    """A directory with kernels/vecadd.c, as a fresh clone would have."""
    (tmp_path / "kernels").mkdir()
    shutil.copy(ROOT / "kernels" / "vecadd.c", tmp_path / "kernels" / "vecadd.c")
    monkeypatch.chdir(tmp_path)
    return tmp_path


def test_compile_writes_the_stage_artifacts(workdir, capsys):
    assert main(["compile", "vecadd"]) == 0
    out = capsys.readouterr().out
    gen = Path("gen/vecadd")
    for ext in ("ll", "llvm.mlir", "cf.mlir", "scf.mlir", "bundle.json"):
        assert (gen / f"vecadd.{ext}").is_file()
        assert f"gen/vecadd/vecadd.{ext}" in out
    if getattr(importlib.import_module("loom.lowering"), "lower", None) is None:
        assert "not built yet" in out and "vecadd.dfg.mlir" in out
    bundle = json.loads((gen / "vecadd.bundle.json").read_text())
    assert bundle["case_name"] == "vecadd"
    assert bundle["arg_types"] == ["memref<256xi32>"] * 3
    assert bundle["result_types"] == []


@pytest.mark.parametrize("stage", ["scf", "cf"])
def test_run_stage_matches_native(workdir, capsys, stage):
    assert main(["run", "vecadd", "--stage", stage, "-o", "out"]) == 0
    out = capsys.readouterr().out
    assert f"{stage} reference: vecadd: matches the native run" in out


def test_run_on_an_scf_file_with_its_bundle(workdir, capsys):
    assert main(["compile", "vecadd", "-o", "out"]) == 0
    capsys.readouterr()
    assert main(["run", "out/vecadd.scf.mlir", "--stage", "scf"]) == 0
    assert "scf reference: vecadd: matches the bundle" in capsys.readouterr().out


def test_a_wrong_expectation_is_a_mismatch(workdir, capsys):
    assert main(["compile", "vecadd", "-o", "out"]) == 0
    doc = json.loads(Path("out/vecadd.bundle.json").read_text())
    c_after = next(r for r in doc["expected_memory_regions"] if r["memref_arg_index"] == 2)
    c_after["values"][5] += 1
    Path("wrong.json").write_text(json.dumps(doc))
    capsys.readouterr()
    status = main(["run", "out/vecadd.scf.mlir", "--stage", "scf", "--bundle", "wrong.json"])
    out = capsys.readouterr().out
    assert status == 1
    assert "MISMATCH" in out and "memory arg 2[5]" in out


def test_a_bundle_that_does_not_fit_is_bad_input(workdir, capsys):
    assert main(["compile", "vecadd", "-o", "out"]) == 0
    doc = json.loads(Path("out/vecadd.bundle.json").read_text())
    doc["memory_regions"] = doc["memory_regions"][:1]
    Path("short.json").write_text(json.dumps(doc))
    capsys.readouterr()
    status = main(["run", "out/vecadd.cf.mlir", "--stage", "cf", "--bundle", "short.json"])
    err = capsys.readouterr().err.strip()
    assert status == 2
    assert err.endswith("error: the bundle has no memory region for argument 1")


def test_stage_and_file_kind_must_agree(workdir, capsys):
    assert main(["compile", "vecadd", "-o", "out"]) == 0
    capsys.readouterr()
    assert main(["run", "out/vecadd.scf.mlir", "--stage", "cf"]) == 2
    assert "--stage cf runs a .cf.mlir file" in capsys.readouterr().err


def test_malformed_scf_is_a_located_error(workdir, capsys):
    Path("bad.scf.mlir").write_text(
        "func.func @bad(%a: i32) -> i32 {\n  %x = arith.addi %a, %b : i32\n  return %x : i32\n}\n")
    Path("bad.bundle.json").write_text('{"case_name": "bad"}')
    assert main(["run", "bad.scf.mlir", "--stage", "scf"]) == 2
    assert capsys.readouterr().err.strip() == \
        "bad.scf.mlir:2:23: error: value %b is used but never defined"


def test_compile_takes_an_scf_file(workdir, capsys):
    assert main(["compile", "vecadd", "-o", "out"]) == 0
    capsys.readouterr()
    assert main(["compile", "out/vecadd.scf.mlir", "-o", "again"]) == 0
    out = capsys.readouterr().out
    if getattr(importlib.import_module("loom.lowering"), "lower", None) is None:
        assert "not built yet" in out
    else:
        assert Path("again/vecadd.dfg.mlir").is_file()
    assert not Path("again/vecadd.ll").exists()


def test_compile_refuses_other_files(workdir, capsys):
    Path("x.dfg.mlir").write_text("")
    assert main(["compile", "x.dfg.mlir"]) == 2
    assert capsys.readouterr().err.strip() == \
        "x.dfg.mlir: error: loom compile takes a .c or .scf.mlir file"


def test_compile_explains_the_orderings_it_keeps(workdir, capsys):
    """vecadd: c[i] = a[i] + b[i]; no array is read after it is written, so
    every loop overlaps its iterations under analysis; seed 000's order
    chains each array's accesses through the loop's iterations instead."""
    assert main(["compile", "vecadd", "-o", "an", "--explain-ordering"]) == 0
    out = capsys.readouterr().out
    assert out.count(": 1 chain(s)") == 3 and "ordered (" not in out
    assert out.count("iterations overlap") == 3
    assert main(["compile", "vecadd", "-o", "seed", "--ordering", "seed",
                 "--explain-ordering"]) == 0
    out = capsys.readouterr().out
    assert "memory ordering (seed)" in out and "iterations overlap" not in out
    assert Path("an/vecadd.dfg.mlir").read_text().count("dataflow.invariant") > \
        Path("seed/vecadd.dfg.mlir").read_text().count("dataflow.invariant")


def test_compile_refuses_an_unknown_ordering(workdir, capsys):
    with pytest.raises(SystemExit) as exit_:
        main(["compile", "vecadd", "--ordering", "fifo"])
    assert exit_.value.code == 2
    assert "invalid choice: 'fifo'" in capsys.readouterr().err
