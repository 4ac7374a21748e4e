"""float and double through the front end (issue 33 item 1): the signature's
types, the native run's bit patterns, the SCF ops, and the reference and
golden runs against the native one.

The native run's patterns are checked against Python's struct encoding of the
values the C program sets up (an independent reference); the kernel's own
results are the native run's, which the reference and golden runs must
reproduce bit for bit."""

from __future__ import annotations

import struct

import pytest

from tests.frontend.c_kernel import compile_c, golden_passes, reference_problems

KERNEL = """\\
#include <math.h>
#include <stdint.h>
float fk(float a[8], double d[8], int32_t n[8], float s, uint16_t u) {
  float acc = -INFINITY;
  float t[8];
  for (int i = 0; i < 8; i++) {
    float x = a[i] * s + 1.5f;
    if (x > acc && !isnan(x))
      acc = x;
    t[i] = -x;
    d[i] = sqrt((double)fabsf(x)) + fabs(d[i]) - fmin(d[i], 2.0) * fmax(d[i], -0.0);
    n[i] = (int32_t)x + (int32_t)sqrtf(fabsf(x)) + (int32_t)(d[i] / 3.0);
    a[i] = (float)u / (float)(n[i] + 100) + (float)d[i] + fmodf(x, 0.75f);
  }
  for (int i = 0; i < 8; i++)
    acc += t[i] < -1.0f ? 0.25f : t[i];
  return acc;
}
int main(void) {
  float a[8];
  double d[8];
  int32_t n[8];
  for (int i = 0; i < 8; i++) {
    a[i] = i * 0.75f - 2.0f;
    d[i] = -i * 1.25;
    n[i] = 0;
  }
  fk(a, d, n, 3.0f, 40000);
  return 0;
}
"""


@pytest.fixture(scope="module")
def fk(tmp_path_factory):
    return compile_c(tmp_path_factory, "fk", KERNEL)


def test_the_signature_has_float_types(fk):
    _, arts = fk
    assert arts.signature.arg_types == ["memref<8xf32>", "memref<8xf64>", "memref<8xi32>",
                                        "f32", "i16"]
    assert arts.signature.result_types == ["f32"]


def test_the_native_run_records_bit_patterns(fk):
    _, arts = fk
    f32 = [struct.unpack("<I", struct.pack("<f", i * 0.75 - 2.0))[0] for i in range(8)]
    f64 = [struct.unpack("<Q", struct.pack("<d", -i * 1.25))[0] for i in range(8)]
    regions = {r.memref_arg_index: r.values for r in arts.bundle.memory_regions}
    assert regions[0] == f32 and regions[1] == f64
    scalars = {s.arg_index: s.data for s in arts.bundle.scalar_inputs}
    assert scalars == {3: [0x40400000], 4: [40000]}


def test_the_scf_form_has_the_float_ops(fk):
    _, arts = fk
    scf = arts.scf_mlir.read_text()
    for op in ("arith.mulf", "arith.addf", "arith.subf", "arith.divf", "arith.cmpf",
               "arith.negf", "arith.remf", "math.sqrt", "math.absf", "arith.minnumf", "arith.maxnumf",
               "arith.sitofp", "arith.uitofp", "arith.fptosi", "arith.extf", "arith.truncf",
               "memref.alloca"):
        assert op in scf, op


@pytest.mark.parametrize("stage", ["cf", "scf"])
def test_the_reference_matches_native(fk, stage):
    assert reference_problems(fk[1], stage) == []


def test_golden_matches_native(fk, tmp_path, capsys):
    golden_passes(fk[0], tmp_path, capsys)


TABLES = """\\
#include <math.h>
static const float coef[6] = {0.1f, -1e-40f, 3.4e38f, 1.0f / 3.0f, -0.0f, 7.25f};
static const double dcoef[3] = {0.1, 1e-310, -2.5};
void ft(float a[12], double d[6]) {
  const float local[4] = {0.3f, 0.7f, INFINITY, 1e-45f};
  for (int i = 0; i < 12; i++)
    a[i] = a[i] * coef[i % 6] + local[i % 4];
  for (int i = 0; i < 6; i++)
    d[i] = d[i] * dcoef[i % 3];
}
int main(void) {
  float a[12];
  double d[6];
  for (int i = 0; i < 12; i++)
    a[i] = i * 0.37f - 1.0f;
  for (int i = 0; i < 6; i++)
    d[i] = i - 2.5;
  ft(a, d);
  return 0;
}
"""


@pytest.fixture(scope="module")
def tables(tmp_path_factory):
    return compile_c(tmp_path_factory, "ft", TABLES)


def test_float_tables_are_read_only_memories(tables):
    """File-scope and local const tables of floats, with a subnormal, -0, an
    infinity (MLIR writes it in hex) and values that need nine digits."""
    _, arts = tables
    scf = arts.scf_mlir.read_text()
    assert scf.count("memref.global") == 3 and "memref.alloca" not in scf


@pytest.mark.parametrize("stage", ["cf", "scf"])
def test_float_tables_in_the_reference(tables, stage):
    assert reference_problems(tables[1], stage) == []


def test_float_tables_in_the_golden_model(tables, tmp_path, capsys):
    golden_passes(tables[0], tmp_path, capsys)
