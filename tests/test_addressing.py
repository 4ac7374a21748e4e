"""C's flat, row-major addressing (issue 9, class 6).

`a[k][n]` with n equal to the inner extent is `a[k + 1][0]` in C and in the
hardware; the golden model and the SCF/CF reference must follow the native
run, warn once per C line, and fail only outside the whole array, with a
report that never says "match" about a run that stopped.
"""

from __future__ import annotations

import json

import pytest

from loom.addressing import row_major
from loom.cli import main


@pytest.mark.parametrize("index,shape,flat,inside,stray", [
    ((0, 10), (10, 10), 10, True, True),       # a[0][10] is a[1][0]
    ((9, 9), (10, 10), 99, True, False),
    ((9, 10), (10, 10), 100, False, True),     # one past the whole array
    ((1, -1), (10, 10), 9, True, True),        # a[1][-1] is a[0][9]
    ((0, 0, 7), (2, 3, 4), 7, True, True),     # c[0][0][7] is c[0][1][3]
    ((1, 2, 3), (2, 3, 4), 23, True, False),
    ((-1, 5), (10, 10), -5, False, True),
])
def test_row_major_is_c_pointer_arithmetic(index, shape, flat, inside, stray):
    at = row_major(index, shape)
    assert (at.flat, at.inside, at.stray) == (flat, inside, stray)


KERNEL = """\
#define N 10
int {name}(int a[N][N], int b[N]) {{
  int s = 0;
  for (int k = 0; k < {rows}; k++)
    for (int n = 0; n <= N; n++)
      s += a[k][n] * b[k];
  a[0][N] = s;
  return s;
}}
int main(void) {{
  int a[N][N], b[N];
  for (int i = 0; i < N; i++) {{
    b[i] = i + 1;
    for (int j = 0; j < N; j++) a[i][j] = i * N + j;
  }}
  return {name}(a, b) == 0;
}}
"""


def _flat_kernel_result(rows: int) -> tuple[int, list[int]]:
    a = [i * 10 + j for i in range(10) for j in range(10)]
    s = sum(a[k * 10 + n] * (k + 1) for k in range(rows) for n in range(11))
    a[10] = s
    return s, a


def _write(tmp_path, name: str, rows: str):
    src = tmp_path / f"{name}.c"
    src.write_text(KERNEL.format(name=name, rows=rows))
    return src


def test_past_the_inner_extent_follows_the_native_run(tmp_path, capsys):
    src = _write(tmp_path, "rowmajor", "N - 2")
    out_dir = tmp_path / "out"
    assert main(["run", str(src), "-o", str(out_dir)]) == 0
    golden = capsys.readouterr()
    assert "PASS: results and memories match" in golden.out
    s, a = _flat_kernel_result(8)
    bundle = json.loads((out_dir / "rowmajor.bundle.json").read_text())
    assert bundle["expected_outputs"] == [{"result_index": 0, "data": [s]}]
    assert bundle["expected_memory_regions"][0]["values"] == a
    for stage in ("scf", "cf"):
        assert main(["run", str(src), "--stage", stage, "-o", str(out_dir)]) == 0
        ref = capsys.readouterr()
        assert "matches the native run" in ref.out
        assert ref.err == golden.err
    # once per C line: the read on line 6 and the write on line 7
    assert golden.err.splitlines() == [
        f"{src}:6:12: warning: index [0, 10] runs past an inner extent of a 10x10 array; "
        "it reaches element 10 (row-major, as C and the hardware do)",
        f"{src}:7:11: warning: index [0, 10] runs past an inner extent of a 10x10 array; "
        "it reaches element 10 (row-major, as C and the hardware do)"]


def test_outside_the_whole_array_is_a_located_failure(tmp_path, capsys):
    src = _write(tmp_path, "pastend", "N")
    out_dir = tmp_path / "out"
    assert main(["run", str(src), "-o", str(out_dir)]) == 1
    out = capsys.readouterr().out
    error = (f"{src}:6:12: error: MemoryOutOfBounds: index [9, 10] is element 100, "
             "outside a 10x10 array (100 elements)")
    assert error in out
    assert "match" not in out and "PASS" not in out
    assert "FAIL: the run stopped before every invocation returned; nothing compared" in out
    assert main(["run", str(src), "--stage", "scf", "-o", str(out_dir)]) == 1
    assert (f"FAILED: {src}:6:12: index [9, 10] is element 100, outside a 10x10 array "
            "(100 elements)") in capsys.readouterr().out
