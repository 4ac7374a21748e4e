"""One random kernel through every stage, and the outcome it earns.

Stages, each checked against an independent reference:
  gcc (the program is valid C: else `invalid-c`) and UBSan (free of undefined
  behaviour: else `ub`)
  -> front end and native run (the reference results)
  -> SCF reference interpreter == native
  -> golden model == native, quiescent
  -> RTL on Verilator under each stall seed == golden per channel, == native.
The first stage that fails names the outcome; `detail` is its first line.
"""

from __future__ import annotations

import shutil
import subprocess
import time
import traceback
from dataclasses import asdict, dataclass, field
from pathlib import Path

from loom.bundle import compare
from loom.diagnostics import LoomError
from loom.frontend.driver import compile_kernel
from loom.frontend.reference import run_reference
from loom.fuzz.generator import FuzzConfig, FuzzProgram, generate
from loom.golden.run import find_func, run_dfg
from loom.inputs import Inputs
from loom.ir import load_module
from loom.lowering import lower
from loom.sim.flow import GoldenFailed, run_seed, setup
from loom.sim import profiles

# Outcomes. `pass` and `rejected` (a limitation the front end states) are not
# failures; everything else is a bug in the generator or in LOOM.
PASS, REJECTED = "pass", "rejected"
FAILURES = ("invalid-c", "ub", "native-fail", "scf-mismatch", "golden-fail", "rtl-mismatch",
            "rtl-deadlock", "crash")
OUTCOMES = (PASS, REJECTED, *FAILURES)

UBSAN = ["gcc", "-O0", "-w", "-fsanitize=undefined", "-fno-sanitize-recover=all"]


@dataclass
class FuzzResult:
    seed: int
    name: str
    outcome: str
    detail: str = ""
    seconds: float = 0.0
    cycles: list[int] = field(default_factory=list)

    @property
    def failed(self) -> bool:
        return self.outcome in FAILURES

    def to_json(self) -> dict:
        return asdict(self)


class _Stop(Exception):
    def __init__(self, outcome: str, detail: str):
        super().__init__(detail)
        self.outcome, self.detail = outcome, detail


def run_program(prog: FuzzProgram, work: Path, rtl: bool = True, keep: bool = False) -> FuzzResult:
    """All stages on one program, in work/<name>/. Only a failing program's
    directory stays (for the reduction) unless `keep`: a Verilator build is
    about 100 MB, a thousand of them fill a disk."""
    t0 = time.perf_counter()
    out = work / prog.name
    out.mkdir(parents=True, exist_ok=True)
    src = out / f"{prog.name}.c"
    src.write_text(prog.source)
    result = FuzzResult(prog.seed, prog.name, PASS)
    try:
        _check_ubsan(src, out)
        result.cycles = _run_stages(src, out, rtl)
    except _Stop as stop:
        result.outcome, result.detail = stop.outcome, stop.detail
    except Exception as exc:  # a traceback anywhere in LOOM is a bug to report
        last = traceback.extract_tb(exc.__traceback__)[-1]
        result.outcome = "crash"
        result.detail = f"{type(exc).__name__}: {exc} ({Path(last.filename).name}:{last.lineno})"
    result.detail = result.detail.splitlines()[0] if result.detail else ""
    result.seconds = round(time.perf_counter() - t0, 2)
    if not keep and not result.failed:
        shutil.rmtree(out, ignore_errors=True)
    return result


def run_seed_program(seed: int, work: Path, rtl: bool = True,
                     config: FuzzConfig | None = None, keep: bool = False) -> FuzzResult:
    return run_program(generate(seed, config), work, rtl, keep)


def _check_ubsan(src: Path, out: Path) -> None:
    exe = out / "ubsan"
    build = subprocess.run([*UBSAN, str(src), "-o", str(exe), "-lm"], capture_output=True,
                           text=True, check=False)
    if build.returncode != 0:
        raise _Stop("invalid-c", f"gcc: {build.stderr.strip()}")
    try:
        run = subprocess.run([str(exe)], capture_output=True, text=True, timeout=60, check=False)
    except subprocess.TimeoutExpired:
        raise _Stop("ub", "the UBSan build did not finish in 60 s") from None
    if "runtime error: " in run.stderr:
        # "file:line:col: runtime error: signed integer overflow: ..." -> the kind onwards
        raise _Stop("ub", run.stderr.split("runtime error: ", 1)[1].strip())
    if run.returncode != 0:
        raise _Stop("invalid-c", f"main() exits with {run.returncode} (it must return 0)")


def _run_stages(src: Path, out: Path, rtl: bool) -> list[int]:
    try:
        arts = compile_kernel(src, None, [], [], out)
    except LoomError as err:
        outcome = "native-fail" if "native run" in err.message else REJECTED
        raise _Stop(outcome, err.format()) from None
    problems = compare(arts.bundle, run_reference(arts.scf_mlir, arts.bundle, arts.top))
    if problems:
        raise _Stop("scf-mismatch", problems[0])
    lower(arts.scf_mlir, arts.dfg_mlir, arts.top, 64)
    if not rtl:
        func = find_func(load_module(arts.dfg_mlir), None, str(arts.dfg_mlir))
        golden = run_dfg(func, arts.bundle, str(arts.dfg_mlir), traces=False)
        if not golden.ok:
            raise _Stop("golden-fail", golden.problems()[0])
        return []
    try:
        s = setup(Inputs(arts.name, out, arts.dfg_mlir, arts.bundle_path), None)
    except GoldenFailed as exc:
        raise _Stop("golden-fail", exc.problems[0]) from None
    cycles: list[int] = []
    for seed in profiles.STALL_SEEDS:
        run = run_seed(s, profiles.for_seed(seed))
        if not run.passed:
            deadlock = any("deadlock" in p for p in run.problems)
            raise _Stop("rtl-deadlock" if deadlock else "rtl-mismatch",
                        f"stall seed {seed}: " + "; ".join(run.problems[:2]))
        cycles.append(int(run.report["cycles"]))
    return cycles
