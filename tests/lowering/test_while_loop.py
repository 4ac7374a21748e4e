"""lower_while: before/after regions, raw split, zero-trip quiescence."""

import pytest

from loom.bundle import Bundle, ExpectedOutput, MemoryRegion, ScalarInput
from loom.dialects import handshake as hs

# x = x0; steps = 0; while (x > 1) { x = odd ? 3x+1 : x>>1; a[min(steps,7)] = x; steps++; }
COLLATZ = """
func.func @collatz(%a: memref<8xi32>, %x0: i32) -> i32 {
  %c0 = arith.constant 0 : i32
  %c1 = arith.constant 1 : i32
  %c3 = arith.constant 3 : i32
  %r:2 = scf.while (%x = %x0, %steps = %c0) : (i32, i32) -> (i32, i32) {
    %cond = arith.cmpi sgt, %x, %c1 : i32
    scf.condition(%cond) %x, %steps : i32, i32
  } do {
  ^bb0(%y: i32, %s: i32):
    %odd = arith.andi %y, %c1 : i32
    %isodd = arith.cmpi ne, %odd, %c0 : i32
    %nx = scf.if %isodd -> (i32) {
      %t = arith.muli %y, %c3 : i32
      %u = arith.addi %t, %c1 : i32
      scf.yield %u : i32
    } else {
      %h = arith.shrsi %y, %c1 : i32
      scf.yield %h : i32
    }
    %idx = arith.index_cast %s : i32 to index
    %c7 = arith.constant 7 : index
    %slot = arith.minsi %idx, %c7 : index
    memref.store %nx, %a[%slot] : memref<8xi32>
    %s1 = arith.addi %s, %c1 : i32
    scf.yield %nx, %s1 : i32, i32
  }
  return %r#1 : i32
}
"""


def _collatz(x0):
    a, x, s = [0] * 8, x0, 0
    while x > 1:
        x = 3 * x + 1 if x & 1 else x >> 1
        a[min(s, 7)] = x
        s += 1
    return a, s


@pytest.mark.parametrize("x0", [1, 0, 2, 6, 27])
def test_collatz_matches_python_including_zero_trip(lower, x0):
    low = lower(COLLATZ)
    a, steps = _collatz(x0)
    run = low.run(Bundle("c", scalar_inputs=[ScalarInput(1, [x0])],
                         memory_regions=[MemoryRegion(0, 4, [0] * 8)],
                         expected_memory_regions=[MemoryRegion(0, 4, a)],
                         expected_outputs=[ExpectedOutput(0, [steps])]))
    assert run.ok, run.problems()
    traces = run.execution.traces
    raw = traces["while0_raw_will_continue"]
    assert raw == [1] * steps + [0]          # before-region: N + 1
    stores = [ch for ch in run.graph.channels.values()
              if ch.producer is not None and ch.producer.kind == "handshake.store"]
    assert all(len(ch.trace) == steps for ch in stores)  # after-region: N


def test_while_structure_carries_on_raw_condition(lower):
    low = lower(COLLATZ)
    carries = low.ops("dataflow.carry")
    cond = next(op for op in low.func.body.block.ops if op.results
                and op.results[0].name_hint == "while0_raw_will_continue")

    def source(v):
        while isinstance(v.owner, hs.ForkOp):
            v = v.owner.operands[0]
        return v
    # two while-carried values and one memory-control carry, all on the raw condition
    assert len(carries) == 3
    assert all(source(c.operands[0]) == cond.results[0] for c in carries)
    # after_cond's gate(raw, raw) is built (seed 002) but nothing here reads
    # after_cond, so the lowering drops it (dead_ops.py)
    assert not low.ops("dataflow.gate")
