"""`loom sim K --adg A`: a kernel mapped onto a fabric preset runs on the
configured fabric RTL; every DFG edge is checked against the golden model
where its route ends, results and memories against the native C run. The
fabric build (gen/fabric_build/<adg>, about 5 minutes for an 8x8 preset on
this machine) is shared by every kernel and test."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

from loom.bundle import load_bundle
from loom.cli import main
from loom.sim.fabric_harness import read_outputs

PRESET = "chess-8x8-ext1"
"""sum_n's smallest preset (loom map sum_n --adg auto)."""


def _sum_n_native(n: int = 300) -> int:
    """kernels/sum_n.c's result for n, from its C source's definitions (its
    main invokes it with n = 300, 0 and 1)."""
    return sum((i % 17) * (i % 5) - 20 for i in range(n))


KERNELS = ["sum_n", "crc32", "gcd_sub", "factmod"]
"""Kernels that map onto PRESET: one build, each kernel its own config
(gcd_sub and factmod have no memory and loop long without reaching a port)."""


@pytest.mark.rtl
@pytest.mark.slow   # the first build of an 8x8 fabric takes minutes
@pytest.mark.parametrize("seed", [1, 2])
@pytest.mark.parametrize("kernel", KERNELS)
def test_kernels_run_on_one_fabric_under_stall_seeds(tmp_path, capsys, kernel, seed):
    status = main(["sim", kernel, "--adg", PRESET, "--seed", str(seed), "-o", str(tmp_path)])
    out = capsys.readouterr().out
    assert status == 0, out
    assert f"PASS: {kernel} on {PRESET} seed{seed}:" in out
    report = json.loads((tmp_path / f"{kernel}.{PRESET}.sim.json").read_text())
    assert report["status"] == "pass" and report["sim_status"] == "finished"
    assert report["config_words"] > 0
    # every routed DFG edge of map.json was compared where its route ends
    doc_map = json.loads((tmp_path / f"{kernel}.{PRESET}.map.json").read_text())
    # (a memref's edge binds the memory's own port: path [p, p], no route)
    routed = [r for r in doc_map["edge_routings"] if r["kind"] == "routed"
              and len(set(r["path"])) > 1]
    assert report["edges"]["observed"] == len(routed) and report["edges"]["unobserved"] == []
    assert f"{len(routed)} DFG edges compared where their routes end" in out
    # the port map.txt binds result 0 to carried the native run's result
    # (output sentinels in result order: result 0, then the done token)
    map_text = (tmp_path / f"{kernel}.{PRESET}.map.txt").read_text()
    sentinels = re.findall(r"\(output sentinel\) -> ADG\[\d+\] module_out_(\d+)", map_text)
    outputs = read_outputs(Path(report["artifacts"]["outputs"]))
    native = load_bundle(tmp_path / f"{kernel}.bundle.json").expected_outputs[0]
    doc = json.loads((tmp_path / f"{kernel}.bundle.json").read_text())
    width = int(doc["result_types"][0].removeprefix("i"))
    assert [v & (1 << width) - 1 for _, v in outputs[f"out{sentinels[0]}"]] == [
        x & (1 << width) - 1 for x in native.data]
    if kernel == "sum_n":   # and that is the C program's value
        assert native.data == [_sum_n_native(), 0, _sum_n_native(1)]


@pytest.mark.rtl
@pytest.mark.slow
def test_a_wrong_expectation_fails_on_the_fabric(tmp_path, capsys):
    """The checker is not vacuous: an expectation one off fails, naming both values."""
    main(["run", "sum_n", "-o", str(tmp_path / "ref")])
    capsys.readouterr()
    doc = json.loads((tmp_path / "ref" / "sum_n.bundle.json").read_text())
    wrong = [_sum_n_native() + 1, 0, _sum_n_native(1)]
    doc["expected_outputs"][0]["data"] = wrong
    bundle = tmp_path / "wrong.bundle.json"
    bundle.write_text(json.dumps(doc))
    assert load_bundle(bundle).expected_outputs[0].data == wrong
    status = main(["sim", "sum_n", "--adg", PRESET, "--bundle", str(bundle),
                   "-o", str(tmp_path / "sim")])
    out = capsys.readouterr().out
    assert status == 1, out
    assert f"result 0: expected {_sum_n_native() + 1}, got {_sum_n_native()}" in out


def test_a_kernel_that_does_not_map_gets_the_mappers_diagnosis(tmp_path, capsys):
    assert main(["sim", "sum_n", "--adg", "chess-2x2", "-o", str(tmp_path)]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "error: C1:" in err and "sum_n.c:" in err
