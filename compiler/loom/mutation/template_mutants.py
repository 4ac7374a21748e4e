"""Mutants of the SystemVerilog templates: one small fault each, in the SV
text of a Jinja2 template (issue 36, area `rtl`).

The operators are the faults an RTL designer makes and mcy's examples seed:

- `logic`: `&&` <-> `||`, binary `&` <-> `|`;
- `compare`: `==` <-> `!=`, `<` <-> `<=`, `>` <-> `>=` (a `<=` that is a
  nonblocking assignment is left alone);
- `negation`: a `~` or `!` dropped;
- `term`: one operand dropped from the top-level `&`/`|`/`&&`/`||` of an
  `assign` to a valid or ready signal;
- `reset`: a one-bit literal flipped (`1'b0` <-> `1'b1`, `'0` <-> `'1`);
- `constant`: a sized decimal literal (`4'd3`) off by one.

Only SV text is mutated: Jinja2 tags (`{{ }}`, `{% %}`, `{# #}`) and SV
comments are masked first, so a mutant never breaks the template itself
and never lands in a comment. Sites are listed in text order, so a
template's mutants and their ids are the same on every run.
"""

from __future__ import annotations

import re
from dataclasses import asdict, dataclass

OPERATORS = ("logic", "compare", "negation", "term", "reset", "constant")

_MASKED = re.compile(r"\{\{.*?\}\}|\{%.*?%\}|\{#.*?#\}|//[^\n]*|/\*.*?\*/", re.S)
_SWAPS: dict[str, tuple[tuple[re.Pattern[str], dict[str, str]], ...]] = {
    "logic": ((re.compile(r"&&|\|\|"), {"&&": "||", "||": "&&"}),
              (re.compile(r"(?<![&|~^])[&|](?![&|=])"), {"&": "|", "|": "&"})),
    "compare": ((re.compile(r"==|!="), {"==": "!=", "!=": "=="}),
                (re.compile(r"(?<![<>=!])(<=|<|>=|>)(?![<>=])"),
                 {"<": "<=", "<=": "<", ">": ">=", ">=": ">"})),
    "reset": ((re.compile(r"1'b[01]|(?<![\w'])'[01]\b"),
               {"1'b0": "1'b1", "1'b1": "1'b0", "'0": "'1", "'1": "'0"}),),
}
_NEGATION = re.compile(r"[~!](?=\s*[\w(])")
_SIZED = re.compile(r"\b(\d+)'d(\d+)\b")
_INDEX = r"\[(?:[^\[\]]|\[[^\]]*\])*\]"   # [a], [b[c]:0]
_NONBLOCKING = re.compile(r"(?:^|[;)]|\bbegin\b|\belse\b)\s*[A-Za-z_]\w*(?:\s*" + _INDEX + r")*\s*$")
_HANDSHAKE_ASSIGN = re.compile(r"\bassign\s+\w*(?:valid|ready)\w*(?:\s*\[[^\]]*\])?\s*=([^;]*);")


@dataclass(frozen=True)
class Mutant:
    """One fault in one template (or one Python module: python_mutants.py)."""

    template: str
    """The file's name under `folder` (templates/<template>)."""
    offset: int
    """Where the replaced text starts in the template."""
    original: str
    replacement: str
    operator: str
    line: int
    column: int
    folder: str = "templates"
    """The folder of `template`, from the repository's root."""

    @property
    def id(self) -> str:
        """Stable across runs: the template, the place and the operator."""
        return f"{self.template}:{self.line}:{self.column}:{self.operator}:{self.replacement!r}"

    def apply(self, text: str) -> str:
        """The template `text` with this fault in it."""
        end = self.offset + len(self.original)
        if text[self.offset:end] != self.original:
            raise ValueError(f"{self.id}: the template changed since the mutant was made")
        return text[:self.offset] + self.replacement + text[end:]

    def to_json(self) -> dict[str, object]:
        return {"id": self.id, **asdict(self)}


def template_mutants(template: str, text: str,
                     operators: tuple[str, ...] = OPERATORS) -> list[Mutant]:
    """Every mutant of `text` (the template named `template`) by `operators`, in text order."""
    code = _mask(text)
    sites: list[tuple[int, str, str, str]] = []
    for operator in operators:
        sites += [(at, old, new, operator) for at, old, new in _sites(operator, code, text)]
    sites.sort(key=lambda s: (s[0], OPERATORS.index(s[3]), s[2]))
    return [Mutant(template, at, old, new, op, *_position(text, at)) for at, old, new, op in sites]


def _mask(text: str) -> str:
    """`text` with Jinja2 tags and SV comments blanked (same length, newlines kept)."""
    return _MASKED.sub(lambda m: re.sub(r"[^\n]", " ", m.group()), text)


def _sites(operator: str, code: str, text: str) -> list[tuple[int, str, str]]:
    if operator in _SWAPS:
        out = []
        for pattern, table in _SWAPS[operator]:
            for m in pattern.finditer(code):
                if m.group() == "<=" and _is_assignment(code, m.start()):
                    continue
                out.append((m.start(), m.group(), table[m.group()]))
        return out
    if operator == "negation":
        return [(m.start(), m.group(), "") for m in _NEGATION.finditer(code)
                if code[m.start():m.start() + 2] != "!="]
    if operator == "term":
        return _dropped_terms(code, text)
    if operator == "constant":
        return [(m.start(), m.group(), f"{m.group(1)}'d{(int(m.group(2)) + 1) % 2**int(m.group(1))}")
                for m in _SIZED.finditer(code)]
    raise ValueError(f"unknown mutation operator '{operator}' (one of {', '.join(OPERATORS)})")


def _is_assignment(code: str, at: int) -> bool:
    """Whether the `<=` at `at` is a nonblocking assignment: an lvalue alone
    before it since the statement began."""
    start = code.rfind("\n", 0, at) + 1
    return bool(_NONBLOCKING.search(code[start:at]))


def _dropped_terms(code: str, text: str) -> list[tuple[int, str, str]]:
    """For each `assign <..valid..|..ready..> = a OP b OP c;` whose OP is one
    top-level operator, the expression with one operand dropped (cut where
    the masked `code` says, written from the template's `text`)."""
    out = []
    for m in _HANDSHAKE_ASSIGN.finditer(code):
        at, end = m.start(1), m.end(1)
        split = _top_level_split(m.group(1))
        if split is None:
            continue
        op, cuts = split
        expr = text[at:end]
        bounds = [0, *(c for cut in cuts for c in cut), len(expr)]
        terms = [expr[bounds[k]:bounds[k + 1]].strip() for k in range(0, len(bounds), 2)]
        for k in range(len(terms)):
            out.append((at, expr, " " + f" {op} ".join(t for j, t in enumerate(terms) if j != k)))
    return out


def _top_level_split(expr: str) -> tuple[str, list[tuple[int, int]]] | None:
    """The one top-level logic operator of `expr` and where it stands (each
    occurrence's start and end), or None (none, several kinds mixed, a
    reduction, or a conditional)."""
    depth, cuts, kinds = 0, [], set()
    k = 0
    while k < len(expr):
        c = expr[k]
        if c in "([{":
            depth += 1
        elif c in ")]}":
            depth -= 1
        elif c == "?" and depth == 0:
            return None
        elif depth == 0 and c in "&|" and expr[k - 1:k] not in ("~", "^") \
                and expr[k + 1:k + 2] != "=":
            op = expr[k:k + 2] if expr[k + 1:k + 2] == c else c
            if not expr[:k].strip():
                return None   # a reduction operator
            kinds.add(op)
            cuts.append((k, k + len(op)))
            k += len(op)
            continue
        k += 1
    if len(kinds) != 1:
        return None
    return kinds.pop(), cuts


def _position(text: str, at: int) -> tuple[int, int]:
    line = text.count("\n", 0, at) + 1
    return line, at - (text.rfind("\n", 0, at) + 1) + 1


__all__ = ["OPERATORS", "Mutant", "template_mutants"]
