"""Firing rules: how a golden op states its semantics, once, as code fragments.

An op's firing rules (Actor.rules) are tried in order; a rule whose `guard`
holds fires by running its `body`. The fragments are Python in a small
vocabulary, so the same text serves two uses:

- `compile_fire` turns them into the op's `fire` (one firing on Channel
  objects: the RTL unit tests and `drive_actor`);
- golden/codegen.py inlines every node's rules into one function per graph,
  with channels and op state as local variables (the scheduler's fast path:
  no Python call, object or attribute lookup per token).

Names in a fragment:
  in<i>, out<j>   operand i's / result j's queue (truth: it holds a token;
                  in<i>[0]: its oldest token, not taken)
  pop<i>()        takes operand i's oldest token
  push<j>(x)      emits x on result j; a statement on a line of its own
  self.<attr>     the actor's attribute (an attribute a body assigns must be
                  listed in the class's `assigns`)
Other names are the body's own temporaries (lower case, no leading
underscore) or builtins.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from functools import lru_cache
from typing import Any

IN = re.compile(r"\bin(\d+)\b")
OUT = re.compile(r"\bout(\d+)\b")
POP = re.compile(r"\bpop(\d+)\(")
PUSH_LINE = re.compile(r"^(\s*)push(\d+)\((.*)\)\s*$")
PUSH = re.compile(r"\bpush(\d+)\(")
SELF = re.compile(r"\bself\.(\w+)")


@dataclass(frozen=True)
class Rule:
    guard: str                  # a Python expression: the rule can fire
    body: tuple[str, ...]       # statements (one a line): one firing


def rule(guard: str, *body: str) -> Rule:
    return Rule(guard, tuple(body))


def all_of(terms: Sequence[str]) -> str:
    """A guard that holds when every term does (`True` for none)."""
    return " and ".join(terms) or "True"


def ready(indices: Sequence[int]) -> str:
    """The guard 'operands `indices` all hold a token'."""
    return all_of([f"in{i}" for i in indices])


FireFn = Callable[[Any, Sequence[Any], Sequence[Any]], bool]


def _bindings(text: str) -> list[str]:
    """The fire function's prologue: only the names the rules use."""
    lines = [f"in{i} = ins[{i}].q" for i in sorted({int(m) for m in IN.findall(text)})]
    lines += [f"out{j} = outs[{j}].q" for j in sorted({int(m) for m in OUT.findall(text)})]
    lines += [f"pop{i} = ins[{i}].pop" for i in sorted({int(m) for m in POP.findall(text)})]
    lines += [f"push{j} = outs[{j}].push" for j in sorted({int(m) for m in PUSH.findall(text)})]
    return lines


@lru_cache(maxsize=None)
def compile_fire(rules: tuple[Rule, ...]) -> FireFn:
    """fire(self, ins, outs): the first rule whose guard holds fires once
    (True); none can (False)."""
    text = "\n".join(r.guard + "\n" + "\n".join(r.body) for r in rules)
    src = ["def fire(self, ins, outs):"]
    src += [f"    {line}" for line in _bindings(text)]
    for r in rules:
        check_body(r)
        src.append(f"    if {r.guard}:")
        src += [f"        {line}" for line in r.body]
        src.append("        return True")
    src.append("    return False")
    namespace: dict[str, Any] = {}
    exec(compile("\n".join(src), "<golden rules>", "exec"), namespace)
    return namespace["fire"]


def check_body(r: Rule) -> None:
    """A push must be a statement of its own (golden/codegen.py expands it)."""
    for line in r.body:
        if PUSH.search(line) and not PUSH_LINE.match(line):
            raise ValueError(f"push must be a statement on its own line: {line!r}")
