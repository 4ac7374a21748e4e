"""Every kernel of kernels/: lowered to a DFG, the golden run equals the native C run
and ends quiescent (no leftover token anywhere)."""

from pathlib import Path

import pytest

from loom.golden.run import find_func, run_dfg
from loom.ir import load_module
from loom.lowering import lower

KERNELS = sorted(p.stem for p in (Path(__file__).resolve().parents[2] / "kernels").glob("*.c"))


@pytest.mark.parametrize("name", KERNELS)
def test_kernel_golden_equals_native(compiled, name):
    arts = compiled(name)
    lower(arts.scf_mlir, arts.dfg_mlir, arts.top)
    module = load_module(arts.dfg_mlir)
    run = run_dfg(find_func(module, arts.top, str(arts.dfg_mlir)), arts.bundle,
                  str(arts.dfg_mlir))
    assert run.execution.returned, run.problems()[:10]
    assert not run.execution.problems, run.execution.problems[:10]   # quiescent
    assert not run.mismatches, run.mismatches[:10]                    # == native C
