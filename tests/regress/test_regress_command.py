"""`loom regress` end to end on a tiny golden-only plan: shards, JSON lines,
JUnit XML, the summary table, xdist; and how a run that cannot run is recorded."""

import json
import subprocess
import sys
import xml.etree.ElementTree as ET

from loom.regress.plan import Case
from loom.regress.plugin import summary_table
from loom.regress import runner
from loom.regress.runner import ERROR, KernelCache, RunRecord, run_case
from loom.diagnostics import LoomError

TINY = ["--no-rtl", "--kernels", "sum_n,gcd,vecadd", "--seeds", "1,2"]
PLAN = {(k, s) for k in ("sum_n", "gcd", "vecadd") for s in (1, 2)}


def _regress(out, *args):
    proc = subprocess.run([sys.executable, "-m", "loom.cli", "regress", *TINY, "-o", str(out),
                           *args], capture_output=True, text=True)
    lines = (out / "regress.jsonl").read_text().splitlines() if (out / "regress.jsonl").exists() \
        else []
    return proc, [json.loads(line) for line in lines]


def test_three_shards_are_disjoint_and_cover_the_plan(tmp_path):
    seen = []
    for i in (1, 2, 3):
        proc, records = _regress(tmp_path / f"s{i}", "--shard", f"{i}/3", "-j", "1")
        assert proc.returncode == 0, proc.stdout + proc.stderr
        assert f"shard {i}/3: 2 of 6 runs" in proc.stdout
        seen += [(r["kernel"], r["seed"]) for r in records]
    assert len(seen) == len(set(seen)) and set(seen) == PLAN


def test_records_junit_and_summary_of_a_parallel_run(tmp_path):
    proc, records = _regress(tmp_path, "-j", "2")
    assert proc.returncode == 0, proc.stdout + proc.stderr
    assert {(r["kernel"], r["seed"]) for r in records} == PLAN
    for r in records:
        assert set(r) == {"kernel", "seed", "status", "cycles", "tokens", "wall", "problems"}
        assert r["status"] == "pass" and r["cycles"] is None and r["tokens"] > 0
    # a golden run does not depend on the stall seed: both seeds carry the same tokens
    tokens = {(r["kernel"], r["seed"]): r["tokens"] for r in records}
    assert all(tokens[(k, 1)] == tokens[(k, 2)] for k, _ in PLAN)
    cases = ET.parse(tmp_path / "junit.xml").getroot().iter("testcase")
    props = [{p.get("name"): p.get("value") for p in c.iter("property")} for c in cases]
    assert {(p["kernel"], int(p["seed"])) for p in props} == PLAN
    rows = [line.split()[:5] for line in proc.stdout.splitlines()]
    assert ["gcd", "2", "2", "0", "0"] in rows and ["total", "6", "6", "0", "0"] in rows


def test_an_empty_shard_passes(tmp_path):
    proc, records = _regress(tmp_path, "--shard", "1/7", "--kernels", "gcd", "--seeds", "1")
    assert proc.returncode == 0 and "nothing to run" in proc.stdout and records == []


def test_a_kernel_that_cannot_be_prepared_is_an_error_for_each_seed(tmp_path, monkeypatch):
    def broken(kernel, out_dir):
        raise LoomError("clang failed")
    monkeypatch.setattr(runner, "_compile", broken)
    cache = KernelCache(tmp_path, rtl=False)
    records = [run_case(Case("gcd", s), cache) for s in (1, 2)]
    assert [r.status for r in records] == [ERROR, ERROR]
    assert records[0].problems == ["loom: error: clang failed"]
    table = summary_table(records)
    assert table[1].split() == ["gcd", "2", "0", "0", "2", "-", "0", f"{records[0].wall + records[1].wall:.1f}"]
    assert table[-1] == "ERROR: gcd seed 2: loom: error: clang failed"


def test_summary_counts_failures():
    records = [RunRecord("a", 1, "pass", 10, 5, 1.0), RunRecord("a", 2, "fail", 30, 4, 2.0,
                                                                   ["first divergence ..."])]
    table = summary_table(records)
    assert table[1].split() == ["a", "2", "1", "1", "0", "30", "9", "3.0"]
    assert table[-1] == "FAIL: a seed 2: first divergence ..."
