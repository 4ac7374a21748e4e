"""Stable names for a DFG's ops and channels, shared by the golden model and the RTL.

Both sides must call a channel by the same name so traces can be compared
channel by channel. Names depend only on the op order in the function body:
an op is `<kind><k>` (k counts ops of that kind: `fork0`, `addi3`), a result
is the op's label (one result) or `<label>_<i>`, unless the value has a name
hint (`%after_cond`), which wins when it is unique. All names are valid
SystemVerilog identifiers.
"""

from __future__ import annotations

import re
from collections import Counter
from dataclasses import dataclass

from xdsl.ir import Block, Operation, SSAValue

_UNSAFE = re.compile(r"[^A-Za-z0-9_]")


def _sanitize(name: str) -> str:
    name = _UNSAFE.sub("_", name)
    return name if name and not name[0].isdigit() else f"v_{name}"


def op_kind(op: Operation) -> str:
    """`handshake.cond_br` -> `cond_br`, `dataflow.stream` -> `stream`."""
    return op.name.split(".", 1)[-1]


@dataclass
class DfgNames:
    ops: dict[Operation, str]
    values: dict[SSAValue, str]


def name_dfg(body: Block) -> DfgNames:
    ops: dict[Operation, str] = {}
    kinds: Counter[str] = Counter()
    for op in body.ops:
        kind = _sanitize(op_kind(op))
        ops[op] = f"{kind}{kinds[kind]}"
        kinds[kind] += 1

    hints = Counter(_sanitize(v.name_hint) for v in _values(body) if v.name_hint)
    taken: set[str] = set()  # channel names; op labels are a separate namespace
    values: dict[SSAValue, str] = {}
    for i, arg in enumerate(body.args):
        values[arg] = _unique(_pick(arg, f"arg{i}", hints), taken)
    for op in body.ops:
        label = ops[op]
        for i, res in enumerate(op.results):
            default = label if len(op.results) == 1 else f"{label}_{i}"
            values[res] = _unique(_pick(res, default, hints), taken)
    return DfgNames(ops, values)


def _values(body: Block) -> list[SSAValue]:
    return [*body.args, *(r for op in body.ops for r in op.results)]


def _pick(value: SSAValue, default: str, hints: Counter[str]) -> str:
    if value.name_hint:
        hint = _sanitize(value.name_hint)
        if hints[hint] == 1:
            return hint
    return default


def _unique(name: str, taken: set[str]) -> str:
    candidate, k = name, 1
    while candidate in taken:
        candidate = f"{name}_{k}"
        k += 1
    taken.add(candidate)
    return candidate
