"""`loom run FILE.dfg.mlir --bundle B.json` end to end, against Python references."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from loom.bundle import Bundle, ExpectedOutput, MemoryRegion, ScalarInput
from loom.cli import main

DATA = Path(__file__).with_name("data")


def _run(tmp_path: Path, dfg: Path, bundle: Bundle, capsys,
         *flags: str) -> tuple[int, str, dict]:
    bpath = tmp_path / "case.bundle.json"
    tmp_path.mkdir(parents=True, exist_ok=True)
    bundle.save(bpath)
    status = main(["run", str(dfg), "--bundle", str(bpath), "-o", str(tmp_path), *flags])
    out = capsys.readouterr()
    name = dfg.name.removesuffix(".dfg.mlir")
    report_path = tmp_path / f"{name}.golden.json"
    report = json.loads(report_path.read_text()) if report_path.exists() else {}
    return status, out.out + out.err, report


def _sum_bundle(n: int, expected: int) -> Bundle:
    return Bundle("sum", scalar_inputs=[ScalarInput(0, [n])],
                  expected_outputs=[ExpectedOutput(0, [expected])])


@pytest.mark.parametrize("n", [0, 1, 7, 100])
def test_sum_loop_matches_python(tmp_path, capsys, n):
    status, out, report = _run(tmp_path, DATA / "sum_loop.dfg.mlir",
                               _sum_bundle(n, sum(range(n))), capsys)
    assert status == 0, out
    assert report["results"] == [[sum(range(n))]]
    traces = report["traces"]
    # seed 002 lengths: raw stream N + 1, gate N (+ its final false), carry N + 1
    assert len(traces["raw_will_continue"]) == n + 1
    assert len(traces["body_index"]) == n
    assert len(traces["acc"]) == n + 1


def test_no_traces_reports_each_channels_count_and_digest(tmp_path, capsys):
    """--no-traces: the traced report's streams as loom.stream_summary digests them."""
    from loom.stream_summary import summarize
    bundle = _sum_bundle(100, sum(range(100)))
    _, _, traced = _run(tmp_path / "t", DATA / "sum_loop.dfg.mlir", bundle, capsys)
    status, out, report = _run(tmp_path / "s", DATA / "sum_loop.dfg.mlir", bundle, capsys,
                               "--no-traces")
    assert status == 0, out
    assert "traces" not in report and report["loops"] is None
    assert "loops: not counted (--no-traces)" in out
    assert report["results"] == traced["results"] and report["stats"] == {
        **traced["stats"], "seconds": report["stats"]["seconds"]}
    assert report["summaries"] == {
        name: {"count": len(t), "digest": summarize(t).digest}
        for name, t in traced["traces"].items()}


def test_wrong_expectation_is_a_mismatch(tmp_path, capsys):
    status, out, report = _run(tmp_path, DATA / "sum_loop.dfg.mlir", _sum_bundle(5, 11), capsys)
    assert status == 1
    assert "result 0: expected 11, got 10" in out
    assert report["status"] == "fail"


def _scale_bundle(a: list[int], k: int, n: int) -> Bundle:
    b_before = [7] * 16
    b_after = [(x * k) & 0xFFFFFFFF if i < n else 7 for i, x in enumerate(a)]
    return Bundle(
        "scale",
        scalar_inputs=[ScalarInput(2, [k]), ScalarInput(3, [n])],
        memory_regions=[MemoryRegion(0, 4, a), MemoryRegion(1, 4, b_before)],
        expected_memory_regions=[MemoryRegion(0, 4, a), MemoryRegion(1, 4, b_after)],
    )


@pytest.mark.parametrize("n", [1, 9, 16])
def test_scale_with_memory_matches_python(tmp_path, capsys, n):
    a = [(i * 37 - 100) for i in range(16)]
    status, out, report = _run(tmp_path, DATA / "scale.dfg.mlir", _scale_bundle(a, -3, n), capsys)
    assert status == 0, out
    assert report["stats"]["firings_per_op_kind"]["handshake.store"] == n


def test_body_memory_control_on_raw_will_continue_is_reported(tmp_path, capsys):
    """Seed 000's mutation: the ctrl-done carry wired to the raw stream."""
    text = (DATA / "scale.dfg.mlir").read_text()
    text = text.replace("%body_index, %after_cond = dataflow.gate %raw_index, %raw_will_continue",
                        "%rawf:2 = handshake.fork [2] %raw_will_continue : i1\n"
                        "    %body_index, %after_cond = dataflow.gate %raw_index, %rawf#0")
    text = text.replace("%ac:5 = handshake.fork [5] %after_cond : i1",
                        "%ac:5 = handshake.fork [5] %after_cond : i1\n"
                        "    %bc:2 = handshake.fork [2] %rawf#1 : i1\n"
                        "    handshake.sink %ac#1 : i1")
    text = text.replace("dataflow.carry %ac#1, %s#2", "dataflow.carry %bc#0, %s#2")
    text = text.replace("handshake.cond_br %ac#2, %a_mem#1", "handshake.cond_br %bc#1, %a_mem#1")
    mutated = tmp_path / "scale.dfg.mlir"
    mutated.write_text(text)
    status, out, _ = _run(tmp_path, mutated, _scale_bundle(list(range(16)), 2, 4), capsys)
    assert status == 1
    assert "leftover" in out or "deadlock" in out


def test_value_used_twice_is_forked_on_input(tmp_path, capsys):
    # An input DFG may use a value twice (LOOM's form, issue 13): it is
    # normalized with an explicit fork into the output directory and runs.
    text = (DATA / "sum_loop.dfg.mlir").read_text()
    text = text.replace("handshake.sink %after_cond : i1", "handshake.sink %raw_index : index")
    bad = tmp_path / "sum_loop.dfg.mlir"
    bad.write_text(text)
    out_dir = tmp_path / "out"
    bundle = tmp_path / "case.bundle.json"
    _sum_bundle(3, sum(range(3))).save(bundle)
    status = main(["run", str(bad), "--bundle", str(bundle), "-o", str(out_dir)])
    out = capsys.readouterr().out
    assert status == 0, out
    assert "handshake.fork" in (out_dir / "sum_loop.dfg.mlir").read_text()


def test_malformed_file_is_one_line_with_position(tmp_path, capsys):
    bad = tmp_path / "bad.dfg.mlir"
    bad.write_text("module {\n  handshake.func @f(%x: i32) -> (i32) {\n"
                   "    %y = handshake.fork [2 %x : i32\n  }\n}\n")
    status, out, _ = _run(tmp_path, bad, _sum_bundle(1, 0), capsys)
    assert status == 2
    line = out.strip()
    assert line.startswith(f"{bad}:3:") and ": error: " in line and "\n" not in line


def test_missing_scalar_in_bundle(tmp_path, capsys):
    status, out, _ = _run(tmp_path, DATA / "sum_loop.dfg.mlir", Bundle("x"), capsys)
    assert status == 2 and "no scalar input for argument 0" in out


def test_function_without_start_token_runs(tmp_path, capsys):
    # LOOM's unit DFGs take no start token and return no done token
    dfg = tmp_path / "addk.dfg.mlir"
    dfg.write_text("module {\n  handshake.func @addk(%x: i32, %y: i32) -> (i32) {\n"
                   "    %r = arith.addi %x, %y : i32\n    handshake.return %r : i32\n  }\n}\n")
    bundle = Bundle("addk", scalar_inputs=[ScalarInput(0, [-5]), ScalarInput(1, [3])],
                    expected_outputs=[ExpectedOutput(0, [-2])])
    status, out, report = _run(tmp_path, dfg, bundle, capsys)
    assert status == 0, out


LOOM_DATA = DATA / "loom"


@pytest.mark.parametrize("dfg, bundle", [("sum_array", "sum-array-demo"),
                                         ("vecadd", "vecadd-demo")])
def test_loom_run_takes_loom_sim_bundles(tmp_path, capsys, dfg, bundle):
    """LOOM's own bundles, unchanged, on the DFG of the same C function."""
    status = main(["run", str(LOOM_DATA / f"{dfg}.dfg.mlir"),
                   "--bundle", str(LOOM_DATA / f"{bundle}.json"), "-o", str(tmp_path)])
    out = capsys.readouterr().out
    assert status == 0, out
    assert "PASS: results and memories match, quiescent" in out


def _bump_reference(a: list[int], ks: list[int]) -> tuple[list[int], list[int]]:
    """bump.c in Python: per-invocation sums and the array after the last."""
    a, sums = list(a), []
    for k in ks:
        a = [x + k for x in a]
        sums.append(sum(a))
    return sums, a


def _bump_bundle(ks: list[int], sums: list[int], after: list[int]) -> Bundle:
    return Bundle("bump", start_token_count=len(ks),
                  scalar_inputs=[ScalarInput(1, ks)],
                  memory_regions=[MemoryRegion(0, 4, [1, 2, 3, 4])],
                  expected_memory_regions=[MemoryRegion(0, 4, after)],
                  expected_outputs=[ExpectedOutput(0, sums)])


def test_invocations_run_back_to_back_on_persistent_memory(tmp_path, capsys):
    ks = [1, 2, -7]
    sums, after = _bump_reference([1, 2, 3, 4], ks)
    status, out, report = _run(tmp_path, DATA / "bump.dfg.mlir",
                               _bump_bundle(ks, sums, after), capsys)
    assert status == 0, out
    assert report["invocations_run"] == 3
    assert report["results"] == [[s & 0xFFFFFFFF] for s in sums]
    assert report["memories"]["0"] == [v & 0xFFFFFFFF for v in after]
    # per-channel traces are the concatenation over the invocations
    assert report["traces"]["arg1"] == [k & 0xFFFFFFFF for k in ks]
    assert report["traces"]["start"] == [None] * 3


def test_a_mismatch_names_its_invocation(tmp_path, capsys):
    ks = [1, 2, 3]
    sums, after = _bump_reference([1, 2, 3, 4], ks)
    sums[1] += 1
    status, out, _ = _run(tmp_path, DATA / "bump.dfg.mlir", _bump_bundle(ks, sums, after), capsys)
    assert status == 1
    assert f"invocation 1: result 0: expected {sums[1]}, got {sums[1] - 1}" in out
    assert "invocation 0:" not in out and "invocation 2:" not in out


def test_quiescence_is_checked_after_each_invocation():
    """A token left over by invocation 0 ends the run there: every invocation
    must leave the graph as it found it (seed 001), or the next one would
    start from a wrong state."""
    from loom.golden.graph import Graph
    from loom.golden.ops.func_return import Return
    from loom.golden.ops.join import Join
    from loom.golden.run import run_invocations

    g = Graph("left")
    x, y, never, j = (g.channel(n, w) for n, w in (("x", 32), ("y", 32), ("never", 0), ("j", 0)))
    g.inputs = [x, y]
    g.add("join0", "handshake.join", Join(2), [y, never], [j])   # y's token stays
    ret = g.add("ret", "handshake.return", Return(1), [x], [])
    bundle = Bundle("left", start_token_count=2,
                    scalar_inputs=[ScalarInput(0, [1, 2]), ScalarInput(1, [3, 4])])
    ex = run_invocations(g, ret, bundle, 1000)
    assert not ex.returned and ex.results == [[1]]
    assert ex.problems[0].startswith("invocation 0: leftover: channel 'y'")
    assert ex.problems[-1] == "invocations 1 to 1 not run"
