"""The sim bundle (design.md section 7): a kernel's inputs and expectations
over one or more invocations, in LOOM's format (PolyArch/loom,
lib/loom/Simulator/SimBundle.cpp) plus our optional fields.

JSON:
  case_name: str
  start_token_count: int                 number of invocations (default 1)
  scalar_inputs: [{arg_index, data: [one per invocation], tags?}]
  memory_regions: [{memref_arg_index, elem_size_bytes?, values}]   before the first
  expected_memory_regions: [same shape]                            after the last
  expected_outputs: [{result_index, data: [one per invocation], tags?}]
Optional, ours: `arg_types` (["i32", "memref<16xi32>", ...]), `result_types`, `top`.
Files written before LOOM compatibility (scalar `data`, `expected_results`)
still load. `elem_size_bytes` 0 or absent means "that of the memref type", as
in LOOM.

`arg_index` / `memref_arg_index` count the top function's parameters in order.
Values are plain integers as C sees them (signed or unsigned as declared);
comparisons are on bit patterns of the element width, so -1 equals 0xffffffff
for a 32-bit element. A float (an `f32` / `f64` in arg_types or result_types,
or the elements of a memref of them) is its IEEE bit pattern, and compares
with loom.floats.same: any NaN equals any NaN (issue 33). Tags are kept and
written back; nothing checks them.
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from loom import floats
from loom.diagnostics import LoomError, Location


@dataclass
class ScalarInput:
    arg_index: int
    data: list[int]                 # one value per invocation
    tags: list[int] | None = None   # LOOM's optional tags, kept and written back


@dataclass
class MemoryRegion:
    memref_arg_index: int
    elem_size_bytes: int            # 0: that of the memref type (LOOM's default)
    values: list[int]


@dataclass
class ExpectedOutput:
    result_index: int
    data: list[int]                 # one value per invocation
    tags: list[int] | None = None


@dataclass
class Bundle:
    case_name: str
    start_token_count: int = 1      # = number of invocations
    scalar_inputs: list[ScalarInput] = field(default_factory=list)
    memory_regions: list[MemoryRegion] = field(default_factory=list)            # before the first
    expected_memory_regions: list[MemoryRegion] = field(default_factory=list)   # after the last
    expected_outputs: list[ExpectedOutput] = field(default_factory=list)
    extra: dict[str, Any] = field(default_factory=dict)

    @property
    def invocations(self) -> int:
        return self.start_token_count

    def scalar(self, arg_index: int, invocation: int = 0) -> int | None:
        for s in self.scalar_inputs:
            if s.arg_index == arg_index:
                return s.data[invocation]
        return None

    def region(self, arg_index: int) -> MemoryRegion | None:
        for r in self.memory_regions:
            if r.memref_arg_index == arg_index:
                return r
        return None

    def to_json(self) -> dict[str, Any]:
        out: dict[str, Any] = {
            "case_name": self.case_name,
            "start_token_count": self.start_token_count,
            "scalar_inputs": [_tagged(s) for s in self.scalar_inputs],
            "memory_regions": [vars(r) for r in self.memory_regions],
            "expected_memory_regions": [vars(r) for r in self.expected_memory_regions],
            "expected_outputs": [_tagged(r) for r in self.expected_outputs],
        }
        out.update(self.extra)
        return out

    def save(self, path: str | Path) -> None:
        Path(path).write_text(json.dumps(self.to_json(), indent=1) + "\n")


def _tagged(rec: ScalarInput | ExpectedOutput) -> dict[str, Any]:
    return {k: v for k, v in vars(rec).items() if not (k == "tags" and v is None)}


# -- loading ---------------------------------------------------------------------------

_KNOWN = {"case_name", "start_token_count", "scalar_inputs", "memory_regions",
          "expected_memory_regions", "expected_outputs", "expected_results"}


class _Reader:
    """Field checks of one bundle file; every error names the file and the field."""

    def __init__(self, path: str):
        self.path = path

    def fail(self, what: str, message: str) -> LoomError:
        return LoomError(f"bundle field '{what}' {message}", Location(self.path))

    def integer(self, value: Any, what: str) -> int:
        if not isinstance(value, int) or isinstance(value, bool):
            raise self.fail(what, "must be an integer")
        return value

    def integers(self, value: Any, what: str) -> list[int]:
        if not isinstance(value, list) or not all(
                isinstance(v, int) and not isinstance(v, bool) for v in value):
            raise self.fail(what, "must be a list of integers")
        return list(value)

    def per_invocation(self, value: Any, what: str, count: int, legacy: bool) -> list[int]:
        """A `data` list of one value per invocation (a bare integer in old files)."""
        if legacy and isinstance(value, int) and not isinstance(value, bool):
            value = [value]
        data = self.integers(value, what)
        if len(data) != count:
            raise self.fail(what, f"has {len(data)} value(s); start_token_count is {count}")
        return data

    def objects(self, doc: dict[str, Any], key: str) -> list[tuple[str, dict[str, Any]]]:
        items = doc.get(key, [])
        if not isinstance(items, list):
            raise self.fail(key, "must be a list")
        out = []
        for i, item in enumerate(items):
            if not isinstance(item, dict):
                raise self.fail(f"{key}[{i}]", "must be an object")
            out.append((f"{key}[{i}]", item))
        return out

    def required(self, item: dict[str, Any], where: str, name: str) -> Any:
        if name not in item:
            raise self.fail(f"{where}.{name}", "is missing")
        return item[name]

    def unknown(self, item: dict[str, Any], where: str, known: set[str]) -> None:
        for name in item:
            if name not in known:
                raise self.fail(f"{where}.{name}", "is not a bundle field")

    def tags(self, item: dict[str, Any], where: str, count: int) -> list[int] | None:
        if "tags" not in item:
            return None
        tags = self.integers(item["tags"], f"{where}.tags")
        if len(tags) != count:
            raise self.fail(f"{where}.tags", f"has {len(tags)} value(s); data has {count}")
        return tags

    def scalars(self, doc: dict[str, Any], count: int) -> list[ScalarInput]:
        out = []
        for where, item in self.objects(doc, "scalar_inputs"):
            self.unknown(item, where, {"arg_index", "data", "tags"})
            data = self.per_invocation(self.required(item, where, "data"), f"{where}.data",
                                       count, legacy=True)
            out.append(ScalarInput(
                self.integer(self.required(item, where, "arg_index"), f"{where}.arg_index"),
                data, self.tags(item, where, count)))
        return out

    def regions(self, doc: dict[str, Any], key: str) -> list[MemoryRegion]:
        out = []
        for where, item in self.objects(doc, key):
            self.unknown(item, where, {"memref_arg_index", "elem_size_bytes", "values"})
            size = self.integer(item.get("elem_size_bytes", 0), f"{where}.elem_size_bytes")
            if size not in (0, 1, 2, 4, 8):
                raise self.fail(f"{where}.elem_size_bytes", "must be one of 1, 2, 4 or 8")
            out.append(MemoryRegion(
                self.integer(self.required(item, where, "memref_arg_index"),
                             f"{where}.memref_arg_index"),
                size, self.integers(self.required(item, where, "values"), f"{where}.values")))
        return out

    def outputs(self, doc: dict[str, Any], count: int) -> list[ExpectedOutput]:
        if "expected_outputs" in doc and "expected_results" in doc:
            raise self.fail("expected_results", "is the old name of 'expected_outputs'; "
                            "give one of them")
        key = "expected_results" if "expected_results" in doc else "expected_outputs"
        out = []
        for where, item in self.objects(doc, key):
            self.unknown(item, where, {"result_index", "data", "tags"})
            data = self.per_invocation(self.required(item, where, "data"), f"{where}.data",
                                       count, legacy=key == "expected_results")
            out.append(ExpectedOutput(
                self.integer(self.required(item, where, "result_index"),
                             f"{where}.result_index"),
                data, self.tags(item, where, count)))
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
    r = _Reader(path)
    count = r.integer(doc.get("start_token_count", 1), "start_token_count")
    if count < 1:  # LOOM allows 0 (no start token); every run here starts with one
        raise r.fail("start_token_count", "must be at least 1 (one per invocation)")
    case_name = doc.get("case_name", Path(path).stem)
    if not isinstance(case_name, str):
        raise r.fail("case_name", "must be a string")
    return Bundle(
        case_name=case_name,
        start_token_count=count,
        scalar_inputs=r.scalars(doc, count),
        memory_regions=r.regions(doc, "memory_regions"),
        expected_memory_regions=r.regions(doc, "expected_memory_regions"),
        expected_outputs=r.outputs(doc, count),
        extra={k: v for k, v in doc.items() if k not in _KNOWN},
    )


def bits(value: int, width: int) -> int:
    """The unsigned bit pattern of `value` in `width` bits."""
    return value & ((1 << width) - 1)


@dataclass
class Outcome:
    """What one execution (native, SCF reference, golden model, RTL) produced."""
    results: list[list[int | None]]         # per invocation: bit patterns, one per
                                            # result (None: it never came)
    memories: dict[int, list[int]]          # memref_arg_index -> bit patterns (after the last)
    result_widths: list[int] = field(default_factory=list)
    warnings: list[str] = field(default_factory=list)   # `file:line: warning: ...` lines


def _as_signed(value: int, width: int) -> int:
    value = bits(value, width)
    return value - (1 << width) if width and value >> (width - 1) else value


def float_width(type_text: Any) -> int | None:
    """32 or 64 when a bundle type (`f32`, `memref<16xf64>`) is, or holds, a float
    of a format loom.floats has; None otherwise (an integer, or no type given)."""
    if not isinstance(type_text, str):
        return None
    text = type_text.strip()
    if text.startswith("memref<") and text.endswith(">"):
        text = text[len("memref<"):-1].split(",")[0].split("x")[-1].strip()
    return {"f32": 32, "f64": 64}.get(text)


def _types(bundle: Bundle, key: str) -> list[Any]:
    types = bundle.extra.get(key)
    return types if isinstance(types, list) else []


def _same(a: int, b: int, width: int, float_bits: int | None) -> bool:
    if float_bits is not None:
        return floats.same(float_bits, bits(a, float_bits), bits(b, float_bits))
    return bits(a, width) == bits(b, width)


def _show(value: int, width: int, float_bits: int | None) -> str:
    """A value as a message gives it: a float's number and pattern, an integer signed."""
    if float_bits is None:
        return str(_as_signed(value, width))
    pattern = bits(value, float_bits)
    number = float(floats.fmt(float_bits).value(pattern))
    return f"{number!r} (0x{pattern:0{float_bits // 4}x})"


def compare(bundle: Bundle, outcome: Outcome, memories: bool = True) -> list[str]:
    """Mismatches between an outcome and the bundle's expectations ([] when equal).

    Results are checked invocation by invocation; a result that never came is
    "got nothing". With several invocations each line names its invocation.
    `memories=False` checks the results only (a run that never finished).
    """
    problems: list[str] = []
    several = bundle.start_token_count > 1
    result_types, arg_types = _types(bundle, "result_types"), _types(bundle, "arg_types")
    for exp in bundle.expected_outputs:
        i = exp.result_index
        w = outcome.result_widths[i] if i < len(outcome.result_widths) else 64
        fw = float_width(result_types[i]) if i < len(result_types) else None
        for k, want in enumerate(exp.data):
            where = f"invocation {k}: " if several else ""
            got = outcome.results[k] if k < len(outcome.results) else []
            value = got[i] if i < len(got) else None
            if value is None:
                shown = want if fw is None else _show(want, w, fw)
                problems.append(f"{where}result {i}: expected {shown}, got nothing")
            elif not _same(want, value, w, fw):
                problems.append(f"{where}result {i}: expected {_show(want, w, fw)}, "
                                f"got {_show(value, w, fw)}")
    for region in bundle.expected_memory_regions if memories else []:
        arg = region.memref_arg_index
        got_mem = outcome.memories.get(arg)
        if got_mem is None:
            problems.append(f"memory arg {arg}: not produced")
            continue
        w = 8 * region.elem_size_bytes or 64   # 0: LOOM's values are unsigned patterns
        fw = float_width(arg_types[arg]) if 0 <= arg < len(arg_types) else None
        for idx, (e, g) in enumerate(zip(region.values, got_mem)):
            if not _same(e, g, w, fw):
                problems.append(f"memory arg {arg}[{idx}]: "
                                f"expected {_show(e, w, fw)}, got {_show(g, w, fw)}")
                break
        if len(got_mem) != len(region.values):
            problems.append(f"memory arg {arg}: expected "
                            f"{len(region.values)} elements, got {len(got_mem)}")
    return problems
