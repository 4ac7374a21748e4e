"""C-Vise shrinks a failing program and keeps its failure (loom.fuzz.reduce)."""

from __future__ import annotations

import shutil

import pytest

from loom.fuzz.campaign import FuzzProgram, run_program

# C-Vise tries hundreds of candidates, each a fresh Python process: minutes.
pytestmark = [pytest.mark.slow,
              pytest.mark.skipif(shutil.which("cvise") is None,
                                 reason="cvise is not installed (make fuzz installs it)")]

PADDED_UB = """#include <stdint.h>
#define N 8
int32_t ub(int32_t a[N], int32_t x) {
  int32_t s = 0;
  for (int32_t i = 0; i < N; i++)
    s = (int32_t)((uint32_t)s + (uint32_t)a[i]);
  if (s > 3) s = s * 2 - 1;
  for (int32_t i = 0; i < N; i++)
    a[i] = a[i] ^ s;
  return x + 2147483647;
}
int main(void) {
  int32_t a[N];
  for (int i = 0; i < N; i++) a[i] = i * 3;
  return ub(a, 5) == 0;
}
"""


def test_a_failing_program_shrinks_and_still_fails_the_same_way(tmp_path):
    from loom.fuzz.reduce import reduce_failure
    result = run_program(FuzzProgram("ub", -1, PADDED_UB), tmp_path / "work", rtl=False)
    assert result.outcome == "ub"
    reduced = reduce_failure(result, tmp_path / "work", tmp_path / "reduced")
    text = reduced.read_text()
    assert text.startswith("/* reduced by loom fuzz from seed -1: ub: signed integer overflow")
    assert len(text.splitlines()) < len(PADDED_UB.splitlines())
    again = run_program(FuzzProgram("ub", -1, text), tmp_path / "again", rtl=False)
    assert again.outcome == "ub" and again.detail.startswith("signed integer overflow")
