"""Mutants of the compiler's Python (issue 36's lowering and golden-model
areas), made by cosmic-ray's operators (pinned in pyproject.toml): each is
one fault of one operator at one place, applied as a text edit so that a
campaign (loom.mutation.campaign) puts it in and takes it out like a
template's.

An area is a package and the tests that judge its mutants:

- `lowering` (compiler/loom/lowering: the lowering rules, the join fan-in
  legalization, the memory ordering): tests/lowering, whose
  test_pipeline runs every kernel of kernels/ through the golden model
  against the native C run, and the lowering's unit tests against the
  seeds' examples;
- `golden` (compiler/loom/golden/ops: the golden model's op rules):
  tests/golden (each op against native C on random and corner operands,
  the primitives against the seeds' and CIRCT's examples) and
  tests/lowering (every kernel's golden run against native C, with and
  without the load-store queue and dependence analysis).

A fault inside a type annotation is never made: the modules postpone their
annotations (`from __future__ import annotations`), so it could not change
anything a check sees.
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

from cosmic_ray.ast import ast_nodes, get_ast
from cosmic_ray.mutating import mutate_code
from cosmic_ray.plugins import get_operator, operator_names

from loom.diagnostics import Location, LoomError
from loom.mutation.template_mutants import Mutant


@dataclass(frozen=True)
class Area:
    package: str
    """The folder under compiler/loom whose modules are mutated."""
    judge: tuple[str, ...]
    """The test paths (from the repository's root) that judge a mutant."""


AREAS = {
    "lowering": Area("lowering", ("tests/lowering",)),
    "golden": Area("golden/ops", ("tests/golden", "tests/lowering")),
}
FOLDER = "compiler/loom"
"""Where a Python mutant's file lies (Mutant.folder)."""

KINDS = {
    "ReplaceBinaryOperator": "binary", "ReplaceComparisonOperator": "compare",
    "ReplaceUnaryOperator": "unary", "AddNot": "not", "NumberReplacer": "number",
    "ReplaceAndWithOr": "boolean", "ReplaceOrWithAnd": "boolean",
    "ReplaceTrueWithFalse": "boolean", "ReplaceFalseWithTrue": "boolean",
    "ZeroIterationForLoop": "loop", "ReplaceBreakWithContinue": "loop",
    "ReplaceContinueWithBreak": "loop",
}
"""cosmic-ray's operators by our name for their kind (the table's rows);
the others (removing a decorator, replacing an exception, the operators
that need arguments) are not used."""
PYTHON_OPERATORS = tuple(dict.fromkeys(KINDS.values()))


def _kind(name: str) -> str | None:
    """Our kind of cosmic-ray operator `name` (`core/ReplaceBinaryOperator_Add_Sub`)."""
    return KINDS.get(name.split("/")[-1].split("_")[0])


def area_mutants(root: Path, area: str, operators: tuple[str, ...] = PYTHON_OPERATORS
                 ) -> list[Mutant]:
    """Every mutant of area `area`'s modules by `operators` (our kinds), by
    file and place."""
    folder = root / FOLDER / AREAS[area].package
    if not folder.is_dir():
        raise LoomError(f"no {FOLDER}/{AREAS[area].package} here: run loom mutate from the "
                        "repository's root", Location(str(root)))
    out: list[Mutant] = []
    for path in sorted(folder.glob("*.py")):
        out += module_mutants(f"{AREAS[area].package}/{path.name}", path.read_text(), operators)
    return out


def module_mutants(name: str, code: str, operators: tuple[str, ...] = PYTHON_OPERATORS
                   ) -> list[Mutant]:
    """The mutants of one module's `code` (`name`: its path under compiler/loom),
    and of the Python expressions its op rules hold in strings (`expr = "a +
    b"`: the golden model compiles them, loom.golden.codegen), by place."""
    edits = list(_edits(code, operators))
    for leaf, text in _embedded(code):
        base = _offset(code, leaf.start_pos) + 1   # past the opening quote
        edits += [(base + at, old, new, kind) for at, old, new, kind in _edits(text, operators)]
    found: dict[str, Mutant] = {}
    for at, old, new, kind in edits:
        line = code.count("\n", 0, at) + 1
        column = at - (code.rfind("\n", 0, at) + 1) + 1
        m = Mutant(name, at, old, new, kind, line, column, folder=FOLDER)
        found.setdefault(m.id, m)
    return sorted(found.values(), key=lambda m: (m.offset, m.operator, m.replacement))


def _edits(code: str, operators: tuple[str, ...]) -> Iterator[tuple[int, str, str, str]]:
    """(offset, original, replacement, kind) of each of cosmic-ray's mutants of `code`."""
    tree = get_ast(code)
    for op_name in operator_names():
        kind = _kind(op_name)
        cls = get_operator(op_name)
        if kind not in operators or cls.arguments():
            continue
        op = cls()
        # numbered as cosmic-ray numbers them: every position in walk order
        positions = ((node, pos) for node in ast_nodes(tree) for pos in op.mutation_positions(node))
        for occurrence, (node, _) in enumerate(positions):
            if _in_annotation(node):
                continue
            mutated = mutate_code(code, op, occurrence)
            if mutated is not None and mutated != code:
                yield (*_span(code, mutated, node), kind)


def _embedded(code: str) -> Iterator[tuple[object, str]]:
    """(string leaf, its text) of each `expr = "<Python expression>"` in `code`,
    written plainly (no prefix, no escape) on one line."""
    for node in ast_nodes(get_ast(code)):
        if node.type != "expr_stmt" or len(node.children) != 3:
            continue
        target, _, value = node.children
        if getattr(target, "value", None) != "expr" or value.type != "string":
            continue
        quoted = value.value
        if quoted[0] in "'\"" and quoted[-1] == quoted[0] and "\\" not in quoted \
                and len(quoted) > 2 and quoted[1] != quoted[0]:
            yield value, quoted[1:-1]


def _in_annotation(node) -> bool:
    """Whether parso node `node` lies in a parameter's, a return's or an
    assignment's annotation."""
    child, parent = node, node.parent
    while parent is not None:
        if parent.type == "annassign" and parent.children.index(child) == 1:
            return True   # x: <annotation> = ...
        if parent.type == "tfpdef" and parent.children.index(child) == 2:
            return True   # a: <annotation>
        if parent.type == "funcdef" and getattr(parent, "annotation", None) is child:
            return True   # -> <annotation>
        child, parent = parent, parent.parent
    return False


def _span(code: str, mutated: str, node) -> tuple[int, str, str]:
    """(offset, original, replacement) that turn `code` into `mutated`: the
    mutated node's span when it is one line (the whole operator, comparison
    or literal, as a reader names it), else the differing span (a
    statement's node spans its block)."""
    start, end_a = _offset(code, node.start_pos), _offset(code, node.end_pos)
    end_b = len(mutated) - (len(code) - end_a)
    if node.start_pos[0] != node.end_pos[0] or not (
            code[:start] == mutated[:start] and code[end_a:] == mutated[end_b:]):
        start = 0
        while start < min(len(code), len(mutated)) and code[start] == mutated[start]:
            start += 1
        end_a, end_b = len(code), len(mutated)
        while end_a > start and end_b > start and code[end_a - 1] == mutated[end_b - 1]:
            end_a, end_b = end_a - 1, end_b - 1
    return start, code[start:end_a], mutated[start:end_b]


def _offset(code: str, pos: tuple[int, int]) -> int:
    """The offset of parso position (line from 1, column from 0) in `code`."""
    line, column = pos
    at = 0
    for _ in range(line - 1):
        at = code.index("\n", at) + 1
    return at + column


__all__ = ["AREAS", "PYTHON_OPERATORS", "Area", "area_mutants", "module_mutants"]
