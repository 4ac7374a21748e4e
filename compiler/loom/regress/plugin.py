"""The regression as a pytest plugin: the plan as parametrized tests, the
shard, one JSON line per run and the summary table.

Loaded with `-p loom.regress.plugin` on the suite (loom/regress/suite.py);
`loom regress` does that. Under pytest-xdist the workers run the tests and
send each run's record back in the report's user_properties; the controller
alone writes the JSON lines (one writer, no interleaving) and the summary.
Under `--dist loadscope` a run's scope is its kernel (KernelScope), so all
runs of a kernel go to one worker, which prepares and builds it once.
(xdist's own loadgroup does not group with pytest 9.2: it renames nodes
through an attribute pytest no longer reads.)
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any, TextIO

import pytest

from loom.regress.plan import PROFILES, Case, Shard, parse_seeds, parse_shard, plan
from loom.regress.runner import KernelCache, RunRecord

RECORD_FIELDS = ("kernel", "seed", "status", "cycles", "tokens", "wall", "problems")


def pytest_addoption(parser: pytest.Parser) -> None:
    g = parser.getgroup("loom", "loom regress")
    g.addoption("--loom-profile", default="quick", choices=sorted(PROFILES),
                help="kernels and seeds to run (default quick)")
    g.addoption("--loom-kernels", default="", help="comma-separated kernels (replaces the profile's)")
    g.addoption("--loom-seeds", default="", help="seeds such as 1-5,9 (replaces the profile's)")
    g.addoption("--loom-shard", default="1/1", help="run the i-th of N deterministic shards: i/N")
    g.addoption("--loom-no-rtl", action="store_true", help="golden model only (no Verilator)")
    g.addoption("--loom-out", default="gen/regress", help="build and report directory")
    g.addoption("--loom-jsonl", default="", help="JSON lines file (default OUT/regress.jsonl)")


def options_plan(config: pytest.Config) -> list[Case]:
    profile = PROFILES[config.getoption("loom_profile")]
    kernels = [k for k in config.getoption("loom_kernels").split(",") if k.strip()]
    seeds = config.getoption("loom_seeds")
    return plan(profile, [k.strip() for k in kernels], parse_seeds(seeds) if seeds else None)


def _shard(config: pytest.Config) -> Shard:
    return parse_shard(config.getoption("loom_shard"))


def out_dir(config: pytest.Config) -> Path:
    return Path(config.getoption("loom_out")).resolve()


@pytest.fixture(scope="session")
def loom_kernels(request: pytest.FixtureRequest) -> KernelCache:
    """This worker's prepared kernels."""
    config = request.config
    return KernelCache(out_dir(config), not config.getoption("loom_no_rtl"))


def pytest_configure(config: pytest.Config) -> None:
    if hasattr(config, "workerinput"):   # an xdist worker: the controller reports
        return
    path = Path(config.getoption("loom_jsonl") or out_dir(config) / "regress.jsonl")
    config.pluginmanager.register(Reporter(path), "loom-regress-reporter")


def pytest_report_header(config: pytest.Config) -> str:
    cases = options_plan(config)
    mine = _shard(config).select(cases)
    mode = "golden model only" if config.getoption("loom_no_rtl") else "RTL on Verilator"
    return (f"loom regress: profile {config.getoption('loom_profile')}, {mode}, "
            f"shard {_shard(config)}: {len(mine)} of {len(cases)} runs")


def pytest_generate_tests(metafunc: pytest.Metafunc) -> None:
    if "case" not in metafunc.fixturenames:
        return
    cases = options_plan(metafunc.config)
    metafunc.parametrize("case", cases, ids=[c.id for c in cases])


@pytest.hookimpl(optionalhook=True)
def pytest_xdist_make_scheduler(config: pytest.Config, log: Any) -> Any:
    if config.getoption("dist") != "loadscope":
        return None
    from xdist.scheduler import LoadScopeScheduling

    class KernelScope(LoadScopeScheduling):
        """xdist's loadscope with one scope per kernel: `...::test_run[<kernel>-seed<S>]`."""

        def _split_scope(self, nodeid: str) -> str:
            params = nodeid.rpartition("[")[2]
            return params.rpartition("-seed")[0] or super()._split_scope(nodeid)

    return KernelScope(config, log)


def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    keep = set(_shard(config).select(options_plan(config)))
    selected, deselected = [], []
    for item in items:
        case = getattr(item, "callspec", None) and item.callspec.params.get("case")
        (selected if case is None or case in keep else deselected).append(item)
    if deselected:
        config.hook.pytest_deselected(items=deselected)
        items[:] = selected


def record_properties(record: RunRecord) -> list[tuple[str, Any]]:
    """The record as user_properties: JUnit properties, and xdist's way back to the controller."""
    return list(record.to_json().items())


class Reporter:
    """On the controller: a JSON line per finished run, the summary at the end."""

    def __init__(self, jsonl: Path):
        jsonl.parent.mkdir(parents=True, exist_ok=True)
        self.jsonl = jsonl
        self.file: TextIO = open(jsonl, "w")
        self.records: list[RunRecord] = []

    def pytest_runtest_logreport(self, report: pytest.TestReport) -> None:
        props = dict(report.user_properties)
        if report.when != "call" or "kernel" not in props:
            return
        record = RunRecord(**{k: props[k] for k in RECORD_FIELDS})
        self.records.append(record)
        self.file.write(json.dumps(record.to_json()) + "\n")
        self.file.flush()   # a shard stopped half way keeps the runs it finished

    def pytest_terminal_summary(self, terminalreporter: Any) -> None:
        records = sorted(self.records, key=lambda r: (r.kernel, r.seed))
        terminalreporter.section("loom regress")
        for line in summary_table(records):
            terminalreporter.write_line(line)
        terminalreporter.write_line(f"one JSON line per run: {self.jsonl}")

    def pytest_unconfigure(self) -> None:
        self.file.close()


def summary_table(records: list[RunRecord]) -> list[str]:
    """Per kernel: runs by status, largest cycle count, tokens, wall seconds."""
    if not records:
        return ["loom regress: no runs in this shard"]
    by_kernel: dict[str, list[RunRecord]] = {}
    for r in records:
        by_kernel.setdefault(r.kernel, []).append(r)
    width = max(6, *(len(k) for k in by_kernel))
    lines = [f"{'kernel':<{width}} {'runs':>5} {'pass':>5} {'fail':>5} {'error':>5} "
             f"{'max cycles':>11} {'tokens':>10} {'wall s':>8}"]
    for kernel, rs in by_kernel.items():
        lines.append(_row(kernel, rs, width))
    lines.append(_row("total", records, width))
    for r in records:
        if r.status != "pass":
            first = r.problems[0] if r.problems else ""
            lines.append(f"{r.status.upper()}: {r.kernel} seed {r.seed}: {first[:200]}")
    return lines


def _row(name: str, rs: list[RunRecord], width: int) -> str:
    count = {s: sum(1 for r in rs if r.status == s) for s in ("pass", "fail", "error")}
    cycles = [r.cycles for r in rs if r.cycles is not None]
    tokens = sum(r.tokens or 0 for r in rs)
    return (f"{name:<{width}} {len(rs):>5} {count['pass']:>5} {count['fail']:>5} "
            f"{count['error']:>5} {max(cycles) if cycles else '-':>11} {tokens:>10} "
            f"{sum(r.wall for r in rs):>8.1f}")
