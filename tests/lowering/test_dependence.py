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
