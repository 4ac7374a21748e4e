"""A mutation campaign: each mutant in a copy of the sources, judged by the
tests that should catch it, the verdicts in `mutants.jsonl` (issue 36).

A template's judge is its own test module, named alike (the per-component
grain): templates/<t>.sv.j2 by tests/rtl/test_<t>.py, or for a fabric
component tests/fabric/test_<t>.py; a template that has none (a family's
member, a piece others include, a testbench, the AXI shell) by the tests
JUDGES names; a Python module's, its area's tests
(loom.mutation.python_mutants.AREAS). A mutant is

- `killed` when that module fails (`killed_by` names the first failing test),
- `survived` when it passes,
- `timeout` when it runs past the limit (a hung simulation counts as caught
  only once someone says so: it is listed apart),
- `no-check` when its template has no judge,
- `equivalent` when it provably changes nothing a check can see (`reason`
  says why; not run): shown by the config area's generator
  (loom.mutation.config_mutants) or reviewed by hand (`loom mutate
  --equivalent FILE`, a JSON object of mutant id -> reason).

Each worker runs in a workspace of its own: a copy of compiler/, tb/,
tests/, templates/ and kernels/ whose Python comes first on PYTHONPATH, so
the mutated template, the builds it causes and the tests' caches never
touch the checkout (the unit builds live under the copy's gen/). Python
writes no bytecode there (a mutant of the same size within the same second
would otherwise run a stale one), and the kernels the tests compile are
compiled once per campaign, beside mutants.jsonl (frontend/kernel_cache.py). The
verdicts are appended as they come; a second run with the same output
skips every mutant already judged, so a campaign stopped by its time
budget (or by Ctrl-C) goes on where it stopped.
"""

from __future__ import annotations

import json
import os
import queue
import re
import shutil
import subprocess
import sys
import tempfile
import threading
import time
from collections import Counter
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import asdict, dataclass, replace
from pathlib import Path

from loom.diagnostics import Location, LoomError
from loom.frontend.kernel_cache import KERNEL_CACHE_ENV
from loom.mutation.template_mutants import OPERATORS, Mutant

COPIED = ("compiler", "tb", "tests", "templates", "kernels", "pyproject.toml")
"""What a workspace holds: the sources the unit and fabric tests read."""
VERDICTS = ("killed", "survived", "timeout", "no-check", "equivalent")
WORKSPACE_PREFIX = "loom-mutate-"
"""A worker's copy of the sources, beside mutants.jsonl while it runs (a
campaign stopped by a signal leaves it; the next run on that output
removes it)."""
KERNEL_CACHE = "kernel-cache"
"""The kernels compiled for a campaign's tests, beside mutants.jsonl."""
DEFAULT_TIMEOUT = 600.0
"""Seconds one mutant's tests may take (a unit's build and episodes take
10 to 60 s on this machine; a mutant that hangs a simulation runs out here)."""


@dataclass(frozen=True)
class Verdict:
    """One line of mutants.jsonl."""

    id: str
    template: str
    line: int
    column: int
    operator: str
    original: str
    replacement: str
    verdict: str
    killed_by: str = ""
    check: str = ""
    """The test module that judged it ("" for no-check)."""
    seconds: float = 0.0
    reason: str = ""
    """Why an `equivalent` mutant cannot change what a check sees, or why no
    check sees a `survived` one (a reviewed reason, `loom mutate --survivors`)."""

    def to_json(self) -> str:
        return json.dumps(asdict(self), sort_keys=True)


_AXI_KERNELS = ("histogram", "sum_n", "hist_bytes", "mixed_types", "dot_f64")
"""The AXI shell's judges: a read-after-write through memory (histogram),
a scalar argument and result over two invocations (sum_n), byte lanes
(hist_bytes' i8, mixed_types' i16 and i64) and a 64-bit bus (dot_f64)."""
_AXI_RUN = " ".join(f"tests/export/test_axi_sim.py::test_kernel_through_the_axi_shell[{k}]"
                    for k in _AXI_KERNELS)
_FABRIC_RUN = "tests/sim/test_fabric_broken_config.py"
"""A configured fabric simulated (the unbroken run, with every edge observed,
and wrong configurations that must fail): what the fabric's top, its
config chain and its testbench must keep true."""
_FABRIC_SHELL_RUN = "tests/export/test_axi_sim.py::test_a_fabric_through_the_axi_shell"
"""A configured fabric in the AXI shell, every edge compared at the shell's
taps, and a wrong configuration that must fail there."""
_KERNEL_RUN = "tests/sim/test_checker.py tests/sim/test_harness.py"
"""The kernel testbench: broken designs it must fail, and runs it must pass."""

JUDGES: dict[str, str] = {
    # a family's test module carries the family's name
    "fabric_add_tag": "tests/fabric/test_fabric_tags.py",
    "fabric_del_tag": "tests/fabric/test_fabric_tags.py",
    "fabric_map_tag": "tests/fabric/test_fabric_tags.py",
    "fabric_memory": "tests/fabric/test_fabric_memory_rtl.py",
    "fabric_extmemory": "tests/fabric/test_fabric_memory_rtl.py",
    "fabric_memory_body": "tests/fabric/test_fabric_memory_rtl.py",
    # the lanes' own test runs loads; stores pair their address and data
    # in the memories' tests
    "fabric_memory_lanes": "tests/fabric/test_fabric_memory_rtl.py",
    "fabric_function_unit": "tests/fabric/test_fabric_spatial_pe.py",
    # pieces the components include: the tests of those that include them
    "fabric_common": "tests/fabric/test_fabric_spatial_pe.py tests/fabric/test_fabric_spatial_sw.py",
    "fabric_switch_common":
        "tests/fabric/test_fabric_spatial_sw.py tests/fabric/test_fabric_temporal_sw.py",
    "float_macros": "tests/rtl/test_float_add.py tests/rtl/test_cmpf.py tests/rtl/test_float_convert.py",
    "pipeline_macros": "tests/rtl/test_arith_pipelined.py tests/rtl/test_float_mul.py",
    # whole designs: a fabric, a kernel's testbench, the AXI shell
    "fabric_sv": _FABRIC_RUN,
    "fabric_header": _FABRIC_RUN,
    "fabric_config": _FABRIC_RUN,
    "fabric_top": _FABRIC_RUN,
    "fabric_tb": _FABRIC_RUN,
    "fabric_taps": f"{_FABRIC_RUN} {_FABRIC_SHELL_RUN}",
    "kernel_tb": _KERNEL_RUN,
    "tb_stalls": _KERNEL_RUN,
    "axi_master": _AXI_RUN,
    "axi_shell": f"{_AXI_RUN} {_FABRIC_SHELL_RUN}",
}
"""The judges of templates without a test module of their own name, or
beside it where that module leaves a part untried (test paths or node ids,
space-separated)."""


def check_for(template: str, root: Path) -> str | None:
    """The tests (relative to `root`, space-separated) that judge
    `template`'s mutants: its test module named alike, then JUDGES' entry;
    None when it has neither."""
    stem = template.removesuffix(".sv.j2")
    own = [path for folder in ("tests/rtl", "tests/fabric")
           if (root / (path := f"{folder}/test_{stem}.py")).is_file()]
    judges = [*own[:1], *([JUDGES[stem]] if stem in JUDGES else [])]
    return " ".join(judges) or None


def judged(path: Path) -> dict[str, Verdict]:
    """The verdicts already in `path` (a campaign's mutants.jsonl), by mutant id."""
    if not path.is_file():
        return {}
    out = {}
    for number, line in enumerate(path.read_text().splitlines(), 1):
        if not line.strip():
            continue
        try:
            v = Verdict(**json.loads(line))
        except (ValueError, TypeError) as err:   # not JSON, or not a verdict's fields
            raise LoomError(f"not a verdict of loom mutate: {str(err).splitlines()[0]}",
                            Location(str(path), number)) from err
        out[v.id] = v
    return out


class Workspace:
    """A copy of the sources one worker mutates, one template at a time."""

    def __init__(self, root: Path, parent: Path):
        self.dir = Path(tempfile.mkdtemp(prefix=WORKSPACE_PREFIX, dir=parent))
        self.kernels = parent / KERNEL_CACHE
        for name in COPIED:
            src = root / name
            if src.is_dir():
                shutil.copytree(src, self.dir / name,
                                ignore=shutil.ignore_patterns("__pycache__", "*.pyc"))
            elif src.is_file():
                shutil.copy2(src, self.dir / name)

    def run(self, mutant: Mutant, check: str, timeout: float) -> Verdict:
        """Put `mutant` in, run `check` (test paths, space-separated), take it out again."""
        path = self.dir / mutant.folder / mutant.template
        original = path.read_text()
        path.write_text(mutant.apply(original))
        start = time.monotonic()
        try:
            verdict, by = self._pytest(check, timeout)
        finally:
            path.write_text(original)
        return Verdict(mutant.id, mutant.template, mutant.line, mutant.column,
                       mutant.operator, mutant.original, mutant.replacement, verdict, by,
                       check, round(time.monotonic() - start, 1))

    def _pytest(self, check: str, timeout: float) -> tuple[str, str]:
        env = dict(os.environ, PYTHONPATH=os.pathsep.join(
            [str(self.dir / "compiler"), str(self.dir)]), PYTHONDONTWRITEBYTECODE="1",
            **{KERNEL_CACHE_ENV: str(self.kernels)})
        cmd = [sys.executable, "-m", "pytest", "-q", "-x", "-m", "not slow", "-p",
               "no:cacheprovider", "-rf", *check.split()]
        try:
            done = subprocess.run(cmd, cwd=self.dir, env=env, capture_output=True, text=True,
                                  timeout=timeout, start_new_session=True)
        except subprocess.TimeoutExpired:
            return "timeout", ""
        if done.returncode == 0:
            return "survived", ""
        failed = re.search(r"^(?:FAILED|ERROR) (\S+)", done.stdout, re.M)
        return "killed", failed.group(1) if failed else f"exit status {done.returncode}"

    def remove(self) -> None:
        shutil.rmtree(self.dir, ignore_errors=True)


class Recorder:
    """Appends each verdict to mutants.jsonl as it comes (from any worker
    thread), keeps `done` current and tells `tick` the counts so far. A
    survivor gets its reviewed reason from `survivors` (id -> why no check
    sees it)."""

    def __init__(self, out: Path, done: dict[str, Verdict], todo: int,
                 tick: Callable[[str], None], survivors: Mapping[str, str] | None = None):
        out.parent.mkdir(parents=True, exist_ok=True)
        self.out, self.done, self.todo, self.tick = out, done, todo, tick
        self.survivors = survivors or {}
        self.counted: Counter[str] = Counter()
        self.lock = threading.Lock()

    def record(self, v: Verdict) -> None:
        if v.verdict == "survived" and v.id in self.survivors:
            v = replace(v, reason=self.survivors[v.id])
        with self.lock:
            with self.out.open("a") as f:
                f.write(v.to_json() + "\n")
            self.done[v.id] = v
            self.counted[v.verdict] += 1
            c = self.counted
            self.tick(f"mutate: {sum(c.values())} of {self.todo} judged ("
                      + ", ".join(f"{c[k]} {k}" for k in VERDICTS if c[k]) + ")")


def run_campaign(root: Path, mutants: Sequence[Mutant], out: Path, jobs: int = 1,
                 timeout: float = DEFAULT_TIMEOUT, budget: float | None = None,
                 tick: Callable[[str], None] = lambda _: None,
                 equivalent: Mapping[str, str] | None = None,
                 judge: Callable[[Mutant], str | None] | None = None,
                 survivors: Mapping[str, str] | None = None) -> list[Verdict]:
    """Judge every mutant not yet in `out` (appending its verdict there), with
    `jobs` workers, starting none after `budget` seconds; the verdicts of
    `mutants` found in `out` afterwards, in `mutants`' order. A mutant in
    `equivalent` (id -> reviewed reason) is recorded so, not run; a survivor
    in `survivors` carries its reviewed reason. `judge`
    gives a mutant's test paths (default: its template's test module)."""
    equivalent = equivalent or {}
    judge = judge or (lambda m: check_for(m.template, root))
    done = judged(out)
    todo = [m for m in mutants if m.id not in done]
    for stale in out.parent.glob(f"{WORKSPACE_PREFIX}*"):
        shutil.rmtree(stale, ignore_errors=True)   # a stopped campaign's copies
    work: queue.Queue[Mutant] = queue.Queue()
    for m in todo:
        work.put(m)
    start = time.monotonic()
    record = Recorder(out, done, len(todo), tick, survivors).record

    def worker() -> None:
        space: Workspace | None = None
        try:
            while budget is None or time.monotonic() - start < budget:
                try:
                    m = work.get_nowait()
                except queue.Empty:
                    return
                check = judge(m)
                if check is None or m.id in equivalent:
                    record(_unjudged(m, equivalent.get(m.id, "")))
                    continue
                space = space or Workspace(root, out.parent)
                record(space.run(m, check, timeout))
        finally:
            if space is not None:
                space.remove()

    threads = [threading.Thread(target=worker) for _ in range(max(1, min(jobs, len(todo))))]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    return [done[m.id] for m in mutants if m.id in done]


def _unjudged(m: Mutant, reason: str = "") -> Verdict:
    """A mutant not run: equivalent (`reason`), or without a check."""
    return Verdict(m.id, m.template, m.line, m.column, m.operator, m.original, m.replacement,
                   "equivalent" if reason else "no-check", reason=reason)


def reviewed(path: Path | None) -> dict[str, str]:
    """Mutant id -> a reviewed reason (why it is equivalent, `loom mutate
    --equivalent FILE`; why no check sees it, `--survivors FILE`), from a
    JSON object file; {} without one."""
    if path is None:
        return {}
    try:
        data = json.loads(path.read_text())
    except (OSError, ValueError) as err:
        raise LoomError(f"cannot read the reviewed reasons: {str(err).splitlines()[0]}",
                        Location(str(path))) from err
    if not isinstance(data, dict) or not all(
            isinstance(k, str) and isinstance(v, str) and v for k, v in data.items()):
        raise LoomError("expected a JSON object of mutant id -> reason (a non-empty string)",
                        Location(str(path)))
    return data


def table(verdicts: Iterable[Verdict], key: str = "operator") -> str:
    """Counts by `key` (operator or template), and the kill rate over the
    mutants a check judged in time (killed / (killed + survived))."""
    rows: dict[str, Counter[str]] = {}
    for v in verdicts:
        rows.setdefault(getattr(v, key), Counter())[v.verdict] += 1
    # the template operators in their order, then any others (the config area's)
    order = [k for k in OPERATORS if k in rows] + sorted(set(rows) - set(OPERATORS)) \
        if key == "operator" else sorted(rows)
    width = max([len(key), *(len(k) for k in rows)])
    head = f"{key:<{width}} " + " ".join(f"{k:>10}" for k in VERDICTS) + "  kill rate"
    lines = [head, "-" * len(head)]
    total: Counter[str] = Counter()
    for name in [k for k in order if k in rows]:
        lines.append(_row(name, rows[name], width))
        total.update(rows[name])
    lines += ["-" * len(head), _row("all", total, width)]
    return "\n".join(lines)


def _row(name: str, c: Counter[str], width: int) -> str:
    judged_in_time = c["killed"] + c["survived"]
    rate = f"{100 * c['killed'] / judged_in_time:8.1f} %" if judged_in_time else "       -"
    return f"{name:<{width}} " + " ".join(f"{c[k]:>10}" for k in VERDICTS) + f"  {rate}"


__all__ = ["COPIED", "DEFAULT_TIMEOUT", "JUDGES", "KERNEL_CACHE", "VERDICTS", "Recorder", "Verdict", "Workspace",
           "check_for", "judged", "reviewed", "run_campaign", "table"]
