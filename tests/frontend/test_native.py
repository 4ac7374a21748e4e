"""The native run's capture: arguments before the call, arrays and result after it.

Expected values are computed here in Python from the kernel's definition,
independently of the tool.
"""

from __future__ import annotations


import pytest

from loom.bundle import compare
from loom.cli import main
from loom.frontend.driver import compile_kernel
from loom.frontend.reference import run_reference

KERNEL = """\
#include "params.h"
long long capture(int a[N], unsigned char b[N], long long c[N][2], int s, unsigned u);
static int helper_uses_the_top(int a[N], unsigned char b[N], long long c[N][2]) {
  return (int)capture(a, b, c, -3, 4000000000u);
}
int main(void) {
  int a[N];
  unsigned char b[N];
  long long c[N][2];
  for (int i = 0; i < N; i++) {
    a[i] = i * 5 - 20;
    b[i] = (unsigned char)(250 + i);
    c[i][0] = -1;
    c[i][1] = (long long)i << 40;
  }
  printf("main may print\\n");
  return helper_uses_the_top(a, b, c) == 12345;
}
long long capture(int a[N], unsigned char b[N], long long c[N][2], int s, unsigned u) {
  long long t = 0;
  for (int i = 0; i < N; i++) {
    a[i] = a[i] * s;
    b[i] = (unsigned char)(b[i] + 10);
    c[i][0] = (long long)a[i] * u;
    t += c[i][0] - b[i];
  }
  return t;
}
"""


@pytest.fixture(scope="module")
def capture_bundle(tmp_path_factory):
    d = tmp_path_factory.mktemp("native")
    (d / "inc").mkdir()
    (d / "inc" / "params.h").write_text("#include <stdio.h>\n")
    src = d / "capture.c"
    src.write_text(KERNEL)
    return compile_kernel(src, None, [str(d / "inc")], ["N=12"], d / "out")


def test_inputs_and_outputs_match_python(capture_bundle):
    n = 12
    b = capture_bundle.bundle
    a0 = [i * 5 - 20 for i in range(n)]
    b0 = [(250 + i) % 256 for i in range(n)]
    c0 = [v for i in range(n) for v in (-1, i << 40)]
    assert [(s.arg_index, s.data) for s in b.scalar_inputs] == [(3, [-3]), (4, [4000000000])]
    assert {r.memref_arg_index: (r.elem_size_bytes, r.values) for r in b.memory_regions} == {
        0: (4, a0), 1: (1, b0), 2: (8, c0)}
    a1 = [x * -3 for x in a0]
    b1 = [(x + 10) % 256 for x in b0]
    c1 = list(c0)
    for i in range(n):
        c1[2 * i] = a1[i] * 4000000000
    total = sum(c1[2 * i] - b1[i] for i in range(n))
    after = {r.memref_arg_index: r.values for r in b.expected_memory_regions}
    assert after == {0: a1, 1: b1, 2: c1}
    assert [(r.result_index, r.data) for r in b.expected_outputs] == [(0, [total])]


def test_bundle_types_and_file(capture_bundle):
    arts = capture_bundle
    assert arts.bundle.extra["arg_types"] == ["memref<12xi32>", "memref<12xi8>",
                                              "memref<12x2xi64>", "i32", "i32"]
    assert arts.bundle.extra["result_types"] == ["i64"]
    assert arts.bundle_path.name == "capture.bundle.json"
    assert '"arg_types"' in arts.bundle_path.read_text()


MAIN_CASES = {
    "never": ("void never(int a[4]) { a[0]++; }\nint main(void) { return 0; }\n",
              ":2: error: main() never calls 'never'; it must call it at least once"),
    "nomain": ("void nomain(int a[4]) { a[0]++; }\n",
               ": error: the file has no main(); it must set up the inputs and call 'nomain'"),
    "alias": ("void alias(int a[4], int b[4]) { for (int i = 0; i < 4; i++) b[i] = a[i] + 1; }\n"
              "int main(void) { int a[4] = {0}; alias(a, a); return 0; }\n",
              ":2: error: main() passes overlapping arrays as 'a' and 'b'; aliased array "
              "arguments are not supported"),
    "alias_later": ("void alias_later(int a[4], int b[4]) { b[0] = a[0]; }\n"
                    "int main(void) {\n  int a[8] = {0}, b[4] = {0};\n"
                    "  alias_later(a, b); alias_later(a, b); alias_later(a, a + 2);\n"
                    "  return 0;\n}\n",
                    ":2: error: main() passes overlapping arrays as 'a' and 'b'; aliased array "
                    "arguments are not supported"),
    "exitcode": ("void exitcode(int a[4]) { a[0]++; }\n"
                 "int main(void) { int a[4] = {0}; exitcode(a); return 3; }\n",
                 ":2: error: main() returned 3 in the native run; it must return 0"),
    # main() changes the array between calls: the bundle cannot say so. The
    # reason wins over main()'s nonzero status (its count of calls).
    "changed": ("int changed(int a[4], int s) {\n  a[s & 3] += s;\n  return a[0];\n}\n"
                "int main(void) {\n  int a[4] = {1, 2, 3, 4}, calls = 0;\n"
                "  calls += changed(a, 1) != 0; calls += changed(a, 2) != 0;\n"
                "  a[3] = 9;\n  calls += changed(a, 3) != 0;\n  return calls;\n}\n",
                ":5: error: main() changes array 'a' between calls 2 and 3 of 'changed'; a "
                "bundle sets arrays only before the first call, so it cannot express that"),
}


@pytest.mark.parametrize("name", sorted(MAIN_CASES))
def test_main_is_refused_with_its_reason(tmp_path, capsys, name):
    source, tail = MAIN_CASES[name]
    src = tmp_path / f"{name}.c"
    src.write_text(source)
    status = main(["compile", str(src), "-o", str(tmp_path / "out")])
    err = capsys.readouterr().err.strip()
    assert status == 2
    assert err == f"{src}{tail}"


# -- several calls: one invocation each (issue 9, class 8) --------------------------------

SEVERAL = """#include <stdint.h>
int64_t several(int16_t hist[8], const uint8_t data[12], int shift, uint8_t bias) {
  int64_t s = 0;
  for (int i = 0; i < 12; i++) {
    int b = ((data[i] + bias) >> shift) & 7;
    hist[b] += 1;
    s = s * 3 + b - shift;
  }
  return s;
}
int main(void) {
  int16_t hist[8] = {0};
  uint8_t data[12];
  for (int i = 0; i < 12; i++) data[i] = (uint8_t)(i * 37 + 5);
  int64_t t = 0;
  for (int k = 0; k < 4; k++)
    t += several(hist, data, k, (uint8_t)(250 + k * 3));
  t += several(hist, data, 1, 0);
  return t == 0;
}
"""


def _several(hist: list[int], data: list[int], shift: int, bias: int) -> int:
    s = 0
    for d in data:
        b = ((d + bias) >> shift) & 7
        hist[b] += 1
        s = s * 3 + b - shift
    return s


def test_each_call_is_one_invocation(tmp_path):
    src = tmp_path / "several.c"
    src.write_text(SEVERAL)
    arts = compile_kernel(src, None, [], [], tmp_path / "out")
    b = arts.bundle
    data = [(i * 37 + 5) % 256 for i in range(12)]
    calls = [(k, (250 + k * 3) % 256) for k in range(4)] + [(1, 0)]
    hist = [0] * 8
    results = [_several(hist, data, shift, bias) for shift, bias in calls]
    assert b.start_token_count == 5
    assert [(s.arg_index, s.data) for s in b.scalar_inputs] == [
        (2, [c[0] for c in calls]), (3, [c[1] for c in calls])]
    assert {r.memref_arg_index: r.values for r in b.memory_regions} == {0: [0] * 8, 1: data}
    assert {r.memref_arg_index: r.values for r in b.expected_memory_regions} == {
        0: hist, 1: data}
    assert [(r.result_index, r.data) for r in b.expected_outputs] == [(0, results)]
    for path in (arts.scf_mlir, arts.cf_mlir):
        assert compare(b, run_reference(path, b, arts.top)) == []


def test_a_void_top_called_twice_has_no_outputs(tmp_path):
    src = tmp_path / "twice.c"
    src.write_text("void twice(int a[4]) { for (int i = 0; i < 4; i++) a[i] = 2 * a[i] + i; }\n"
                   "int main(void) { int a[4] = {1, 2, 3, 4}; twice(a); twice(a); return 0; }\n")
    b = compile_kernel(src, None, [], [], tmp_path / "out").bundle
    assert b.start_token_count == 2 and b.expected_outputs == [] and b.scalar_inputs == []
    assert [r.values for r in b.expected_memory_regions] == [
        [2 * (2 * v + i) + i for i, v in enumerate([1, 2, 3, 4])]]


# -- however the source declares the top (issue 9, class 2) -------------------------------
# The HLS-suite layout: a header with an include guard, #define sizes, a typedef
# element type and the top's prototype; main() fills the inputs with rand().

HLS_HEADER = """\
#ifndef FIRK_H
#define FIRK_H
#include <stdint.h>
#define N_TAPS 4
#define N_SAMPLES 16
typedef int32_t data_t;
typedef int16_t coef_t;
{proto}
#endif
"""

HLS_KERNEL = """\
#include <stdio.h>
#include <stdlib.h>
#include "firk.h"

{head} {{
  data_t acc_all = 0;
  for (int n = 0; n < N_SAMPLES; n++) {{
    data_t acc = 0;
    for (int k = 0; k < N_TAPS; k++)
      if (n - k >= 0)
        acc += x[n - k] * c[k];
    y[n] = acc;
    acc_all ^= acc;
  }}
  return acc_all;
}}

int main(void) {{
  data_t x[N_SAMPLES], y[N_SAMPLES];
  coef_t c[N_TAPS];
  srand(7);
  for (int i = 0; i < N_SAMPLES; i++) x[i] = rand() % 200 - 100;
  for (int i = 0; i < N_TAPS; i++) c[i] = (coef_t)(rand() % 20 - 10);
  printf("%d\\n", firk(x, c, y));
  return 0;
}}
"""

PARAMS = "data_t x[N_SAMPLES], const coef_t c[N_TAPS], data_t y[N_SAMPLES]"
LAYOUTS = {
    "prototype_in_header": (f"data_t firk({PARAMS});", f"data_t firk({PARAMS})"),
    "macro": (f"#define KERNEL(name) data_t name({PARAMS})\nKERNEL(firk);", "KERNEL(firk)"),
    "attributes": (f"__attribute__((noinline)) data_t firk({PARAMS});",
                   f"__attribute__((noinline, used)) data_t __attribute__((hot)) firk({PARAMS})"),
    "always_inline": ("", f"static inline __attribute__((always_inline)) data_t firk({PARAMS})"),
    "static": (f"static data_t firk({PARAMS});", f"static data_t firk({PARAMS})"),
}


def _fir(x: list[int], c: list[int]) -> tuple[list[int], int]:
    y, acc_all = [], 0
    for n in range(len(x)):
        acc = sum(x[n - k] * c[k] for k in range(len(c)) if n - k >= 0)
        y.append(acc)
        acc_all ^= acc
    return y, acc_all


@pytest.mark.parametrize("layout", sorted(LAYOUTS))
def test_top_declared_anywhere(tmp_path, layout):
    proto, head = LAYOUTS[layout]
    (tmp_path / "firk.h").write_text(HLS_HEADER.format(proto=proto))
    src = tmp_path / "firk.c"
    src.write_text(HLS_KERNEL.format(head=head))
    arts = compile_kernel(src, None, [], [], tmp_path / "out")
    b = arts.bundle
    before = {r.memref_arg_index: r.values for r in b.memory_regions}
    assert sorted(before) == [0, 1, 2] and len(before[0]) == 16 and len(before[1]) == 4
    assert all(-100 <= v < 100 for v in before[0]) and len(set(before[0])) > 4
    y, acc_all = _fir(before[0], before[1])
    after = {r.memref_arg_index: r.values for r in b.expected_memory_regions}
    assert after == {0: before[0], 1: before[1], 2: y}
    assert [(r.result_index, r.data) for r in b.expected_outputs] == [(0, [acc_all])]
    outcome = run_reference(arts.scf_mlir, b, arts.top)
    assert compare(b, outcome) == []
