"""arith golden ops against the C compiler's integer semantics (hypothesis)."""

from __future__ import annotations

import ctypes
import subprocess
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from loom.golden.actor import run_actor
from loom.golden.ops import arith

WIDTHS = (8, 16, 32, 64)
BINARY = {  # golden class -> opcode in arith_ref.c
    arith.AddI: 0, arith.SubI: 1, arith.MulI: 2, arith.DivSI: 3, arith.DivUI: 4,
    arith.RemSI: 5, arith.RemUI: 6, arith.AndI: 7, arith.OrI: 8, arith.XOrI: 9,
    arith.ShLI: 10, arith.ShRSI: 11, arith.ShRUI: 12, arith.MinSI: 13,
    arith.MaxSI: 14, arith.MinUI: 15, arith.MaxUI: 16,
}
PREDICATES = ("eq", "ne", "slt", "sle", "sgt", "sge", "ult", "ule", "ugt", "uge")


@pytest.fixture(scope="module")
def ref(tmp_path_factory):
    src = Path(__file__).with_name("arith_ref.c")
    lib = tmp_path_factory.mktemp("arith") / "arith_ref.so"
    subprocess.run(["cc", "-O1", "-shared", "-fPIC", "-o", str(lib), str(src)], check=True)
    fn = ctypes.CDLL(str(lib)).ref
    fn.argtypes = [ctypes.c_int, ctypes.c_int, ctypes.c_uint64, ctypes.c_uint64]
    fn.restype = ctypes.c_uint64
    return fn


def _defined_in_c(cls, w: int, a: int, b: int) -> bool:
    int_min = 1 << (w - 1)
    if cls in (arith.DivSI, arith.RemSI, arith.DivUI, arith.RemUI) and b == 0:
        return False
    if cls in (arith.DivSI, arith.RemSI) and a == int_min and b == (1 << w) - 1:
        return False  # INT_MIN / -1 overflows in C
    if cls in (arith.ShLI, arith.ShRSI, arith.ShRUI) and b >= w:
        return False
    return True


operands = st.sampled_from(WIDTHS).flatmap(
    lambda w: st.tuples(st.just(w), st.integers(0, (1 << w) - 1),
                        st.one_of(st.integers(0, (1 << w) - 1), st.integers(0, w + 2))))


@pytest.mark.parametrize("cls", list(BINARY), ids=lambda c: c.__name__)
@settings(max_examples=300, deadline=None)
@given(case=operands)
def test_binary_op_matches_c(ref, cls, case):
    w, a, b = case
    if not _defined_in_c(cls, w, a, b):
        return
    (got,) = run_actor(cls(w), [[a], [b]])
    assert got == [ref(w, BINARY[cls], a, b)]


@pytest.mark.parametrize("pred", PREDICATES)
@settings(max_examples=200, deadline=None)
@given(case=operands)
def test_cmpi_matches_c(ref, pred, case):
    w, a, b = case
    (got,) = run_actor(arith.CmpI(pred, w), [[a], [b]])
    assert got == [ref(w, 20 + PREDICATES.index(pred), a, b)]


@settings(max_examples=300, deadline=None)
@given(case=operands)
def test_casts_match_c(ref, case):
    w, a, _ = case
    sext64 = ref(w, 30, a, 0)
    assert run_actor(arith.ExtSI(w, 64), [[a]]) == [[sext64]]
    assert run_actor(arith.ExtUI(w, 64), [[a]]) == [[a]]
    assert run_actor(arith.IndexCast(w, 64), [[a]]) == [[sext64]]
    # index_castui: C's unsigned conversion, modulo 2^width both ways
    assert run_actor(arith.IndexCastUI(w, 64), [[a]]) == [[a]]
    assert run_actor(arith.IndexCastUI(64, 8), [[sext64]]) == [[a & 0xFF]]
    assert run_actor(arith.TruncI(64, 8), [[sext64]]) == [[a & 0xFF]]
    assert run_actor(arith.TruncI(w, 1), [[a]]) == [[a & 1]]


@pytest.mark.parametrize("w", [1, 3, 13, 33])
def test_odd_widths_wrap(w):
    m = (1 << w) - 1
    assert run_actor(arith.AddI(w), [[m], [1]]) == [[0]]
    assert run_actor(arith.SubI(w), [[0], [1]]) == [[m]]
    assert run_actor(arith.MulI(w), [[m], [m]]) == [[1]]


def test_documented_corner_cases():
    w, m = 32, (1 << 32) - 1
    int_min = 1 << 31
    assert run_actor(arith.DivUI(w), [[7], [0]]) == [[m]]
    assert run_actor(arith.DivSI(w), [[7], [0]]) == [[m]]
    assert run_actor(arith.RemUI(w), [[7], [0]]) == [[7]]
    assert run_actor(arith.RemSI(w), [[7], [0]]) == [[7]]
    assert run_actor(arith.DivSI(w), [[int_min], [m]]) == [[int_min]]
    assert run_actor(arith.RemSI(w), [[int_min], [m]]) == [[0]]
    assert run_actor(arith.ShLI(w), [[1], [32]]) == [[0]]
    assert run_actor(arith.ShRUI(w), [[m], [40]]) == [[0]]
    assert run_actor(arith.ShRSI(w), [[int_min], [99]]) == [[m]]


def test_select():
    assert run_actor(arith.Select(32), [[1, 0], [5, 6], [7, 8]]) == [[5, 8]]
