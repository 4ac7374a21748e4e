"""Mutants of the compiler's Python (loom.mutation.python_mutants): the
sites cosmic-ray's operators find in a module written here, written out by
hand, none in an annotation, the op rules' expressions held in strings
mutated too; and one real kill, in a copy of the sources."""

from __future__ import annotations

import ast
from pathlib import Path

from loom.mutation.campaign import run_campaign
from loom.mutation.python_mutants import AREAS, FOLDER, area_mutants, module_mutants

ROOT = Path(__file__).resolve().parents[2]

CODE = '''from __future__ import annotations


def f(a: int | None, b: list[int]) -> int | None:
    x: int | None = a
    for i in b:
        if a > 1 and i:
            return a + i
    return x


class R:
    expr = "(a - b) & self.mask"
'''

# cosmic-ray's binary operator replacement: each of these by every other one
BINARY = {"+", "-", "*", "/", "//", "%", "**", ">>", "<<", "&", "|", "^"}


def test_the_sites_are_those_found_by_hand():
    made = module_mutants("m.py", CODE)
    sites = {(m.line, m.column, m.operator, m.original) for m in made}
    assert {
        (6, 14, "loop", "b"),             # for i in b -> for i in []
        (7, 12, "compare", "a > 1"),
        (7, 16, "number", "1"),
        (7, 18, "boolean", "and"),
        (8, 22, "binary", "+"),
        (13, 16, "binary", "-"),          # inside the op rule's string
        (13, 21, "binary", "&"),
    } <= sites
    # the annotations of lines 4 and 5 are never evaluated: no mutant there
    assert {m.line for m in made} == {6, 7, 8, 13}
    plus = {m.replacement for m in made if (m.line, m.column) == (8, 22)}
    assert plus == BINARY - {"+"}


def test_a_mutant_changes_its_span_only_and_the_module_still_parses():
    for m in module_mutants("m.py", CODE):
        mutated = m.apply(CODE)
        ast.parse(mutated)
        assert mutated[:m.offset] == CODE[:m.offset]
        assert mutated.endswith(CODE[m.offset + len(m.original):])


def test_each_area_names_its_package_and_judges_that_exist():
    for area in AREAS.values():
        assert (ROOT / FOLDER / area.package).is_dir()
        assert all((ROOT / path).exists() for path in area.judge)


def test_a_golden_rule_fault_is_killed_by_its_test_against_c(tmp_path):
    # addi's rule `(a + b) & self.mask` with `-`: tests/golden/test_arith.py
    # compares each op with a C reference compiled from arith_ref.c
    path = ROOT / FOLDER / "golden/ops/arith.py"
    text = path.read_text()
    [m] = [m for m in module_mutants("golden/ops/arith.py", text, ("binary",))
           if text[m.offset - 3:m.offset + 4] == "(a + b)" and m.replacement == "-"]
    [v] = run_campaign(ROOT, [m], tmp_path / "mutants.jsonl",
                       judge=lambda _: "tests/golden/test_arith.py")
    assert v.verdict == "killed" and v.killed_by.startswith("tests/golden/test_arith.py::")
    assert path.read_text() == text   # the checkout is never touched


def test_the_areas_hold_hundreds_of_mutants():
    # issue 36 asks for 400 non-equivalent mutants across the areas
    assert len(area_mutants(ROOT, "lowering", ("loop",))) > 50
