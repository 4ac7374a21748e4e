"""The raiser at the top's boundary: C's `bool` (i1 in LLVM's calling convention,
a byte in memory) is an 8-bit integer to the flow, end to end.

Expected values are computed here in Python from the kernel's C definition;
the SCF/CF reference and the golden model must reproduce the native run.
"""

from __future__ import annotations

import pytest

from tests.frontend.c_kernel import compile_c, golden_passes, reference_problems

BOOL_KERNEL = """\
#include <stdbool.h>
#include <stdint.h>
bool bools(bool flags[16], const int32_t a[16], _Bool out[16], bool neg, _Bool odd) {
  bool any = false;
  for (int i = 0; i < 16; i++) {
    int32_t v = neg ? -a[i] : a[i];
    bool big = v > 10;
    out[i] = big && !flags[i];
    if (odd ? (v & 1) : !(v & 1))
      any = any || (flags[i] && v < 0);
    flags[i] = !flags[i];
  }
  return any;
}
int main(void) {
  bool f[16], o[16];
  int32_t a[16];
  for (int i = 0; i < 16; i++) { f[i] = (i % 3) == 0; a[i] = i * 2 - 9; o[i] = i & 1; }
  bools(f, a, o, false, true);
  bools(f, a, o, true, false);
  bools(f, a, o, true, true);
  return 0;
}
"""


def _bools(flags: list[int], a: list[int], out: list[int], neg: int, odd: int) -> int:
    any_ = 0
    for i in range(16):
        v = -a[i] if neg else a[i]
        out[i] = int(v > 10 and not flags[i])
        if (v & 1) if odd else not (v & 1):
            any_ = int(any_ or (flags[i] and v < 0))
        flags[i] = int(not flags[i])
    return any_


@pytest.fixture(scope="module")
def bools(tmp_path_factory):
    return compile_c(tmp_path_factory, "bools", BOOL_KERNEL)


def test_bool_is_a_byte_at_the_boundary(bools):
    _, arts = bools
    assert arts.signature.arg_types == ["memref<16xi8>", "memref<16xi32>", "memref<16xi8>",
                                        "i8", "i8"]
    assert arts.signature.result_types == ["i8"]
    flags = [int(i % 3 == 0) for i in range(16)]
    a = [i * 2 - 9 for i in range(16)]
    out = [i & 1 for i in range(16)]
    b = arts.bundle
    assert {r.memref_arg_index: r.values for r in b.memory_regions} == {0: flags, 1: a, 2: out}
    calls = [(0, 1), (1, 0), (1, 1)]
    results = [_bools(flags, a, out, neg, odd) for neg, odd in calls]
    assert results != [0, 0, 0]
    assert [(s.arg_index, s.data) for s in b.scalar_inputs] == [
        (3, [c[0] for c in calls]), (4, [c[1] for c in calls])]
    assert [(r.result_index, r.data) for r in b.expected_outputs] == [(0, results)]
    assert {r.memref_arg_index: r.values for r in b.expected_memory_regions} == {
        0: flags, 1: a, 2: out}


@pytest.mark.parametrize("stage", ["scf", "cf"])
def test_bool_reference_matches_native(bools, stage):
    _, arts = bools
    assert reference_problems(arts, stage) == []


def test_bool_golden_matches_native(bools, tmp_path, capsys):
    src, _ = bools
    golden_passes(src, tmp_path / "golden", capsys)
