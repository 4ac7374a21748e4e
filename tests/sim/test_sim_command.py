"""`loom sim` end to end from the command line: verdict line, report, waves."""

import json
from pathlib import Path

import pytest

from loom.cli import main


def test_loom_sim_with_waves_writes_report_and_fst(tmp_path, capsys):
    status = main(["sim", "gcd", "--seed", "5", "--waves", "-o", str(tmp_path)])
    out = capsys.readouterr().out
    assert status == 0, out
    assert "PASS: gcd seed 5:" in out and "cycles" in out
    report = json.loads((tmp_path / "gcd.sim.json").read_text())
    assert report["status"] == "pass" and report["seed"] == 5 and report["cycles"] > 0
    waves = tmp_path / "sim" / "seed5" / "dump.fst"
    assert report["artifacts"]["waves"] == str(waves)
    assert waves.exists() and waves.read_bytes()[:1] != b"$"   # FST is binary, not VCD text
    assert f"waves {waves}" in out


def test_loom_sim_into_a_relative_directory(tmp_path, monkeypatch, capsys):
    """make sim passes -o gen/<name>: a path relative to the working directory."""
    kernel = Path(__file__).resolve().parents[2] / "kernels" / "sum_n.c"
    monkeypatch.chdir(tmp_path)
    status = main(["sim", str(kernel), "-o", "gen/sum_n"])
    out = capsys.readouterr().out
    assert status == 0, out
    assert json.loads(Path("gen/sum_n/sum_n.sim.json").read_text())["status"] == "pass"


def test_loom_sim_bad_kernel_is_one_line(capsys):
    assert main(["sim", "no_such_kernel_qq"]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "error:" in err


def test_loom_sim_ideal_reports_its_cycles(tmp_path, capsys):
    assert main(["sim", "sum_n", "--ideal", "-o", str(tmp_path)]) == 0
    out = capsys.readouterr().out
    assert "PASS: sum_n ideal:" in out, out
    report = json.loads((tmp_path / "sum_n.sim.json").read_text())
    assert report["run"] == "ideal" and report["status"] == "pass"
    assert report["settings"] == {"in_idle_pct": 0, "out_ready_pct": 100, "mem_ready_pct": 100,
                                  "mem_max_latency": 1}
    assert report["tokens"] == report["golden_tokens"]


def test_loom_sim_ideal_and_seed_exclude_each_other(capsys):
    with pytest.raises(SystemExit) as exc:
        main(["sim", "sum_n", "--ideal", "--seed", "2"])
    assert exc.value.code == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "not allowed" in err


def test_loom_sim_takes_a_bundle(tmp_path, capsys):
    """--bundle replaces the native run: here n = 10 and an expectation one too high,
    which the golden model, run on the bundle's inputs, already refutes."""
    a = [(i % 17) * (i % 5) - 20 for i in range(512)]   # kernels/sum_n.c's main()
    bundle = {"case_name": "sum_n", "start_token_count": 1,
              "scalar_inputs": [{"arg_index": 1, "data": [10]}],
              "memory_regions": [{"memref_arg_index": 0, "elem_size_bytes": 4, "values": a}],
              "expected_memory_regions": [{"memref_arg_index": 0, "elem_size_bytes": 4,
                                           "values": a}],
              "expected_outputs": [{"result_index": 0, "data": [sum(a[:10]) + 1]}]}
    path = tmp_path / "n10.bundle.json"
    path.write_text(json.dumps(bundle))
    status = main(["sim", "sum_n", "--bundle", str(path), "--ideal", "-o", str(tmp_path / "o")])
    out = capsys.readouterr().out
    assert status == 1, out
    assert f"result 0: expected {sum(a[:10]) + 1}, got {sum(a[:10])}" in out, out
