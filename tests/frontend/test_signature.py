"""The top's C signature: array extents survive decay, typedefs and macros."""

from __future__ import annotations

import pytest

from loom.diagnostics import LoomError
from loom.frontend.signature import read_signature
from loom.frontend.toolchain import find_toolchain

SOURCE = """\
#include <stdint.h>
#define W 8
typedef int16_t row_t[W + 1];
uint8_t sig(const uint32_t a[static 4], row_t m[3], int64_t big[2][W],
            unsigned char c, long long d) { return (uint8_t)(a[0] + m[0][0] + c); }
"""


@pytest.fixture(scope="module")
def tc():
    return find_toolchain()


def test_shapes_widths_and_types(tc, tmp_path):
    src = tmp_path / "sig.c"
    src.write_text(SOURCE)
    sig = read_signature(tc, src, "sig", [])
    assert [p.name for p in sig.params] == ["a", "m", "big", "c", "d"]
    assert sig.arg_types == ["memref<4xi32>", "memref<3x9xi16>", "memref<2x8xi64>", "i8", "i64"]
    assert sig.result_types == ["i8"]
    assert [p.line for p in sig.params] == [4, 4, 4, 5, 5]


def test_defines_reach_the_signature(tc, tmp_path):
    src = tmp_path / "n.c"
    src.write_text("void n(int a[N]) { a[0] = 1; }\n")
    assert read_signature(tc, src, "n", ["-DN=24"]).arg_types == ["memref<24xi32>"]


def test_incomplete_array_has_unknown_extent(tc, tmp_path):
    src = tmp_path / "u.c"
    src.write_text("int u(int a[], int n) { return a[n]; }\n")
    with pytest.raises(LoomError, match="pointer parameter 'a' of unknown extent"):
        read_signature(tc, src, "u", [])


def test_declared_but_not_defined(tc, tmp_path):
    src = tmp_path / "d.c"
    src.write_text("int d(int a[4]);\nint main(void) { return 0; }\n")
    with pytest.raises(LoomError, match="declared but not defined"):
        read_signature(tc, src, "d", [])
