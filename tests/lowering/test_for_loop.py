"""lower_for against seed 002: structure and stream lengths on golden traces."""

from xdsl.dialects.builtin import NoneType

from loom.bundle import Bundle, ExpectedOutput, MemoryRegion, ScalarInput
from loom.dialects import dataflow as df
from loom.dialects import handshake as hs

# for (i = 0; i < 8; i++) { acc += a[i] * k; b[i] = acc; }  return acc
CONST_TRIP = """
func.func @f(%a: memref<8xi32>, %b: memref<8xi32>, %k: i32) -> i32 {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c8 = arith.constant 8 : index
  %z = arith.constant 0 : i32
  %r = scf.for %i = %c0 to %c8 step %c1 iter_args(%acc = %z) -> (i32) {
    %x = memref.load %a[%i] : memref<8xi32>
    %p = arith.muli %x, %k : i32
    %s = arith.addi %acc, %p : i32
    memref.store %s, %b[%i] : memref<8xi32>
    scf.yield %s : i32
  }
  return %r : i32
}
"""


def _source(v):
    while isinstance(v.owner, hs.ForkOp):
        v = v.owner.operands[0]
    return v


def test_one_stream_one_gate_per_for(lower):
    low = lower(CONST_TRIP)
    assert len(low.ops("dataflow.stream")) == 1
    assert len(low.ops("dataflow.gate")) == 1
    stream = low.ops("dataflow.stream")[0]
    assert stream.properties["step_op"].data == "+="
    assert stream.properties["cont_cond"].data == "<"
    # constant bounds 0..8: no zero-trip guard
    assert not low.ops("arith.cmpi")


def test_invariants_use_after_cond_and_iter_arg_carry_uses_raw(lower):
    low = lower(CONST_TRIP, ordering="seed")   # seed 000's memory network: a carry per memref
    stream, gate = low.ops("dataflow.stream")[0], low.ops("dataflow.gate")[0]
    raw, after_cond = stream.results[1], gate.results[1]
    assert _source(gate.operands[1]) == raw
    invariants = low.ops("dataflow.invariant")
    assert invariants, "k is used in the body: it must be replicated by an invariant"
    for inv in invariants:
        assert _source(inv.operands[0]) == after_cond
    carries = low.ops("dataflow.carry")
    data_carries = [c for c in carries if not isinstance(c.results[0].type, NoneType)]
    ctrl_carries = [c for c in carries if c not in data_carries]
    assert len(data_carries) == 1 and _source(data_carries[0].operands[0]) == raw
    assert len(ctrl_carries) == 2  # one memory-control carry per memref group
    for c in ctrl_carries:
        assert _source(c.operands[0]) == after_cond


def _bundle(a, k):
    acc, b = 0, []
    for x in a:
        acc = (acc + x * k) & 0xFFFFFFFF
        b.append(acc)
    return Bundle("f", scalar_inputs=[ScalarInput(2, [k])],
                  memory_regions=[MemoryRegion(0, 4, a), MemoryRegion(1, 4, [0] * 8)],
                  expected_memory_regions=[MemoryRegion(0, 4, a), MemoryRegion(1, 4, b)],
                  expected_outputs=[ExpectedOutput(0, [acc])])


def test_stream_lengths_on_traces(lower):
    """Seed 002: stream N+1, gate N, invariants N, iter_arg carries N+1, memory control N."""
    n = 8
    low = lower(CONST_TRIP, ordering="seed")
    run = low.run(_bundle([3, -1, 4, 1, -5, 9, 2, -6], 7))
    assert run.ok, run.problems()
    names = run.graph
    traces = run.execution.traces
    by_producer = {}
    for ch in names.channels.values():
        if ch.producer is not None:
            by_producer.setdefault(ch.producer.kind, []).append(ch)
    raw = traces["for0_raw_will_continue"]
    assert len(raw) == n + 1 and raw == [1] * n + [0]
    assert len(traces["for0_body_index"]) == n
    assert len(traces["for0_after_cond"]) == n
    for ch in by_producer["dataflow.invariant"]:
        assert len(ch.trace) == n
    carries = {len(ch.trace) for ch in by_producer["dataflow.carry"]}
    assert carries == {n + 1, n}  # iter_arg carry N + 1; memory-control carries N
    for ch in by_producer["handshake.load"] + by_producer["handshake.store"]:
        assert len(ch.trace) == n


def test_runtime_bound_gets_a_guard_and_zero_trip_is_quiescent(lower):
    text = CONST_TRIP.replace("%k: i32) -> i32 {", "%k: i32, %n: index) -> i32 {") \
                     .replace("to %c8 step", "to %n step")
    low = lower(text)
    assert len(low.ops("arith.cmpi")) == 1  # the trip guard lb < ub
    for n in (0, 1, 5):
        a = list(range(1, 9))
        b = _bundle(a[:n], 2)
        b.scalar_inputs.append(ScalarInput(3, [n]))
        b.memory_regions[0].values = a
        b.expected_memory_regions[0].values = a
        b.expected_memory_regions[1].values += [0] * (8 - n)
        run = low.run(b)
        assert run.ok, (n, run.problems())


def test_nested_for_uses_outer_after_cond_for_inner_control(lower):
    text = """
func.func @f(%m: memref<4x4xi32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c4 = arith.constant 4 : index
  scf.for %i = %c0 to %c4 step %c1 {
    scf.for %j = %c0 to %c4 step %c1 {
      %s = arith.addi %i, %j : index
      %v = arith.index_cast %s : index to i32
      memref.store %v, %m[%i, %j] : memref<4x4xi32>
    }
  }
  return
}
"""
    low = lower(text)
    assert len(low.ops("dataflow.stream")) == 2 and len(low.ops("dataflow.gate")) == 2
    expected = [i + j for i in range(4) for j in range(4)]
    run = low.run(Bundle("f", memory_regions=[MemoryRegion(0, 4, [0] * 16)],
                         expected_memory_regions=[MemoryRegion(0, 4, expected)]))
    assert run.ok, run.problems()
    traces = run.execution.traces
    assert len(traces["for1_raw_will_continue"]) == 4 * 5   # 4 activations of N + 1 = 5
    assert len(traces["for1_body_index"]) == 16
    # the inner stream's operands come through the outer body (after_cond regime)
    inner = low.ops("dataflow.stream")[1]
    assert all(not isinstance(_source(v).owner, df.StreamOp) for v in inner.operands)
