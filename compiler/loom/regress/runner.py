"""One regression run: a kernel under one stall seed, as a record.

Each worker prepares a kernel once (compile, lower, golden run, RTL and the
cached Verilator build) and reuses it for every seed it runs; a kernel that
cannot be prepared fails every one of its runs with the same message.
"""

from __future__ import annotations

import time
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Any

from loom.diagnostics import LoomError
from loom.frontend.driver import compile_kernel
from loom.golden.run import GoldenRun, find_func, run_dfg
from loom.bundle import load_bundle
from loom.inputs import Inputs
from loom.ir import load_module
from loom.lowering import lower
from loom.regress.plan import KERNELS_DIR, Case
from loom.sim import profiles
from loom.sim.flow import GoldenFailed, SimSetup, run_seed, setup

PASS, FAIL, ERROR = "pass", "fail", "error"


@dataclass
class RunRecord:
    """One JSON line of the regression: a run and its outcome.

    status: pass; fail (the design is wrong: mismatch, deadlock, a failing
    golden run); error (the flow could not run: bad input, a tool failure).
    """
    kernel: str
    seed: int
    status: str
    cycles: int | None          # None: no RTL run (golden only, or it never started)
    tokens: int | None
    wall: float                 # seconds of this run, its kernel's preparation included
    problems: list[str] = field(default_factory=list)

    def to_json(self) -> dict[str, Any]:
        return asdict(self)


@dataclass
class _Prepared:
    golden: GoldenRun | None = None
    sim: SimSetup | None = None
    status: str = PASS
    problems: list[str] = field(default_factory=list)


class KernelCache:
    """Prepared kernels of one worker, under out/<kernel>/."""

    def __init__(self, out: Path, rtl: bool):
        self.out, self.rtl = out, rtl
        self._done: dict[str, _Prepared] = {}

    def get(self, kernel: str) -> _Prepared:
        if kernel not in self._done:
            self._done[kernel] = self._prepare(kernel)
        return self._done[kernel]

    def _prepare(self, kernel: str) -> _Prepared:
        try:
            inputs = _compile(kernel, self.out / kernel)
            if self.rtl:
                s = setup(inputs, None)
                return _Prepared(golden=s.golden, sim=s)
            golden = _golden(inputs)
            if not golden.ok:
                return _Prepared(golden=golden, status=FAIL, problems=golden.problems())
            return _Prepared(golden=golden)
        except GoldenFailed as exc:
            return _Prepared(status=FAIL, problems=exc.problems)
        except LoomError as exc:   # a ToolFailure too: the flow itself stopped
            return _Prepared(status=ERROR, problems=[exc.format()])


def _compile(kernel: str, out_dir: Path) -> Inputs:
    arts = compile_kernel(KERNELS_DIR / f"{kernel}.c", None, [], [], out_dir)
    lower(arts.scf_mlir, arts.dfg_mlir, arts.top)
    return Inputs(arts.name, out_dir, arts.dfg_mlir, arts.bundle_path)


def _golden(inputs: Inputs) -> GoldenRun:
    assert inputs.bundle is not None
    func = find_func(load_module(inputs.dfg), None, str(inputs.dfg))
    return run_dfg(func, load_bundle(inputs.bundle), str(inputs.dfg), traces=False)


def _golden_tokens(golden: GoldenRun | None) -> int | None:
    if golden is None:
        return None
    return golden.execution.tokens


def run_case(case: Case, kernels: KernelCache) -> RunRecord:
    """The case's run: golden only, or the RTL under the seed's stall profile."""
    t0 = time.perf_counter()
    prepared = kernels.get(case.kernel)
    record = RunRecord(case.kernel, case.seed, prepared.status, None,
                       _golden_tokens(prepared.golden), 0.0, list(prepared.problems))
    if prepared.sim is not None:
        try:
            result = run_seed(prepared.sim, profiles.for_seed(case.seed))
            record.status = PASS if result.passed else FAIL
            record.problems = result.problems
            record.cycles = result.report["cycles"]
            record.tokens = result.report["tokens"]
        except LoomError as exc:
            record.status, record.problems = ERROR, [exc.format()]
    record.wall = round(time.perf_counter() - t0, 3)
    return record
