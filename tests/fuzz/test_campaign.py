"""Random C kernels through every stage (issue 10): 20 fixed seeds in make test,
`make fuzz N=1000` for long runs. Each stage is checked against its own
reference (UBSan, the native run, the golden model); see loom.fuzz.campaign."""

from __future__ import annotations

from pathlib import Path

import pytest

from loom.fuzz.campaign import FuzzProgram, run_program, run_seed_program
from loom.fuzz.generator import SIZES

ROOT = Path(__file__).resolve().parents[2]
WORK = ROOT / "gen" / "test_fuzz"


@pytest.mark.parametrize("seed", range(20))
def test_random_kernel_passes_every_stage(seed):
    result = run_seed_program(seed, WORK, config=SIZES["small"])
    assert result.outcome == "pass", f"{result.name}: {result.outcome}: {result.detail}"
    assert len(result.cycles) == 2


def _program(name: str, body: str) -> FuzzProgram:
    return FuzzProgram(name, -1, "#include <stdint.h>\n" + body)


def test_undefined_behaviour_is_caught_before_loom_runs(tmp_path):
    prog = _program("ovf", "int ovf(int x) { return x + 2147483647; }\n"
                           "int main(void) { return ovf(5) == 0; }\n")
    result = run_program(prog, tmp_path, rtl=False)
    assert result.outcome == "ub"
    assert result.detail.startswith("signed integer overflow")


def test_only_failing_programs_keep_their_directory(tmp_path, monkeypatch):
    import loom.fuzz.campaign as campaign
    prog = _program("id", "int id(int x) { return x; }\n"
                          "int main(void) { return id(0); }\n")
    assert run_program(prog, tmp_path / "keep", rtl=False, keep=True).outcome == "pass"
    assert (tmp_path / "keep" / "id" / "id.c").exists()

    def golden_fails(src, out, rtl):
        raise campaign._Stop("golden-fail", "stand-in for a defect")    # noqa: SLF001

    monkeypatch.setattr(campaign, "_run_stages", golden_fails)
    failed = run_program(prog, tmp_path / "fail", rtl=False)
    assert failed.failed and (tmp_path / "fail" / "id" / "id.c").exists()


def test_a_stated_limitation_is_rejected_not_failed(tmp_path):
    prog = _program("flt", "long double flt(long double x) { return x * 2.0L; }\n"
                           "int main(void) { return flt(1.0L) != 2.0L; }\n")
    result = run_program(prog, tmp_path, rtl=False)
    assert result.outcome == "rejected"
    assert "floating-point" in result.detail and not result.failed
