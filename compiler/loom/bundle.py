"""The sim bundle (design.md section 7): one invocation's inputs and expectations.

JSON, a superset of LOOM's:
  case_name: str
  scalar_inputs: [{arg_index, data}]                    scalar parameters
  memory_regions: [{memref_arg_index, elem_size_bytes, values}]   arrays before the call
  expected_memory_regions: [same shape]                 arrays after the call
  expected_results: [{result_index, data}]              the return value(s)
Optional, ours: `arg_types` (["i32", "memref<16xi32>", ...]) and `result_types`.

`arg_index` / `memref_arg_index` count the top function's parameters in order.
Values are plain integers as C sees them (signed or unsigned as declared);
comparisons are on bit patterns of the element width, so -1 equals 0xffffffff
for a 32-bit element.
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from loom.diagnostics import LoomError, Location


@dataclass
class ScalarInput:
    arg_index: int
    data: int


@dataclass
class MemoryRegion:
    memref_arg_index: int
    elem_size_bytes: int
    values: list[int]


@dataclass
class ExpectedResult:
    result_index: int
    data: int


@dataclass
class Bundle:
    case_name: str
    scalar_inputs: list[ScalarInput] = field(default_factory=list)
    memory_regions: list[MemoryRegion] = field(default_factory=list)
    expected_memory_regions: list[MemoryRegion] = field(default_factory=list)
    expected_results: list[ExpectedResult] = field(default_factory=list)
    extra: dict[str, Any] = field(default_factory=dict)

    def scalar(self, arg_index: int) -> int | None:
        for s in self.scalar_inputs:
            if s.arg_index == arg_index:
                return s.data
        return None

    def region(self, arg_index: int) -> MemoryRegion | None:
        for r in self.memory_regions:
            if r.memref_arg_index == arg_index:
                return r
        return None

    def to_json(self) -> dict[str, Any]:
        out: dict[str, Any] = {
            "case_name": self.case_name,
            "scalar_inputs": [vars(s) for s in self.scalar_inputs],
            "memory_regions": [vars(r) for r in self.memory_regions],
            "expected_memory_regions": [vars(r) for r in self.expected_memory_regions],
            "expected_results": [vars(r) for r in self.expected_results],
        }
        out.update(self.extra)
        return out

    def save(self, path: str | Path) -> None:
        Path(path).write_text(json.dumps(self.to_json(), indent=1) + "\n")


_KNOWN = {"case_name", "scalar_inputs", "memory_regions",
          "expected_memory_regions", "expected_results"}


def _records(doc: dict[str, Any], key: str, cls: type, path: str) -> list[Any]:
    items = doc.get(key, [])
    if not isinstance(items, list):
        raise LoomError(f"bundle field '{key}' must be a list", Location(path))
    out = []
    for i, item in enumerate(items):
        try:
            rec = cls(**item)
        except TypeError as exc:
            raise LoomError(f"bundle field '{key}[{i}]' is malformed: {exc}", Location(path)) from None
        for name, value in vars(rec).items():
            ok = (all(isinstance(v, int) for v in value) if name == "values"
                  else isinstance(value, int))
            if not ok or isinstance(value, bool):
                raise LoomError(f"bundle field '{key}[{i}].{name}' must be "
                                f"{'a list of integers' if name == 'values' else 'an integer'}",
                                Location(path))
        out.append(rec)
    return out


def load_bundle(path: str | Path) -> Bundle:
    path = str(path)
    try:
        text = Path(path).read_text()
    except OSError as exc:
        raise LoomError(f"cannot read bundle: {exc.strerror}", Location(path)) from None
    try:
        doc = json.loads(text)
    except json.JSONDecodeError as exc:
        raise LoomError(f"bundle is not valid JSON: {exc.msg}",
                        Location(path, exc.lineno, exc.colno)) from None
    if not isinstance(doc, dict):
        raise LoomError("bundle must be a JSON object", Location(path))
    return Bundle(
        case_name=str(doc.get("case_name", Path(path).stem)),
        scalar_inputs=_records(doc, "scalar_inputs", ScalarInput, path),
        memory_regions=_records(doc, "memory_regions", MemoryRegion, path),
        expected_memory_regions=_records(doc, "expected_memory_regions", MemoryRegion, path),
        expected_results=_records(doc, "expected_results", ExpectedResult, path),
        extra={k: v for k, v in doc.items() if k not in _KNOWN},
    )


def bits(value: int, width: int) -> int:
    """The unsigned bit pattern of `value` in `width` bits."""
    return value & ((1 << width) - 1)


@dataclass
class Outcome:
    """What one execution (native, SCF reference, golden model, RTL) produced."""
    results: list[int]                      # bit patterns, one per result
    memories: dict[int, list[int]]          # memref_arg_index -> bit patterns
    result_widths: list[int] = field(default_factory=list)


def _as_signed(value: int, width: int) -> int:
    value = bits(value, width)
    return value - (1 << width) if width and value >> (width - 1) else value


def compare(bundle: Bundle, outcome: Outcome) -> list[str]:
    """Mismatches between an outcome and the bundle's expectations ([] when equal)."""
    problems: list[str] = []
    for exp in bundle.expected_results:
        i = exp.result_index
        if i >= len(outcome.results):
            problems.append(f"result {i}: expected {exp.data}, got nothing")
            continue
        w = outcome.result_widths[i] if i < len(outcome.result_widths) else 64
        if bits(exp.data, w) != bits(outcome.results[i], w):
            problems.append(f"result {i}: expected {_as_signed(exp.data, w)}, "
                            f"got {_as_signed(outcome.results[i], w)}")
    for region in bundle.expected_memory_regions:
        got = outcome.memories.get(region.memref_arg_index)
        if got is None:
            problems.append(f"memory arg {region.memref_arg_index}: not produced")
            continue
        w = 8 * region.elem_size_bytes
        for idx, (e, g) in enumerate(zip(region.values, got)):
            if bits(e, w) != bits(g, w):
                problems.append(f"memory arg {region.memref_arg_index}[{idx}]: "
                                f"expected {_as_signed(e, w)}, got {_as_signed(g, w)}")
                break
        if len(got) != len(region.values):
            problems.append(f"memory arg {region.memref_arg_index}: expected "
                            f"{len(region.values)} elements, got {len(got)}")
    return problems
