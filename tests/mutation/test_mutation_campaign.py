"""The campaign's bookkeeping: which test judges a template, verdicts kept
and resumed, the table's counts; and one real kill on a unit."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from loom.cli import (CONFIG_MUTATION_OPERATORS, MUTATION_OPERATORS, PYTHON_MUTATION_AREAS,
                      PYTHON_MUTATION_OPERATORS, main)
from loom.diagnostics import LoomError
from loom.mutation.campaign import JUDGES, Verdict, check_for, judged, reviewed, run_campaign, table
from loom.mutation.config_mutants import CONFIG_OPERATORS
from loom.mutation.python_mutants import AREAS, PYTHON_OPERATORS
from loom.mutation.template_mutants import OPERATORS, template_mutants

ROOT = Path(__file__).resolve().parents[2]


def test_a_template_is_judged_by_the_test_module_named_for_it():
    assert check_for("oehb.sv.j2", ROOT) == "tests/rtl/test_oehb.py"
    assert check_for("fabric_fifo.sv.j2", ROOT) == "tests/fabric/test_fabric_fifo.py"
    assert check_for("no_such_unit.sv.j2", ROOT) is None


def test_every_template_has_a_judge_and_every_judge_exists():
    """A template without a test module of its name is judged by JUDGES'
    tests (a family's module, the includers' tests, a whole design's run);
    no template is left without one, and each path or node id names a test
    pytest collects."""
    stems = sorted(p.name.removesuffix(".sv.j2") for p in (ROOT / "templates").glob("*.sv.j2"))
    judges = {stem: check_for(f"{stem}.sv.j2", ROOT) for stem in stems}
    assert [s for s, j in judges.items() if j is None] == []
    assert set(JUDGES) <= set(stems)
    assert judges["fabric_memory_lanes"] == ("tests/fabric/test_fabric_memory_lanes.py "
                                             + JUDGES["fabric_memory_lanes"])   # own module first
    for stem, judge in JUDGES.items():
        for test in judge.split():
            module, _, name = test.partition("::")
            assert (ROOT / module).is_file(), test
            if name:
                function = name.partition("[")[0]
                assert f"def {function}(" in (ROOT / module).read_text(), test
    for kernel in {t.partition("[")[2].rstrip("]") for t in JUDGES["axi_master"].split()}:
        assert (ROOT / "kernels" / f"{kernel}.c").is_file(), kernel


def test_unjudged_mutants_are_recorded_once_and_a_second_run_resumes(tmp_path):
    text = (ROOT / "templates" / "float_macros.sv.j2").read_text()
    mutants = template_mutants("float_macros.sv.j2", text)[:3]
    out = tmp_path / "mutants.jsonl"
    first = run_campaign(ROOT, mutants, out, judge=lambda m: None)
    assert [v.verdict for v in first] == ["no-check"] * 3
    assert [v.id for v in first] == [m.id for m in mutants]
    again = run_campaign(ROOT, mutants, out, judge=lambda m: None)
    assert again == first and len(out.read_text().splitlines()) == 3
    assert judged(out) == {v.id: v for v in first}
    assert all(json.loads(line)["template"] == "float_macros.sv.j2"
               for line in out.read_text().splitlines())


def test_a_reviewed_equivalent_is_recorded_with_its_reason_and_not_run(tmp_path):
    # oehb has a test module: a mutant the review file names is not run
    # (no workspace is made), the others would be
    made = template_mutants("oehb.sv.j2", (ROOT / "templates" / "oehb.sv.j2").read_text())
    review = tmp_path / "equivalent.json"
    review.write_text(json.dumps({made[0].id: "reviewed: a redundant term"}))
    (v,) = run_campaign(ROOT, made[:1], tmp_path / "mutants.jsonl",
                        equivalent=reviewed(review))
    assert (v.verdict, v.reason, v.check) == ("equivalent", "reviewed: a redundant term", "")
    assert not list(tmp_path.glob("loom-mutate-*"))
    review.write_text(json.dumps({made[0].id: ""}))
    with pytest.raises(LoomError, match="non-empty string"):
        reviewed(review)


def _verdict(op: str, verdict: str) -> Verdict:
    return Verdict(f"t:{op}:{verdict}", "t.sv.j2", 1, 1, op, "&", "|", verdict)


def test_the_table_counts_and_rates_the_mutants_judged_in_time():
    verdicts = [_verdict("logic", "killed"), _verdict("logic", "killed"),
                _verdict("logic", "survived"), _verdict("reset", "timeout"),
                _verdict("reset", "killed")]
    lines = table(verdicts).splitlines()
    logic = next(line for line in lines if line.startswith("logic")).split()
    assert logic[1:] == ["2", "1", "0", "0", "0", "66.7", "%"]   # 2 of 3 judged in time
    everything = lines[-1].split()
    assert everything[:6] == ["all", "3", "1", "1", "0", "0"] and everything[6] == "75.0"


def test_the_command_lists_mutants_and_refuses_an_unknown_template(capsys, monkeypatch):
    monkeypatch.chdir(ROOT)
    assert main(["mutate", "--template", "oehb", "--list"]) == 0
    listed = capsys.readouterr().out.splitlines()
    made = template_mutants("oehb.sv.j2", (ROOT / "templates" / "oehb.sv.j2").read_text())
    assert listed == [f"{m.id}  {m.original!r} -> {m.replacement!r}" for m in made] + \
        [f"{len(made)} mutant(s)"]
    assert main(["mutate", "--template", "nosuch", "--list"]) == 2
    assert "error: no template 'nosuch.sv.j2'" in capsys.readouterr().err
    assert MUTATION_OPERATORS == OPERATORS and CONFIG_MUTATION_OPERATORS == CONFIG_OPERATORS
    assert PYTHON_MUTATION_OPERATORS == PYTHON_OPERATORS and PYTHON_MUTATION_AREAS == tuple(AREAS)


@pytest.mark.rtl
def test_a_reset_fault_in_a_buffer_is_killed_by_its_unit_test(tmp_path):
    # oehb's valid register reset to 1 offers a token nobody sent: the
    # unit test's scoreboard sees it
    text = (ROOT / "templates" / "oehb.sv.j2").read_text()
    [m] = template_mutants("oehb.sv.j2", text, ("reset",))
    [v] = run_campaign(ROOT, [m], tmp_path / "mutants.jsonl")
    assert (v.verdict, v.check) == ("killed", "tests/rtl/test_oehb.py")
    assert v.killed_by.startswith("tests/rtl/test_oehb.py::")


def test_a_survivor_carries_its_reviewed_reason(tmp_path):
    # a judge that cannot see the mutant (a test of the campaign's own
    # tables): it survives, with the reason --survivors gives it, or none
    text = (ROOT / "templates" / "float_macros.sv.j2").read_text()
    first, second = template_mutants("float_macros.sv.j2", text)[:2]
    blind = ("tests/mutation/test_mutation_campaign.py::"
             "test_unjudged_mutants_are_recorded_once_and_a_second_run_resumes")
    verdicts = run_campaign(ROOT, [first, second], tmp_path / "mutants.jsonl",
                            judge=lambda m: blind, survivors={first.id: "no check reads it"})
    assert [(v.verdict, v.reason) for v in verdicts] == [("survived", "no check reads it"),
                                                          ("survived", "")]


def test_a_damaged_verdicts_file_is_one_line_and_exit_2(tmp_path, capsys, monkeypatch):
    monkeypatch.chdir(ROOT)
    out = tmp_path / "mutants.jsonl"
    out.write_text('{"id": "x"}\nnot json\n')
    assert main(["mutate", "--template", "float_macros", "-o", str(tmp_path)]) == 2
    err = capsys.readouterr().err
    assert err.startswith(f"{out}:1: error: not a verdict of loom mutate") and err.count("\n") == 1

