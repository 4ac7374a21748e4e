"""Memory lowering against seed 000: groups, packing, serial order, RAR, return join."""

import pytest
from xdsl.dialects.builtin import NoneType

from loom.bundle import Bundle, ExpectedOutput, MemoryRegion, ScalarInput
from loom.dialects import handshake as hs
from loom.ir import op_location

# for i in 0..4: { x = a[i]; y = a[i+4]; b[i] = x + y; a[i] = y; }
TWO_GROUPS = """
func.func @f(%a: memref<8xi32>, %b: memref<4xi32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c4 = arith.constant 4 : index
  scf.for %i = %c0 to %c4 step %c1 {
    %x = memref.load %a[%i] : memref<8xi32>
    %j = arith.addi %i, %c4 : index
    %y = memref.load %a[%j] : memref<8xi32>
    %s = arith.addi %x, %y : i32
    memref.store %s, %b[%i] : memref<4xi32>
    memref.store %y, %a[%i] : memref<8xi32>
  }
  return
}
"""


def _source(v):
    while isinstance(v.owner, hs.ForkOp):
        v = v.owner.operands[0]
    return v


def _reachable_tokens(start):
    """Control tokens (none-typed values) reachable from `start` in the ctrl-done network."""
    seen, stack = set(), [start]
    while stack:
        v = stack.pop()
        if v in seen:
            continue
        seen.add(v)
        for use in v.uses:
            stack.extend(r for r in use.operation.results if isinstance(r.type, NoneType))
    return seen


def test_one_interface_per_root_memref_with_store_first_packing(lower):
    low = lower(TWO_GROUPS)
    mems = low.ops("handshake.extmemory")
    assert len(mems) == 2
    mem_a = next(m for m in mems if m.operands[0].name_hint == "a")
    assert mem_a.properties["ld_count"].value.data == 2
    assert mem_a.properties["st_count"].value.data == 1
    # operands after the memref: store (data, addr) first, then the two load addresses
    store = next(op for op in low.ops("handshake.store")
                 if _source(op.results[0]).uses and mem_a in
                 [u.operation for u in op.results[0].uses])
    assert list(mem_a.operands[1:3]) == list(store.results)


def test_groups_are_independent_until_the_return(lower):
    low = lower(TWO_GROUPS)
    mems = {m.operands[0].name_hint: m for m in low.ops("handshake.extmemory")}
    stores = {op: op for op in low.ops("handshake.store")}
    store_b = next(s for s in stores if any(u.operation is mems["b"]
                                            for u in s.results[0].uses))
    # no control token that a's done tokens reach feeds b's store control
    reached_from_a = set().union(*(_reachable_tokens(r) for r in mems["a"].results[2:]))
    assert store_b.operands[-1] not in reached_from_a
    assert _source(store_b.operands[-1]) not in reached_from_a
    ret = low.func.body.block.last_op
    join = ret.operands[-1].owner
    assert isinstance(join, hs.JoinOp) and len(join.operands) == 2


def test_consecutive_loads_share_a_token_and_join(lower):
    low = lower(TWO_GROUPS, ordering="seed")   # analysis puts a[i + 4] in a chain of its own
    loads = low.ops("handshake.load")
    assert len(loads) == 2
    ctrl_sources = {_source(ld.operands[-1]) for ld in loads}
    assert len(ctrl_sources) == 1, "RAR: both loads take the same (forked) token"
    assert len(low.ops("handshake.join")) >= 2  # the loads' dones, and the return join


def test_a_join_of_loads_is_at_the_first_loads_line(lower):
    # a diagnosis about the join names the C line where the run of loads begins
    text = TWO_GROUPS.replace("%x = memref.load %a[%i] : memref<8xi32>",
                              '%x = memref.load %a[%i] : memref<8xi32> loc("k.c":3:9)').replace(
        "%y = memref.load %a[%j] : memref<8xi32>",
        '%y = memref.load %a[%j] : memref<8xi32> loc("k.c":5:9)')
    low = lower(text, ordering="seed")
    # the join of the two loads' done tokens, which their memory gives
    (join,) = [j for j in low.ops("handshake.join")
               if all(_source(v).owner.name == "handshake.extmemory" for v in j.operands)]
    assert op_location(join).line == 3


def test_store_then_load_is_serial(lower):
    text = """
func.func @f(%a: memref<4xi32>, %v: i32) -> i32 {
  %c2 = arith.constant 2 : index
  memref.store %v, %a[%c2] : memref<4xi32>
  %x = memref.load %a[%c2] : memref<4xi32>
  return %x : i32
}
"""
    low = lower(text)
    (load,) = low.ops("handshake.load")
    (mem,) = low.ops("handshake.extmemory")
    store_done = mem.results[1]  # ld=1, st=1: (ld data, st done, ld done)
    assert _source(load.operands[-1]) == store_done
    for v in (5, -1):
        run = low.run(Bundle("f", scalar_inputs=[ScalarInput(1, [v])],
                             memory_regions=[MemoryRegion(0, 4, [0, 0, 0, 0])],
                             expected_outputs=[ExpectedOutput(0, [v])],
                             expected_memory_regions=[MemoryRegion(0, 4, [0, 0, v, 0])]))
        assert run.ok, run.problems()


def test_two_groups_kernel_runs(lower):
    low = lower(TWO_GROUPS)
    a = [1, 2, 3, 4, 10, 20, 30, 40]
    b = [a[i] + a[i + 4] for i in range(4)]
    a_after = a[4:] + a[4:]
    run = low.run(Bundle("f", memory_regions=[MemoryRegion(0, 4, a), MemoryRegion(1, 4, [0] * 4)],
                         expected_memory_regions=[MemoryRegion(0, 4, a_after),
                                                  MemoryRegion(1, 4, b)]))
    assert run.ok, run.problems()


def test_function_without_memory_returns_entry_token(lower):
    low = lower("func.func @f(%x: i32) -> i32 {\n  %y = arith.addi %x, %x : i32\n"
                "  return %y : i32\n}\n")
    ret = low.func.body.block.last_op
    assert _source(ret.operands[-1]) == low.func.body.block.args[-1]


# for i in 0..n: a[i] = a[i] * 3 + i  (read-modify-write, no dependence across i)
SCALE_FOR = """
func.func @f(%a: memref<8xi32>, %n: index) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c3 = arith.constant 3 : i32
  scf.for %i = %c0 to %n step %c1 {
    %x = memref.load %a[%i] : memref<8xi32>
    %y = arith.muli %x, %c3 : i32
    %ii = arith.index_cast %i : index to i32
    %z = arith.addi %y, %ii : i32
    memref.store %z, %a[%i] : memref<8xi32>
  }
  return
}
"""

# i = 7; while (i >= 1) { a[i] = a[i] - a[i - 1]; i -= 2; }  (no dependence across
# iterations: the stores are to odd elements, a[i - 1] is even)
STRIDE_WHILE = """
func.func @f(%a: memref<8xi32>) {
  %c7 = arith.constant 7 : i32
  %c1 = arith.constant 1 : i32
  %m1 = arith.constant -1 : i32
  %m2 = arith.constant -2 : i32
  %r = scf.while (%i = %c7) : (i32) -> i32 {
    %go = arith.cmpi sge, %i, %c1 : i32
    scf.condition(%go) %i : i32
  } do {
  ^bb0(%j: i32):
    %k = arith.index_cast %j : i32 to index
    %jl = arith.addi %j, %m1 : i32
    %kl = arith.index_cast %jl : i32 to index
    %x = memref.load %a[%k] : memref<8xi32>
    %y = memref.load %a[%kl] : memref<8xi32>
    %d = arith.subi %x, %y : i32
    memref.store %d, %a[%k] : memref<8xi32>
    %jm = arith.addi %j, %m2 : i32
    scf.yield %jm : i32
  }
  return
}
"""


def _ctrl_families(low) -> set[str]:
    return {_source(op.operands[-1]).owner.name
            for op in low.ops("handshake.load") + low.ops("handshake.store")}


@pytest.mark.parametrize("n", [1, 2, 5, 8])
def test_a_free_for_loop_starts_every_iteration_from_its_entry(lower, n):
    low = lower(SCALE_FOR)
    (chain,) = low.record.chains[low.record.accesses[0].root]
    assert len(chain.free_loops) == 1
    # the accesses of every iteration take an invariant of the loop's entry token;
    # the load's done still orders the store of its own iteration
    assert "dataflow.invariant" in _ctrl_families(low)
    a = [5, -1, 7, 0, 2, 9, -4, 3]
    after = [x * 3 + i if i < n else x for i, x in enumerate(a)]
    run = low.run(Bundle("f", scalar_inputs=[ScalarInput(1, [n])],
                         memory_regions=[MemoryRegion(0, 4, a)],
                         expected_memory_regions=[MemoryRegion(0, 4, after)]))
    assert run.ok, run.problems()


@pytest.mark.parametrize("ordering", ["seed", "".join(["se", "ed"])])
def test_seed_ordering_keeps_the_for_loops_carry(lower, ordering):
    # the mode by value, as argparse hands it over (a string built at run
    # time is another object than the literal)
    low = lower(SCALE_FOR, ordering=ordering)
    assert "dataflow.invariant" not in _ctrl_families(low)
    assert low.record.chains[low.record.accesses[0].root][0].free_loops == set()


def test_a_free_while_loop_overlaps_its_iterations(lower):
    """Its accesses take an invariant of the entry token; a[i - 2] instead of
    a[i - 1] would be read by one iteration and written by the next."""
    low = lower(STRIDE_WHILE)
    reads, updates = low.record.chains[low.record.accesses[0].root]   # a[i - 1]; a[i]
    assert [a.kind for a in reads.accesses] == ["load"]
    assert [a.kind for a in updates.accesses] == ["load", "store"]
    assert [op.name for op in updates.free_loops] == ["scf.while"]
    a = [5, -1, 7, 0, 2, 9, -4, 3]
    after = list(a)
    i = 7
    while i >= 1:
        after[i] = after[i] - after[i - 1]
        i -= 2
    run = low.run(Bundle("f", memory_regions=[MemoryRegion(0, 4, a)],
                         expected_memory_regions=[MemoryRegion(0, 4, after)]))
    assert run.ok, run.problems()
