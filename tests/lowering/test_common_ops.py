"""merge_common_ops: an op that repeats another (same name, attributes and
operands) is built once; the tokens, results and memories stay those of
the program; a condition the lowering record names keeps its op."""

from loom.bundle import Bundle, ExpectedOutput, MemoryRegion, ScalarInput

# for i < 4: b[i] = a[i] * 3 + (i + 3), the sign extension of i and the
# constant 3 written twice each, as clang writes one per use
TWICE = """
func.func @twice(%a: memref<4xi32>, %b: memref<4xi32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c4 = arith.constant 4 : index
  scf.for %i = %c0 to %c4 step %c1 {
    %i32 = arith.index_cast %i : index to i32
    %x = memref.load %a[%i] : memref<4xi32>
    %k1 = arith.constant 3 : i32
    %p = arith.muli %x, %k1 : i32
    %k2 = arith.constant 3 : i32
    %q = arith.addi %i32, %k2 : i32
    %w1 = arith.extsi %i32 : i32 to i64
    %w2 = arith.extsi %i32 : i32 to i64
    %s = arith.addi %p, %q : i32
    %wide = arith.addi %w1, %w2 : i64
    %half = arith.trunci %wide : i64 to i32
    %t = arith.subi %s, %half : i32
    %u = arith.addi %t, %half : i32
    memref.store %u, %b[%i] : memref<4xi32>
  }
  return
}
"""


def test_repeated_ops_are_built_once(lower):
    low = lower(TWICE)
    assert len(low.ops("arith.extsi")) == 1
    i32_threes = [op for op in low.ops("handshake.constant")
                  if str(op.value.type) == "i32" and op.value.value.data == 3]
    assert len(i32_threes) == 1


def test_the_kept_value_keeps_its_name(lower):
    # the DFG names a merged value as the program named its first op; an
    # unnamed first op takes its repeat's name
    (ext,) = lower(TWICE).ops("arith.extsi")
    assert ext.results[0].name_hint == "w1"
    (ext,) = lower(TWICE.replace("%w1", "%0")).ops("arith.extsi")
    assert ext.results[0].name_hint == "w2"


def test_the_memory_is_the_programs(lower):
    a = [5, -6, 7, 0]
    b = [x * 3 + (i + 3) for i, x in enumerate(a)]
    run = lower(TWICE).run(Bundle("twice", memory_regions=[
        MemoryRegion(0, 4, a), MemoryRegion(1, 4, [0] * 4)],
        expected_memory_regions=[MemoryRegion(0, 4, a), MemoryRegion(1, 4, b)]))
    assert run.ok, run.problems()


# the if's condition repeats a compare the loop already made
NAMED = """
func.func @named(%x: i32, %y: i32) -> i32 {
  %lt = arith.cmpi slt, %x, %y : i32
  %m = arith.select %lt, %x, %y : i32
  %again = arith.cmpi slt, %x, %y : i32
  %r = scf.if %again -> (i32) {
    scf.yield %m : i32
  } else {
    %d = arith.subi %x, %y : i32
    scf.yield %d : i32
  }
  return %r : i32
}
"""


def test_a_named_condition_keeps_its_op(lower):
    low = lower(NAMED)
    (cond,) = low.record.conditions.values()
    assert cond.owner.parent is low.func.body.block
    for x, y, want in ((1, 2, 1), (5, 2, 3), (-4, -4, 0)):
        run = low.run(Bundle("named", scalar_inputs=_scalars(x, y),
                             expected_outputs=[ExpectedOutput(0, [want])]))
        assert run.ok, run.problems()


def _scalars(x: int, y: int) -> list[ScalarInput]:
    return [ScalarInput(0, [x]), ScalarInput(1, [y])]
