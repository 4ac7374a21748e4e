"""Memory lowering against seed 000: groups, packing, serial order, RAR, return join."""

from xdsl.dialects.builtin import NoneType

from loom.bundle import Bundle, ExpectedOutput, MemoryRegion, ScalarInput
from loom.dialects import handshake as hs

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
    low = lower(TWO_GROUPS)
    loads = low.ops("handshake.load")
    assert len(loads) == 2
    ctrl_sources = {_source(ld.operands[-1]) for ld in loads}
    assert len(ctrl_sources) == 1, "RAR: both loads take the same (forked) token"
    assert len(low.ops("handshake.join")) >= 2  # the loads' dones, and the return join


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
