"""Loops that only compute constants are folded by the front end
(frontend/constant_loops.py); everything else keeps its loops. The native
run is the reference: the SCF reference run and the golden model of the
folded kernel reproduce it."""

from __future__ import annotations

import re

import pytest

from loom.frontend.constant_loops import FOLD_STEPS

from tests.frontend.c_kernel import compile_c, golden_passes, reference_problems

MAIN = """
int main(void) {
  int a[8] = {0};
  %s
  return 0;
}
"""


def _loops(arts) -> int:
    return len(re.findall(r"\bscf\.(?:for|while)\b", arts.scf_mlir.read_text()))


FOLDED = {
    # simple_example_1's loop: unsigned, so an scf.while, counting to 100
    "count": ("void count(int a[8]) { int x = 0; for (unsigned i = 0; i < 100; ++i) x++;"
              " a[0] = x; }", "count(a);"),
    # two nested loops (the inner one folds first, then the outer), signed
    "nested": ("void nested(int a[8]) { int s = 0; for (int i = 0; i < 6; i++)"
               " for (int j = i; j < 6; j++) s += i * j - 3; a[1] = s; }", "nested(a);"),
    # wraps around 8 bits on purpose: the fold computes what the hardware would
    "wrap": ("void wrap(unsigned char a[8]) { unsigned char x = 1;"
             " for (int i = 0; i < 50; i++) x = x * 3 + 1; a[2] = x; }",
             "unsigned char b[8] = {0}; wrap(b);"),
}


@pytest.mark.parametrize("name", sorted(FOLDED))
def test_a_loop_of_constants_folds_to_the_native_value(tmp_path_factory, capsys, name):
    body, call = FOLDED[name]
    src, arts = compile_c(tmp_path_factory, name, body + MAIN % call)
    assert _loops(arts) == 0
    assert reference_problems(arts, "scf") == []
    golden_passes(src, src.parent / "run", capsys)


KEPT = {
    # a bound from an argument: the count is not a constant
    "bound": ("int bound(int n) { int x = 0; for (int i = 0; i < n; i++) x += 2; return x; }",
              "bound(a[0] + 37);"),
    # a loop that reads memory
    "reads": ("int reads(const int a[8]) { int s = 0; for (int i = 0; i < 8; i++) s += a[i];"
              " return s; }", "reads(a);"),
    # more iterations than the fold's budget: left to the hardware
    "long": (f"int longer(void) {{ int x = 0; for (int i = 0; i < {FOLD_STEPS + 5}; i++)"
             " x += 3; return x; }", "longer();"),
}


@pytest.mark.parametrize("name", sorted(KEPT))
def test_other_loops_stay(tmp_path_factory, name):
    body, call = KEPT[name]
    top = "longer" if name == "long" else name
    _, arts = compile_c(tmp_path_factory, top, body + MAIN % call)
    assert _loops(arts) == 1
    assert reference_problems(arts, "scf") == []
