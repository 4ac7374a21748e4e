"""C tables the kernel only reads become constant tables (issue 32 item 4):
a `memref.global` constant with the C initializer, read in place through
`memref.get_global`, then one read-only handshake.memory with `init` (a ROM
in the RTL). Values are written here from the C source; the native run is
the reference for the results."""

from __future__ import annotations


import pytest

from loom.dialects.handshake_memory import memory_init
from loom.dialects.memref_extras import GlobalOp
from loom.frontend.driver import compile_kernel
from loom.ir import load_module
from tests.frontend.c_kernel import compile_c, golden_passes, reference_problems

NIBBLES = [7, 3, 11, 0, 15, 2, 9, 4, 1, 13, 6, 10, 5, 14, 8, 12]
KERNEL = f"""\
#include <stdint.h>
static const int16_t scale[2][3] = {{{{-3, 0, 5}}, {{7, -128, 1}}}};
uint32_t tables(const uint8_t in[32], uint8_t out[32], int32_t acc[6]) {{
  const uint8_t sub[16] = {{{", ".join(map(str, NIBBLES))}}};
  int32_t written[2] = {{1, 2}};
  uint32_t s = 0;
  for (int i = 0; i < 32; i++) {{
    out[i] = sub[in[i] & 15];
    s += out[i];
    written[i & 1] += in[i];
  }}
  for (int r = 0; r < 2; r++)
    for (int c = 0; c < 3; c++)
      acc[r * 3 + c] = scale[r][c] * written[r];
  return s;
}}
int main(void) {{
  uint8_t in[32], out[32];
  int32_t acc[6];
  for (int i = 0; i < 32; i++) in[i] = (uint8_t)(i * 29 + 3);
  return tables(in, out, acc) == 0;
}}
"""


@pytest.fixture(scope="module")
def tables(tmp_path_factory):
    return compile_c(tmp_path_factory, "tables", KERNEL)


def test_read_only_tables_are_constant_globals(tables):
    _, arts = tables
    text = arts.scf_mlir.read_text()
    globals_ = {op.sym_name.data: op for op in load_module(arts.scf_mlir).ops
                if isinstance(op, GlobalOp)}
    # the local `const` table and the file-scope one; `written` is stored to
    assert set(globals_) == {"__const.tables.sub", "scale"}
    assert all(g.constant is not None for g in globals_.values())
    assert [int(v) for v in globals_["__const.tables.sub"].initial_value.get_values()] == NIBBLES
    assert [int(v) for v in globals_["scale"].initial_value.get_values()] == \
        [-3, 0, 5, 7, -128, 1]
    assert text.count("memref.get_global") == 2 and text.count("memref.alloca") == 1


def test_tables_reference_matches_native(tables):
    # the reference interpreter reads the tables from the globals, in CF and SCF
    for stage in ("cf", "scf"):
        assert reference_problems(tables[1], stage) == [], stage


def test_a_table_is_a_read_only_memory_with_its_contents(tables, tmp_path, capsys):
    src, _ = tables
    golden_passes(src, tmp_path, capsys)
    func = next(op for op in load_module(tmp_path / "tables.dfg.mlir").walk()
                if op.name == "handshake.func")
    inits = sorted((op.properties["ld_count"].value.data, op.properties["st_count"].value.data,
                    memory_init(op)) for op in func.walk() if op.name == "handshake.memory")
    # sub: one load, no store, the 16 nibbles; scale: one load, its six
    # values; written: stored to (its two initial values and the loop), no contents
    tables = sorted(((ld, st, init) for ld, st, init in inits if init is not None), key=str)
    assert tables == sorted([(1, 0, [-3, 0, 5, 7, -128, 1]), (1, 0, NIBBLES)], key=str)
    assert [init for ld, st, init in inits if st] == [None]


def test_for_the_fabric_tables_are_written_by_their_initializers(tmp_path):
    # the fabric's memories start empty: without constant tables the local
    # table is a local array again, its 16 values stored at entry (the
    # file-scope table, which the fabric refuses, is taken out here; the
    # refusal: test_fabric_regression.py's REFUSED)
    local = tmp_path / "tables.c"
    scale = "static const int16_t scale[2][3] = {{-3, 0, 5}, {7, -128, 1}};"
    local.write_text(KERNEL.replace(scale, "").replace("scale[r][c]", "(r + c)"))
    arts = compile_kernel(local, None, [], [], tmp_path / "o", constant_tables=False)
    text = arts.scf_mlir.read_text()
    assert "memref.global" not in text and text.count("memref.alloca") == 2


LONG = """\
#include <stdint.h>
int32_t running(const int32_t x[100], int32_t y[100]) {
  int32_t w[100] = {%s};
  int32_t s = 0;
  for (int i = 0; i < 100; i++) {
    w[i] += x[i];
    s += w[(i * 7) %% 100];
    y[i] = w[i];
  }
  return s;
}
int main(void) {
  int32_t x[100], y[100];
  for (int i = 0; i < 100; i++) x[i] = i * 3 - 50;
  return running(x, y) == 0;
}
""" % ", ".join(str(v * v - 40 * v) for v in range(100))


def test_a_long_initializer_of_a_written_array_is_a_copy_loop(tmp_path_factory, tmp_path, capsys):
    # 100 values, more than a memory's 64 store ports: the array is written,
    # so it stays a local array, filled by a loop from its constant table
    src, arts = compile_c(tmp_path_factory, "running", LONG)
    text = arts.scf_mlir.read_text()
    assert 'memref.global "private" constant @__const.running.w' in text
    assert text.count("memref.alloca") == 1 and text.count("scf.for") == 2
    assert reference_problems(arts, "scf") == []
    golden_passes(src, tmp_path, capsys)
    func = next(op for op in load_module(tmp_path / "running.dfg.mlir").walk()
                if op.name == "handshake.func")
    stores = [op.properties["st_count"].value.data for op in func.walk()
              if op.name == "handshake.memory"]
    assert sorted(stores) == [0, 2]   # the table (read-only), w (the copy and the loop's)
