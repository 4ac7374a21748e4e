"""Dependence analysis (lowering/dependence.py) and the chains it gives
(lowering/ordering.py), against what runs do and what C says.

Soundness is checked against the SCF reference interpreter's run of every
kernel of kernels/ (access_trace.py): every pair of accesses that reached one
element (one a store) must be in one chain, and the loop whose iterations
they were apart in must keep its order. Precision is checked on shapes whose
dependences follow from the C by hand (PolyBench's bicg and gemver, an
elimination like gaussian's, a table with disjoint halves).
"""

from __future__ import annotations

import pytest

from loom.frontend.reference import run_module
from loom.ir import load_module
from loom.lowering.ordering import explain
from loom.lowering.pipeline import find_top, lower_module
from loom.regress.plan import SLOW_KERNELS, all_kernels

from access_trace import AccessTrace
from tests.frontend.c_kernel import compile_c


def _lower_and_trace(arts):
    module = load_module(arts.scf_mlir)
    _, lowered = lower_module(module, arts.top, 64, str(arts.scf_mlir))
    trace = AccessTrace()
    trace.watch(find_top(module, arts.top, str(arts.scf_mlir)))
    run_module(module, arts.scf_mlir, arts.bundle, arts.top, listeners=(trace,))
    return lowered.record, trace


@pytest.mark.parametrize("name", [pytest.param(n, marks=pytest.mark.slow) if n in SLOW_KERNELS
                                  else n for n in all_kernels()])
def test_every_dependence_a_run_shows_keeps_its_order(compiled, name):
    record, trace = _lower_and_trace(compiled(name))
    access = {a.scf_op: a for a in record.accesses}
    chain_of = {a: chain for chains in record.chains.values() for chain in chains
                for a in chain.accesses}
    for a_op, b_op, level in trace.dependences():
        a, b = access[a_op], access[b_op]
        if a.root is not b.root:
            continue
        assert chain_of[a] is chain_of[b], f"{name}: {a_op} and {b_op} reach one element"
        if level is not None:
            loop = [op for op in a.path if op.name in ("scf.for", "scf.while")][level]
            assert loop not in chain_of[a].free_loops, \
                f"{name}: the loop at level {level} overlaps two accesses of one element"


def _scf_kinds(tmp_path, name, text):
    """The access kinds of each chain of the one memref of SCF `text`."""
    path = tmp_path / f"{name}.scf.mlir"
    path.write_text(text)
    _, lowered = lower_module(load_module(path), name, 64, str(path))
    (chains,) = lowered.record.chains.values()
    return sorted([acc.kind for acc in c.accesses] for c in chains)


def _chains(tmp_path_factory, name, text):
    _, arts = compile_c(tmp_path_factory, name, text)
    _, lowered = lower_module(load_module(arts.scf_mlir), arts.top, 64, str(arts.scf_mlir))
    return {str(root.name_hint): chains for root, chains in lowered.record.chains.items()}


def _free_lines(chain) -> set[int]:
    """The C lines of the loops whose iterations overlap."""
    return {loop.location.line.data for loop in chain.free_loops}


BICG = """
void bicg(const int A[4][5], int s[5], int q[4], const int p[5], const int r[4]) {
  for (int i = 0; i < 4; i++) {
    q[i] = 0;
    for (int j = 0; j < 5; j++) {
      s[j] = s[j] + r[i] * A[i][j];
      q[i] = q[i] + A[i][j] * p[j];
    }
  }
}
int main(void) {
  int A[4][5], s[5] = {0}, q[4], p[5], r[4];
  for (int i = 0; i < 4; i++) { r[i] = i; for (int j = 0; j < 5; j++) A[i][j] = i - j; }
  for (int j = 0; j < 5; j++) p[j] = j;
  bicg(A, s, q, p, r);
  return 0;
}
"""


def test_bicg_orders_s_across_rows_and_q_across_columns(tmp_path_factory):
    chains = _chains(tmp_path_factory, "bicg", BICG)
    # s[j] += ...: the same j in two rows i (line 3's loop), never two j of one row
    (s,) = chains["arg1"]
    assert _free_lines(s) == {5}
    # q[i] += ...: every j of one row reaches q[i] (line 5's loop), rows differ
    (q,) = chains["arg2"]
    assert _free_lines(q) == {3}


ELIMINATION = """
void elim(int m[6][6], const int f[6]) {
  for (unsigned p = 1; p <= 4; p++)
    for (unsigned r = p + 1; r <= 4; r++)
      for (unsigned c = 1; c <= 5; c++)
        m[r][c] = m[r][c] - f[p] * m[p][c];
}
int main(void) {
  int m[6][6], f[6];
  for (int i = 0; i < 6; i++) { f[i] = i % 2; for (int j = 0; j < 6; j++) m[i][j] = i + j; }
  elim(m, f);
  return 0;
}
"""


def test_elimination_rows_below_the_pivot_overlap(tmp_path_factory):
    """r > p: a row being updated is never the pivot row of its own step, so
    only the pivot loop orders m (unsigned loops: scf.while induction)."""
    (m,) = _chains(tmp_path_factory, "elim", ELIMINATION)["arg0"]
    assert _free_lines(m) == {4, 5}


HALVES = """
void halves(int a[16]) {
  for (int i = 0; i < 8; i++)
    a[i + 8] = a[i] * 3;
}
int main(void) {
  int a[16];
  for (int i = 0; i < 16; i++) a[i] = i;
  halves(a);
  return 0;
}
"""


def test_disjoint_halves_are_two_chains(tmp_path_factory):
    chains = _chains(tmp_path_factory, "halves", HALVES)["arg0"]
    assert [[acc.kind for acc in c.accesses] for c in chains] == [["load"], ["store"]]


SHIFT = """
void shift(int a[16]) {
  for (int i = 1; i < 16; i++)
    a[i] = a[i - 1] + 1;
}
int main(void) {
  int a[16];
  for (int i = 0; i < 16; i++) a[i] = i;
  shift(a);
  return 0;
}
"""


def test_a_recurrence_through_memory_keeps_its_order(tmp_path_factory):
    (chain,) = _chains(tmp_path_factory, "shift", SHIFT)["arg0"]
    assert chain.free_loops == set()


INDIRECT = """
void hist(int h[8], const int k[20]) {
  for (int i = 0; i < 20; i++)
    h[k[i]] += 1;
}
int main(void) {
  int h[8] = {0}, k[20];
  for (int i = 0; i < 20; i++) k[i] = (i * 5) % 8;
  hist(h, k);
  return 0;
}
"""


def test_an_indirect_subscript_keeps_every_order(tmp_path_factory):
    chains = _chains(tmp_path_factory, "hist", INDIRECT)
    (h,) = chains["arg0"]
    assert h.free_loops == set()
    (k,) = chains["arg1"]            # read only: its loads overlap across iterations
    assert _free_lines(k) == {3}


def test_explain_names_the_accesses_that_keep_a_loop(tmp_path_factory):
    chains = _chains(tmp_path_factory, "bicg", BICG)
    text = "\n".join(explain("s", chains["arg1"]))
    assert "bicg.c:3" in text and "ordered (load at" in text
    assert "bicg.c:5:5: iterations overlap" in text


EVEN_ODD = """
void even_odd(int a[32]) {
  for (int i = 0; i < 16; i++)
    a[i << 1] = a[(i << 1) + 1] * 3;
}
int main(void) {
  int a[32];
  for (int i = 0; i < 32; i++) a[i] = i;
  even_odd(a);
  return 0;
}
"""


def test_even_stores_and_odd_loads_are_two_chains(tmp_path_factory):
    # 2i is never 2j + 1: the shifted subscripts are disjoint, as HALVES' are;
    # and no two iterations store one element, so the stores' loop overlaps
    chains = _chains(tmp_path_factory, "even_odd", EVEN_ODD)["arg0"]
    assert [[acc.kind for acc in c.accesses] for c in chains] == [["load"], ["store"]]
    assert _free_lines(chains[1]) == {3}


NEXT_EVEN = EVEN_ODD.replace("(i << 1) + 1", "(i << 1) + 2").replace("even_odd", "next_even")


def test_a_shifted_subscript_keeps_the_order_it_needs(tmp_path_factory):
    # iteration i + 1 stores a[2i + 2], which iteration i loads: one chain,
    # and its loop keeps its order
    (chain,) = _chains(tmp_path_factory, "next_even", NEXT_EVEN)["arg0"]
    assert chain.free_loops == set()


OFFSET = """
void offset(int a[32], int n) {
  int k = n * n;
  for (int i = 0; i < 16; i++)
    a[i + k] = a[i] + 1;
}
int main(void) {
  int a[32];
  for (int i = 0; i < 32; i++) a[i] = i;
  offset(a, 1);
  return 0;
}
"""


def test_an_offset_fixed_for_the_invocation_keeps_the_order(tmp_path_factory):
    # with n = 1, iteration i stores what iteration i + 1 loads: k = n * n is
    # no affine form of n but fixed for the invocation (a symbol), so the
    # loop may not overlap for any n
    (chain,) = _chains(tmp_path_factory, "offset", OFFSET)["arg0"]
    assert chain.free_loops == set()


THIRDS = """
void thirds(int a[64]) {
  for (int i = 0; i < 16; i++)
    a[3 * i] = a[3 * i + 1] * 3;
}
int main(void) {
  int a[64];
  for (int i = 0; i < 64; i++) a[i] = i;
  thirds(a);
  return 0;
}
"""


def test_a_scaled_subscript_is_affine(tmp_path_factory):
    # 3i is never 3j + 1, and no two iterations store one element
    chains = _chains(tmp_path_factory, "thirds", THIRDS)["arg0"]
    assert [[acc.kind for acc in c.accesses] for c in chains] == [["load"], ["store"]]
    assert _free_lines(chains[1]) == {3}


SHIFT_BY = """
void shift_by(int a[64], int s) {
  for (int i = 0; i < 8; i++)
    a[i << s] = a[(i << s) + 1] + 1;
}
int main(void) {
  int a[64];
  for (int i = 0; i < 64; i++) a[i] = i;
  shift_by(a, 0);
  return 0;
}
"""


def test_a_shift_by_a_variable_keeps_every_order(tmp_path_factory):
    # with s = 0, iteration i + 1 stores what iteration i loads; i << s is
    # no affine form, so nothing may overlap
    (chain,) = _chains(tmp_path_factory, "shift_by", SHIFT_BY)["arg0"]
    assert chain.free_loops == set()


CARRIED_INDEX = """
void carried(int a[40]) {
  int j = 0;
  for (int i = 0; i < 32; i += 2) {
    a[j] = a[j + 1] * 3;
    j++;
  }
}
int main(void) {
  int a[40];
  for (int i = 0; i < 40; i++) a[i] = i;
  carried(a);
  return 0;
}
"""


def test_an_index_carried_by_the_loop_is_not_its_induction(tmp_path_factory):
    # j counts 0, 1, 2 while i counts 0, 2, 4: the store of one iteration is
    # the load of the one before, so the loop keeps its order
    (chain,) = _chains(tmp_path_factory, "carried", CARRIED_INDEX)["arg0"]
    assert chain.free_loops == set()


UNSIGNED_OFFSET = """module {
  func.func @unsigned_offset(%arg0: memref<512xi32>) {
    %c0 = arith.constant 0 : i32
    %c1 = arith.constant 1 : i32
    %c256 = arith.constant 256 : index
    %m1 = arith.constant -1 : i8
    %k = arith.extui %m1 : i8 to i32
    scf.for %i = %c0 to %c1 step %c1 : i32 {
      %a = arith.addi %i, %k : i32
      %ai = arith.index_cast %a : i32 to index
      %v = memref.load %arg0[%c256] : memref<512xi32>
      memref.store %v, %arg0[%ai] : memref<512xi32>
    }
    return
  }
}
"""


@pytest.mark.parametrize("load,chains", [
    (256, [["load"], ["store"]]),    # never the store's a[255]
    (255, [["load", "store"]]),      # the store's element: one chain
])
def test_a_negative_constant_read_unsigned_is_its_pattern(tmp_path, load, chains):
    # extui of i8 -1 is 255: the store reaches a[255] (clang folds such
    # constants, so this is SCF written by hand)
    text = UNSIGNED_OFFSET.replace("%c256 = arith.constant 256", f"%c256 = arith.constant {load}")
    assert _scf_kinds(tmp_path, "unsigned_offset", text) == chains



HALVES_UNKNOWN_EXTENT = """module {
  func.func @halves(%arg0: memref<?xi32>) {
    %c0 = arith.constant 0 : i32
    %c1 = arith.constant 1 : i32
    %c8 = arith.constant 8 : i32
    %c3 = arith.constant 3 : i32
    scf.for %i = %c0 to %c8 step %c1 : i32 {
      %li = arith.index_cast %i : i32 to index
      %v = memref.load %arg0[%li] : memref<?xi32>
      %w = arith.muli %v, %c3 : i32
      %s = arith.addi %i, %c8 : i32
      %si = arith.index_cast %s : i32 to index
      memref.store %w, %arg0[%si] : memref<?xi32>
    }
    return
  }
}
"""


def test_a_memref_of_unknown_extent_has_addresses_too(tmp_path):
    # HALVES on memref<?xi32> (SCF written by hand: C's pointer parameters
    # are refused): one dimension, so the address is the subscript whatever
    # the extent, and the halves stay disjoint
    assert _scf_kinds(tmp_path, "halves", HALVES_UNKNOWN_EXTENT) == [["load"], ["store"]]


ROWS_UNKNOWN_INNER_EXTENT = """module {
  func.func @rows(%arg0: memref<2x?xi32>) {
    %c0 = arith.constant 0 : i32
    %c1 = arith.constant 1 : i32
    %c8 = arith.constant 8 : i32
    %c3 = arith.constant 3 : i32
    %r0 = arith.constant 0 : index
    %r1 = arith.constant 1 : index
    scf.for %j = %c0 to %c8 step %c1 : i32 {
      %j2 = arith.addi %j, %j : i32
      %jj = arith.index_cast %j2 : i32 to index
      %v = memref.load %arg0[%r0, %jj] : memref<2x?xi32>
      %w = arith.muli %v, %c3 : i32
      memref.store %w, %arg0[%r1, %jj] : memref<2x?xi32>
    }
    return
  }
}
"""


def test_an_unknown_inner_extent_keeps_every_order(tmp_path):
    # a[0][2j] and a[1][2j] for j < 8 on rows of unknown extent (SCF written
    # by hand): an array indexed past an inner extent is flat row-major
    # memory (design.md, kernel contract), so with rows of 4 the store of
    # a[1][0] is the load of a[0][4]: one chain (rows of any odd length would
    # keep them apart, an extent the analysis does not know)
    assert _scf_kinds(tmp_path, "rows", ROWS_UNKNOWN_INNER_EXTENT) == [["load", "store"]]
