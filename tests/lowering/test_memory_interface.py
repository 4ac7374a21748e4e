"""Memory interfaces (lowering/memory_interface.py): an array the kernel
reads from a constant global is a memory initialized with the global's
values (a constant table, which no store may write); a global that is not
constant is a memory like a local array: written, then read back. SCF
written by hand (the front end refuses C's mutable globals)."""

from __future__ import annotations

import pytest

from loom.diagnostics import LoomError
from loom.dialects.handshake_memory import memory_init
from loom.ir import load_module
from loom.lowering.pipeline import lower_module

SCF = """module {{
  memref.global "private" {constant}@buf : memref<4xi32> = {value}
  func.func @k(%a: memref<4xi32>) {{
    %c1 = arith.constant 1 : index
    %g = memref.get_global @buf : memref<4xi32>
    %v = memref.load %a[%c1] : memref<4xi32>
{store}    %w = memref.load %g[%c1] : memref<4xi32>
    memref.store %w, %a[%c1] : memref<4xi32>
    return
  }}
}}
"""
STORE = "    memref.store %v, %g[%c1] : memref<4xi32>\n"


def _memories(tmp_path, **fields):
    path = tmp_path / "k.scf.mlir"
    path.write_text(SCF.format(**fields))
    dfg, _ = lower_module(load_module(path), "k", 64, str(path))
    return [op for op in dfg.walk() if op.name == "handshake.memory"]


def test_a_mutable_global_is_a_memory_without_initial_values(tmp_path):
    (mem,) = _memories(tmp_path, constant="", value="uninitialized", store=STORE)
    assert memory_init(mem) is None


def test_a_constant_global_is_a_table_no_store_may_write(tmp_path):
    (mem,) = _memories(tmp_path, constant="constant ", value="dense<[5, 6, 7, 8]>", store="")
    assert [int(v) for v in memory_init(mem)] == [5, 6, 7, 8]
    with pytest.raises(LoomError, match="a store to the constant table 'buf'"):
        _memories(tmp_path, constant="constant ", value="dense<[5, 6, 7, 8]>", store=STORE)
