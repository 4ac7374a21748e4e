"""lower_if: cond_br of control, branch-gating of outer values, mux merges."""

import pytest

from loom.bundle import Bundle, ExpectedOutput, MemoryRegion, ScalarInput

# if (x > t) { r = x - t; a[0] = r; } else { r = t; }   (then-branch store)
IF_ELSE = """
func.func @f(%a: memref<2xi32>, %x: i32, %t: i32) -> i32 {
  %c0 = arith.constant 0 : index
  %p = arith.cmpi sgt, %x, %t : i32
  %r = scf.if %p -> (i32) {
    %d = arith.subi %x, %t : i32
    memref.store %d, %a[%c0] : memref<2xi32>
    scf.yield %d : i32
  } else {
    scf.yield %t : i32
  }
  return %r : i32
}
"""

NO_ELSE = """
func.func @g(%a: memref<2xi32>, %x: i32) {
  %c1 = arith.constant 1 : index
  %z = arith.constant 0 : i32
  %p = arith.cmpi slt, %x, %z : i32
  scf.if %p {
    memref.store %x, %a[%c1] : memref<2xi32>
  }
  return
}
"""


@pytest.mark.parametrize("x,t", [(5, 3), (3, 5), (4, 4), (-7, 2)])
def test_if_else_matches_python(lower, x, t):
    low = lower(IF_ELSE)
    r = x - t if x > t else t
    mem = [r, 9] if x > t else [9, 9]
    run = low.run(Bundle("f", scalar_inputs=[ScalarInput(1, [x]), ScalarInput(2, [t])],
                         memory_regions=[MemoryRegion(0, 4, [9, 9])],
                         expected_memory_regions=[MemoryRegion(0, 4, mem)],
                         expected_outputs=[ExpectedOutput(0, [r])]))
    assert run.ok, run.problems()


def test_if_else_merges_result_and_done_with_mux(lower):
    low = lower(IF_ELSE)
    # one mux for the result, one for the memory group's done token
    assert len(low.ops("handshake.mux")) == 2
    # outer values x and t are branch-gated by cond_br; the control too
    assert len(low.ops("handshake.cond_br")) >= 3


@pytest.mark.parametrize("x", [-3, 0, 4])
def test_if_without_else(lower, x):
    low = lower(NO_ELSE)
    mem = [0, x & 0xFFFFFFFF] if x < 0 else [0, 0]
    run = low.run(Bundle("g", scalar_inputs=[ScalarInput(1, [x])],
                         memory_regions=[MemoryRegion(0, 4, [0, 0])],
                         expected_memory_regions=[MemoryRegion(0, 4, mem)]))
    assert run.ok, run.problems()
