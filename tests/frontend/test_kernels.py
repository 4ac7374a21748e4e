"""Every kernel of kernels/: native run == SCF reference == CF reference.

The native run (the C file compiled as is and executed) is the independent
reference; the SCF and CF artifacts are executed by the reference interpreter
on the captured inputs and must reproduce its results and final memories.
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from loom.bundle import compare
from loom.frontend.reference import run_reference
from loom.regress.plan import SLOW_KERNELS

KERNELS = Path(__file__).resolve().parents[2] / "kernels"


def kernel_names() -> list[str]:
    return sorted(p.stem for p in KERNELS.glob("*.c"))

ARTIFACTS = ("ll", "llvm.mlir", "cf.mlir", "scf.mlir")


def test_the_suite_is_large_enough():
    names = kernel_names()
    assert len(names) >= 30
    assert "vecadd" in names


# the slow kernels' long loops take the interpreter minutes (cnn_layer): make test-slow
@pytest.mark.parametrize("name", [pytest.param(n, marks=pytest.mark.slow) if n in SLOW_KERNELS
                                  else n for n in kernel_names()])
def test_native_equals_scf_and_cf(compiled, name):
    arts = compiled(name)
    bundle = arts.bundle
    # The capture holds real data: inputs for every array and an expectation to meet.
    assert bundle.expected_memory_regions or bundle.expected_outputs
    for stage, path in (("scf", arts.scf_mlir), ("cf", arts.cf_mlir)):
        outcome = run_reference(path, bundle, arts.top)
        assert compare(bundle, outcome) == [], f"{stage} differs from the native run"


@pytest.mark.parametrize("name", kernel_names())
def test_artifacts_and_locations(compiled, name):
    arts = compiled(name)
    # Seed 003 names: <name>.ll .llvm.mlir .cf.mlir .scf.mlir, all in one directory.
    for ext in ARTIFACTS:
        assert (arts.out_dir / f"{name}.{ext}").is_file()
    assert arts.bundle_path == arts.out_dir / f"{name}.bundle.json"
    scf = arts.scf_mlir.read_text()
    cf = arts.cf_mlir.read_text()
    assert "llvm." not in cf and "llvm." not in scf
    assert "cf.br" not in scf and "cf.cond_br" not in scf
    # every kernel has a loop, but count_loop's only computes a constant: folded
    assert bool(re.search(r"\bscf\.(for|while)\b", scf)) == (name != "count_loop")
    # C line tables survive into every artifact.
    c_loc = re.compile(rf'loc\("[^"]*{re.escape(name)}\.c":\d+:\d+\)')
    assert c_loc.search(scf) and c_loc.search(cf)
    assert "!dbg" in arts.ll.read_text()
    assert f'{name}.c"' in arts.llvm_mlir.read_text()
