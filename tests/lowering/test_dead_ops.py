"""remove_dead_ops: an op no one reads and that has no effect is not built;
a load no one reads still requests its word; the result is unchanged."""

from loom.bundle import Bundle, ExpectedOutput, MemoryRegion
from loom.lowering.dead_ops import is_dead

# s = 0; for i < 4: { t = a[i] * 3 (unused); u = a[i]; s += i }; return s
# (the unused product, its constant and a load whose value is dropped: the
# C front end would have removed them, an SCF file given to us may not)
UNUSED = """
func.func @unused(%a: memref<4xi32>) -> i32 {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c4 = arith.constant 4 : index
  %z = arith.constant 0 : i32
  %c3 = arith.constant 3 : i32
  %s = scf.for %i = %c0 to %c4 step %c1 iter_args(%acc = %z) -> (i32) {
    %v = memref.load %a[%i] : memref<4xi32>
    %t = arith.muli %v, %c3 : i32
    %w = memref.load %a[%i] : memref<4xi32>
    %ii = arith.index_cast %i : index to i32
    %n = arith.addi %acc, %ii : i32
    scf.yield %n : i32
  }
  return %s : i32
}
"""


def test_unread_pure_ops_are_not_built(lower):
    low = lower(UNUSED)
    assert not low.ops("arith.muli")
    assert not any(is_dead(op) for op in low.func.body.block.ops)


def test_unread_loads_still_request(lower):
    low = lower(UNUSED)
    assert len(low.ops("handshake.load")) == 2   # their requests are effects


def test_a_for_loops_gate_stays(lower):
    # the body index and after_cond are read (seed 002's for-loop gate)
    assert len(lower(UNUSED).ops("dataflow.gate")) == 1


def test_the_result_and_memory_are_unchanged(lower):
    a = [5, 6, 7, 8]
    run = lower(UNUSED).run(Bundle(
        "unused", memory_regions=[MemoryRegion(0, 4, a)],
        expected_memory_regions=[MemoryRegion(0, 4, a)],
        expected_outputs=[ExpectedOutput(0, [0 + 1 + 2 + 3])]))
    assert run.ok, run.problems()


# %m reaches the loop body through an invariant read by the unused product only
UNREAD_INVARIANT = UNUSED.replace("%a: memref<4xi32>)", "%a: memref<4xi32>, %m: i32)") \
    .replace("%t = arith.muli %v, %c3 : i32", "%t = arith.muli %v, %m : i32")


def test_the_record_keeps_only_ops_the_dfg_has(lower):
    low = lower(UNREAD_INVARIANT)
    body = low.func.body.block
    kept = [op for ops in (*low.record.body_invariants.values(),
                           *low.record.boundary_ops.values()) for op in ops]
    assert kept and all(op.parent is body for op in kept)
    assert not any(op.operands[1].name_hint == "m" for op in low.ops("dataflow.invariant"))
