"""A local struct of scalars, passed by pointer to a static helper (CHStone's
coder state, as kernels/adpcm_encode.c keeps it): MLIR's sroa splits it into
its fields and the second mem2reg (frontend/driver.py) makes each a value, so
the DFG has no memory for it. Expected values are computed here in Python from
the C; the reference and golden runs must reproduce the native run."""

from __future__ import annotations

import pytest

from tests.frontend.c_kernel import compile_c, golden_passes, reference_problems

STATE_KERNEL = """\
struct acc { int sum, last, peak; };
static void step(struct acc *s, int v) {
  s->sum += v - s->last;
  s->last = v;
  if (s->sum > s->peak)
    s->peak = s->sum;
}
int state(const int a[12], int out[3]) {
  struct acc s;
  s.sum = s.last = 0;
  s.peak = -1000;
  for (int i = 0; i < 12; i++)
    step(&s, a[i]);
  out[0] = s.sum;
  out[1] = s.last;
  out[2] = s.peak;
  return s.peak - s.sum;
}
int main(void) {
  int a[12] = {3, -7, 12, 5, 5, -20, 8, 1, 0, 9, -4, 6}, out[3];
  state(a, out);
  return 0;
}
"""


def _state(a: list[int]) -> tuple[list[int], int]:
    total, last, peak = 0, 0, -1000
    for v in a:
        total += v - last
        last = v
        peak = max(peak, total)
    return [total, last, peak], peak - total


@pytest.fixture(scope="module")
def state(tmp_path_factory):
    return compile_c(tmp_path_factory, "state", STATE_KERNEL)


def test_the_struct_is_values_not_a_memory(state):
    _, arts = state
    scf = arts.scf_mlir.read_text()
    assert "func.func @state" in scf and "memref.alloca" not in scf


def test_the_native_run_is_the_c_definition(state):
    _, arts = state
    a = [3, -7, 12, 5, 5, -20, 8, 1, 0, 9, -4, 6]
    out, ret = _state(a)
    (expected,) = arts.bundle.expected_outputs
    (after,) = [r for r in arts.bundle.expected_memory_regions if r.memref_arg_index == 1]
    assert expected.data == [ret] and after.values == out


@pytest.mark.parametrize("stage", ["cf", "scf"])
def test_the_reference_matches_native(state, stage):
    assert reference_problems(state[1], stage) == []


def test_golden_matches_native(state, tmp_path, capsys):
    golden_passes(state[0], tmp_path, capsys)
