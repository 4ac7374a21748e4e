"""Float kernels (issue 33) from hand-written SCF: the SCF reference run, and the golden
run of the DFG the lowering makes of them, give the values numpy computes here on its
own float32 / float64 (never the tool's output), bit for bit.

Values are IEEE bit patterns everywhere; a NaN result must be the canonical quiet NaN.
"""

from __future__ import annotations

import math
import re
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import numpy as np
import pytest
from xdsl.dialects.builtin import f32

from loom.bundle import Bundle, ExpectedOutput, MemoryRegion, Outcome, ScalarInput, compare
from loom.diagnostics import LoomError
from loom.frontend.reference import run_reference

F32_NAN, F64_NAN = 0x7FC00000, 0x7FF8000000000000


def pattern(x: float | np.floating, dtype: type = np.float32) -> int:
    """The bit pattern of x as a `dtype`, NaN as the canonical one."""
    value = np.array([x], dtype=dtype)
    if np.isnan(value[0]):
        return F32_NAN if dtype == np.float32 else F64_NAN
    return int(value.view(np.uint32 if dtype == np.float32 else np.uint64)[0])


def patterns(values: np.ndarray) -> list[int]:
    return [pattern(v, values.dtype.type) for v in values]


@dataclass
class Runs:
    """The reference and golden outcomes of one SCF text on one bundle."""
    dfg: Any                    # the lowered function (tests/lowering/lowered.py)
    reference: Outcome
    golden: Outcome
    problems: list[str] = field(default_factory=list)


def run_both(lower, tmp_path: Path, text: str, bundle: Bundle) -> Runs:
    path = tmp_path / "k.scf.mlir"
    path.write_text(text)
    reference = run_reference(path, bundle, bundle.extra.get("top"))
    dfg = lower(text)
    golden = dfg.run(bundle)
    assert golden.execution.returned and not golden.execution.problems, golden.problems()
    return Runs(dfg, reference, golden.outcome,
                [*(f"scf: {p}" for p in compare(bundle, reference)),
                 *(f"golden: {p}" for p in golden.mismatches)])


# --- a loop of f32 arithmetic over an array -----------------------------------------

# for i in 0..8: q = a[i] * s + 1.5; m = q < acc ? acc : q; y = m + sqrt((float)i)
#                a[i] = y; b[i] = (int)y; acc = y                 return acc
LOOP = """
func.func @k(%a: memref<8xf32>, %b: memref<8xi32>, %s: f32) -> f32 {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c8 = arith.constant 8 : index
  %z = arith.constant 0.0 : f32
  %h = arith.constant 1.5 : f32
  %r = scf.for %i = %c0 to %c8 step %c1 iter_args(%acc = %z) -> (f32) {
    %x = memref.load %a[%i] : memref<8xf32>
    %p = arith.mulf %x, %s : f32
    %q = arith.addf %p, %h : f32
    %c = arith.cmpf olt, %q, %acc : f32
    %m = arith.select %c, %acc, %q : f32
    %ii = arith.index_cast %i : index to i32
    %fi = arith.sitofp %ii : i32 to f32
    %sq = math.sqrt %fi : f32
    %y = arith.addf %m, %sq : f32
    memref.store %y, %a[%i] : memref<8xf32>
    %t = arith.fptosi %y : f32 to i32
    memref.store %t, %b[%i] : memref<8xi32>
    scf.yield %y : f32
  }
  return %r : f32
}
"""


def _to_i32(y: np.float32) -> int:
    """C's (int)y made total as the tool defines it: NaN 0, saturated at the ends."""
    if np.isnan(y):
        return 0
    return max(-2**31, min(2**31 - 1, math.trunc(float(y)))) & 0xFFFFFFFF


def _loop_expected(a: np.ndarray, s: np.float32) -> tuple[list[int], list[int], int]:
    acc, out_a, out_b = np.float32(0), [], []
    with np.errstate(all="ignore"):
        for i, x in enumerate(a):
            q = x * s + np.float32(1.5)
            m = acc if q < acc else q
            y = m + np.sqrt(np.float32(i))
            out_a.append(pattern(y))
            out_b.append(_to_i32(y))
            acc = y
    return out_a, out_b, pattern(acc)


def test_f32_loop_matches_numpy(lower, tmp_path):
    # NaN, -0, a subnormal and a product past INT_MAX among the inputs
    a = np.array([1, -2, 3.5, np.nan, -0.0, 1e-40, 3e38, 0.25], dtype=np.float32)
    s = np.float32(0.5)
    out_a, out_b, acc = _loop_expected(a, s)
    assert F32_NAN in out_a and 0x7FFFFFFF in out_b     # the corners were reached
    bundle = Bundle("k", scalar_inputs=[ScalarInput(2, [pattern(s)])],
                    memory_regions=[MemoryRegion(0, 4, patterns(a)), MemoryRegion(1, 4, [0] * 8)],
                    expected_memory_regions=[MemoryRegion(0, 4, out_a),
                                             MemoryRegion(1, 4, out_b)],
                    expected_outputs=[ExpectedOutput(0, [acc])],
                    extra={"arg_types": ["memref<8xf32>", "memref<8xi32>", "f32"],
                           "result_types": ["f32"]})
    runs = run_both(lower, tmp_path, LOOP, bundle)
    assert runs.problems == []
    ops = runs.dfg.count()     # the float ops are the DFG's, on f32 channels
    assert ops["arith.addf"] == 2 and ops["arith.cmpf"] == 1 and ops["math.sqrt"] == 1
    assert any(op.results[0].type == f32 for op in runs.dfg.ops("handshake.constant"))
    for outcome in (runs.reference, runs.golden):   # bit-exact, NaN canonical
        assert outcome.memories[0] == out_a and outcome.memories[1] == out_b
        assert outcome.results == [[acc]]


# --- f64 Newton iterations in a while loop, an if yielding a float ---------------------

NEWTON = """
func.func @newton(%a: memref<4xf32>, %out: memref<4xf64>, %eps: f64) -> f32 {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c4 = arith.constant 4 : index
  %half = arith.constant 0.5 : f64
  %zero = arith.constant 0.0 : f32
  %n0 = arith.constant 0 : i32
  %one = arith.constant 1 : i32
  %lim = arith.constant 30 : i32
  %tot = scf.for %i = %c0 to %c4 step %c1 iter_args(%acc = %zero) -> (f32) {
    %x32 = memref.load %a[%i] : memref<4xf32>
    %v = math.absf %x32 : f32
    %x = arith.extf %v : f32 to f64
    %r:2 = scf.while (%g = %x, %n = %n0) : (f64, i32) -> (f64, i32) {
      %sq = arith.mulf %g, %g : f64
      %d = arith.subf %sq, %x : f64
      %ad = math.absf %d : f64
      %far = arith.cmpf ogt, %ad, %eps : f64
      %more = arith.cmpi slt, %n, %lim : i32
      %go = arith.andi %far, %more : i1
      scf.condition(%go) %g, %n : f64, i32
    } do {
    ^bb0(%g1: f64, %n1: i32):
      %q = arith.divf %x, %g1 : f64
      %s = arith.addf %g1, %q : f64
      %g2 = arith.mulf %s, %half : f64
      %n2 = arith.addi %n1, %one : i32
      scf.yield %g2, %n2 : f64, i32
    }
    memref.store %r#0, %out[%i] : memref<4xf64>
    %neg = arith.cmpf olt, %x32, %zero : f32
    %t = arith.truncf %r#0 : f64 to f32
    %signed = scf.if %neg -> (f32) {
      %m = arith.negf %t : f32
      scf.yield %m : f32
    } else {
      scf.yield %t : f32
    }
    %acc2 = arith.addf %acc, %signed : f32
    scf.yield %acc2 : f32
  }
  return %tot : f32
}
"""


def _newton_expected(a: np.ndarray, eps: np.float64) -> tuple[list[int], int]:
    total, roots = np.float32(0), []
    for x32 in a:
        x = np.float64(abs(x32))
        g, n = x, 0
        while abs(g * g - x) > eps and n < 30:
            g, n = (g + x / g) * np.float64(0.5), n + 1
        roots.append(pattern(g, np.float64))
        t = np.float32(g)
        total = total + (-t if x32 < 0 else t)
    return roots, pattern(total)


def test_f64_while_and_if_match_numpy(lower, tmp_path):
    a = np.array([2.0, -9.0, 0.3, 1e-3], dtype=np.float32)
    eps = np.float64(1e-12)
    roots, total = _newton_expected(a, eps)
    bundle = Bundle("newton", scalar_inputs=[ScalarInput(2, [pattern(eps, np.float64)])],
                    memory_regions=[MemoryRegion(0, 4, patterns(a)), MemoryRegion(1, 8, [0] * 4)],
                    expected_memory_regions=[MemoryRegion(1, 8, roots)],
                    expected_outputs=[ExpectedOutput(0, [total])],
                    extra={"arg_types": ["memref<4xf32>", "memref<4xf64>", "f64"],
                           "result_types": ["f32"], "top": "newton"})
    runs = run_both(lower, tmp_path, NEWTON, bundle)
    assert runs.problems == []
    assert runs.reference.memories[1] == runs.golden.memories[1] == roots


# --- a constant table of floats; uitofp, minnumf/maxnumf, remf, bitcast, f64 sums -------

TABLE = """
memref.global "private" constant @table : memref<4xf32> = dense<[1.5, -0.0, 0x7F800000, 2.5e-40]>
func.func @tab(%o: memref<4xi32>, %k: i32) -> f64 {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c4 = arith.constant 4 : index
  %d = arith.constant 0.75 : f32
  %z = arith.constant -0.0 : f64
  %t = memref.get_global @table : memref<4xf32>
  %u = arith.uitofp %k : i32 to f32
  %r = scf.for %i = %c0 to %c4 step %c1 iter_args(%acc = %z) -> (f64) {
    %x = memref.load %t[%i] : memref<4xf32>
    %hi = arith.maxnumf %x, %u : f32
    %lo = arith.minnumf %x, %u : f32
    %m = arith.remf %hi, %d : f32
    %p = arith.bitcast %m : f32 to i32
    memref.store %p, %o[%i] : memref<4xi32>
    %w = arith.extf %lo : f32 to f64
    %s = arith.addf %acc, %w : f64
    scf.yield %s : f64
  }
  return %r : f64
}
"""


def test_constant_table_and_conversions_match_numpy(lower, tmp_path):
    table = np.array([1.5, -0.0, np.inf, 2.5e-40], dtype=np.float32)
    k = 3_000_000_001                                # unsigned: past INT_MAX
    u = np.float32(np.uint32(k))
    acc, out = np.float64(-0.0), []
    with np.errstate(all="ignore"):
        for x in table:
            out.append(pattern(np.fmod(max(x, u), np.float32(0.75))))
            acc = acc + np.float64(min(x, u))
    assert F32_NAN in out                            # fmod(inf, 0.75)
    bundle = Bundle("tab", scalar_inputs=[ScalarInput(1, [k])],
                    memory_regions=[MemoryRegion(0, 4, [0] * 4)],
                    expected_memory_regions=[MemoryRegion(0, 4, out)],
                    expected_outputs=[ExpectedOutput(0, [pattern(acc, np.float64)])],
                    extra={"arg_types": ["memref<4xi32>", "i32"], "result_types": ["f64"],
                           "top": "tab"})
    runs = run_both(lower, tmp_path, TABLE, bundle)
    assert runs.problems == []
    assert runs.reference.memories[0] == runs.golden.memories[0] == out


# --- one op at a time, every op and predicate, both formats -----------------------------

NAN, INF = float("nan"), float("inf")
DTYPES = {"f32": np.float32, "f64": np.float64}


@dataclass(frozen=True)
class Case:
    """`%r = <op> %a0[, %a1] : <types>` on inputs (as typed) with the expected result."""
    op: str
    args: tuple[tuple[str, float | int], ...]
    result: str
    expected: float | int

    def text(self) -> str:
        params = ", ".join(f"%a{i}: {t}" for i, (t, _) in enumerate(self.args))
        operands = ", ".join(f"%a{i}" for i in range(len(self.args)))
        return (f"func.func @k({params}) -> {self.result} {{\n"
                f"  %r = {self.op.replace('$', operands)}\n"
                f"  return %r : {self.result}\n}}\n")


def _bits(t: str, value: float | int) -> int:
    if t in DTYPES:
        return pattern(value, DTYPES[t])
    return int(value) & ((1 << int(t[1:])) - 1)


def _binary(name: str, fn, pairs) -> list[Case]:
    cases = []
    for t, dtype in DTYPES.items():
        for x, y in pairs:
            with np.errstate(all="ignore"):
                want = fn(dtype(x), dtype(y))
            cases.append(Case(f"arith.{name} $ : {t}", ((t, x), (t, y)), t, want))
    return cases


def _min(x, y):
    return y if np.isnan(x) else x if np.isnan(y) or not y < x else y


def _max(x, y):
    return y if np.isnan(x) else x if np.isnan(y) or not y > x else y


PAIRS = [(1.5, 2.25), (-0.0, 0.0), (1e-45, 1e-45), (NAN, 1.0), (INF, -INF), (7.0, -2.5),
         (3.0, 0.0)]
BINARY = [
    *_binary("addf", lambda x, y: x + y, PAIRS), *_binary("subf", lambda x, y: x - y, PAIRS),
    *_binary("mulf", lambda x, y: x * y, PAIRS), *_binary("divf", lambda x, y: x / y, PAIRS),
    *_binary("remf", np.fmod, PAIRS),
    *_binary("minnumf", _min, [(1.0, NAN), (NAN, -3.0), (-0.0, 0.0), (0.0, -0.0), (2.0, 1.0)]),
    *_binary("maxnumf", _max, [(1.0, NAN), (NAN, -3.0), (-0.0, 0.0), (0.0, -0.0), (2.0, 1.0)]),
]

#: each predicate's result on (1, 2), (2, 2), (2, 1), (NaN, 1), from IEEE 754's table
CMPF = {
    "false": (0, 0, 0, 0), "oeq": (0, 1, 0, 0), "ogt": (0, 0, 1, 0), "oge": (0, 1, 1, 0),
    "olt": (1, 0, 0, 0), "ole": (1, 1, 0, 0), "one": (1, 0, 1, 0), "ord": (1, 1, 1, 0),
    "ueq": (0, 1, 0, 1), "ugt": (0, 0, 1, 1), "uge": (0, 1, 1, 1), "ult": (1, 0, 0, 1),
    "ule": (1, 1, 0, 1), "une": (1, 0, 1, 1), "uno": (0, 0, 0, 1), "true": (1, 1, 1, 1),
}
COMPARES = [Case(f"arith.cmpf {p}, $ : {t}", ((t, x), (t, y)), "i1", want)
            for p, results in CMPF.items() for t in ("f32", "f64")
            for (x, y), want in zip([(1.0, 2.0), (2.0, 2.0), (2.0, 1.0), (NAN, 1.0)], results)]

UNARY = [
    Case("arith.negf $ : f32", (("f32", -0.0),), "f32", 0.0),
    Case("arith.negf $ : f64", (("f64", 2.5),), "f64", -2.5),
    Case("arith.negf $ : f32", (("f32", NAN),), "f32", NAN),
    Case("math.absf $ : f32", (("f32", -1e-40),), "f32", np.float32(1e-40)),
    Case("math.absf $ : f64", (("f64", -INF),), "f64", INF),
    Case("math.sqrt $ : f32", (("f32", 2.0),), "f32", np.sqrt(np.float32(2.0))),
    Case("math.sqrt $ : f64", (("f64", -0.0),), "f64", -0.0),
    Case("math.sqrt $ : f64", (("f64", -1.0),), "f64", NAN),
]

CASTS = [
    Case("arith.sitofp $ : i1 to f32", (("i1", 1),), "f32", -1.0),       # i1 true is -1
    Case("arith.uitofp $ : i1 to f64", (("i1", 1),), "f64", 1.0),
    Case("arith.sitofp $ : i8 to f32", (("i8", -128),), "f32", -128.0),
    Case("arith.sitofp $ : i32 to f32", (("i32", 16777217),), "f32", 16777216.0),  # a tie: even
    Case("arith.uitofp $ : i64 to f32", (("i64", -1),), "f32", 2.0 ** 64),
    Case("arith.sitofp $ : i64 to f64", (("i64", -(2 ** 63)),), "f64", -(2.0 ** 63)),
    Case("arith.fptosi $ : f32 to i32", (("f32", -2.75),), "i32", -2),
    Case("arith.fptosi $ : f32 to i8", (("f32", 1000.0),), "i8", 127),      # saturates
    Case("arith.fptosi $ : f64 to i64", (("f64", -INF),), "i64", -(2 ** 63)),
    Case("arith.fptosi $ : f32 to i16", (("f32", NAN),), "i16", 0),
    Case("arith.fptosi $ : f32 to i1", (("f32", -1.0),), "i1", 1),
    Case("arith.fptoui $ : f64 to i32", (("f64", 4294967295.9),), "i32", 4294967295),
    Case("arith.fptoui $ : f32 to i8", (("f32", -3.5),), "i8", 0),
    Case("arith.fptoui $ : f32 to i1", (("f32", 1.0),), "i1", 1),
    Case("arith.extf $ : f32 to f64", (("f32", 1e-40),), "f64", float(np.float32(1e-40))),
    Case("arith.truncf $ : f64 to f32", (("f64", 1e300),), "f32", INF),
    Case("arith.truncf $ : f64 to f32", (("f64", 1.0 + 2.0 ** -24),), "f32", 1.0),  # even
    Case("arith.bitcast $ : i32 to f32", (("i32", 0x3FC00000),), "f32", 1.5),
    Case("arith.bitcast $ : f64 to i64", (("f64", -0.0),), "i64", 1 << 63),
]

CONSTANTS = [
    Case("arith.constant 0x7FC00001 : f32", (), "f32", NAN),   # its payload dropped
    Case("arith.constant -0.0 : f64", (), "f64", -0.0),
    Case("arith.constant 0.1 : f32", (), "f32", np.float32(0.1)),
    Case("arith.constant 1.0e-45 : f32", (), "f32", np.float32(1e-45)),
]

CASES = BINARY + COMPARES + UNARY + CASTS + CONSTANTS


def _case_id(case: Case) -> str:
    """`addf:f32(1.5,2.25)`, `cmpf_oeq:f64(nan,1.0)`, `sitofp:i1_to_f32(1)`."""
    op = re.sub(r"\s+", "_", case.op.replace("$ ", "").replace(",", "").split(".", 1)[1])
    return f"{op.replace('_:_', ':')}({','.join(str(v) for _, v in case.args)})"


@pytest.mark.parametrize("case", CASES, ids=[_case_id(c) for c in CASES])
def test_one_op(lower, tmp_path, case: Case):
    want = _bits(case.result, case.expected)
    bundle = Bundle("k", scalar_inputs=[ScalarInput(i, [_bits(t, v)])
                                        for i, (t, v) in enumerate(case.args)],
                    expected_outputs=[ExpectedOutput(0, [want])],
                    extra={"arg_types": [t for t, _ in case.args],
                           "result_types": [case.result]})
    runs = run_both(lower, tmp_path, case.text(), bundle)
    assert runs.problems == []
    assert runs.reference.results == runs.golden.results == [[want]]   # bit-exact


def test_a_float_format_other_than_f32_f64_is_refused_at_its_op(lower):
    text = ("func.func @k(%a: f16) -> f16 {\n"
            "  %r = arith.addf %a, %a : f16 loc(\"h.c\":3:7)\n  return %r : f16\n}\n")
    with pytest.raises(LoomError, match=r"arith.addf: f16 is not supported \(f32 and f64") as e:
        lower(text)
    assert e.value.loc is not None and e.value.loc.line == 3
