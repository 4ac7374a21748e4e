"""Handshake primitives and memory, against CIRCT's documented semantics."""

import pytest

from loom.golden.actor import drive_actor, run_actor
from loom.golden.channel import Channel
from loom.golden.ops.buffer import Buffer
from loom.golden.ops.compose import Compose, Decompose, pack, unpack
from loom.golden.ops.cond_br import CondBr
from loom.golden.ops.constant import Constant, Sink
from loom.golden.ops.fork import Fork, LazyFork
from loom.golden.ops.join import Join
from loom.golden.ops.load import Load, Store
from loom.golden.ops.lsq import LoadStoreQueue
from loom.golden.ops.memory import Memory, MemoryOutOfBounds
from loom.golden.ops.merge import ControlMerge, Merge, MergeConflict
from loom.golden.ops.mux import Mux
from loom.golden.ops.sync import Sync


def test_fork_copies_every_token():
    assert run_actor(Fork(3), [[1, 2]]) == [[1, 2]] * 3
    assert run_actor(LazyFork(2), [[None]]) == [[None], [None]]


def test_join_and_sync_wait_for_all():
    assert run_actor(Join(3), [[1, 2], [None, None], [5]]) == [[None]]
    assert run_actor(Sync(2), [[1, 2], [7]]) == [[1], [7]]


def test_cond_br_routes_by_condition():
    assert run_actor(CondBr(), [[1, 0, 0, 1], [10, 11, 12, 13]]) == [[10, 13], [11, 12]]


def test_mux_consumes_only_the_selected_input():
    out = run_actor(Mux(2), [[1, 0, 1], [20], [30, 31, 32]])
    assert out == [[30, 20, 31]]  # input 1 keeps its third token


def test_merge_and_control_merge():
    assert run_actor(Merge(2), [[], [4, 5]]) == [[4, 5]]
    assert run_actor(ControlMerge(3), [[], [], [None]]) == [[None], [2]]
    with pytest.raises(MergeConflict):
        run_actor(Merge(2), [[1], [2]])


def test_buffer_constant_sink():
    assert run_actor(Buffer(2, "fifo"), [[1, 2, 3]]) == [[1, 2, 3]]
    assert run_actor(Constant(42), [[None, None]]) == [[42, 42]]
    assert run_actor(Sink(), [[1, 2]]) == []


def test_load_halves_are_independent():
    # address half fires on (addr, ctrl); data half on data_from_mem alone
    data, addr = run_actor(Load(), [[3, 4], [99], [None]])
    assert (data, addr) == ([99], [3])


def test_store_needs_address_data_and_control():
    data, addr = run_actor(Store(), [[3, 4], [30, 40], [None]])
    assert (data, addr) == ([30], [3])


def test_memory_store_first_packing_and_done_tokens():
    # ld=1, st=1: operands (st_data, st_addr, ld_addr); results (ld_data, st_done, ld_done)
    mem = Memory(ld=1, st=1, shape=(4,), width=32, storage=[0, 1, 2, 3])
    ld_data, st_done, ld_done = run_actor(mem, [[77], [2], [3, 1]])
    assert ld_data == [3, 1] and st_done == [None] and ld_done == [None, None]
    assert mem.storage == [0, 1, 77, 3]


def test_memory_done_token_comes_with_the_access_itself():
    """Done means ordered (design.md): the golden memory performs an access
    and emits its done token in the same firing, its acceptance; nothing
    about the access is left for later. So anything the ctrl-done network
    orders after that token (here a load offered once the store's done
    exists) sees the access, as the pipelined RTL interfaces guarantee by
    keeping one in-order stream to the storage."""
    mem = Memory(ld=1, st=1, shape=(4,), width=32, storage=[0, 1, 2, 3])
    ins = [Channel(n) for n in ("st_data", "st_addr", "ld_addr")]
    outs = [Channel(n) for n in ("ld_data", "st_done", "ld_done")]
    ins[0].q.append(77)
    ins[1].q.append(2)
    assert mem.fire(ins, outs)
    assert list(outs[1].q) == [None] and mem.storage[2] == 77   # one firing: write and done
    ins[2].q.append(2)                                          # ordered after st_done
    assert mem.fire(ins, outs)
    assert list(outs[0].q) == [77] and list(outs[2].q) == [None]
    assert not mem.fire(ins, outs)


def test_memory_two_dimensional_and_bounds():
    mem = Memory(ld=1, st=0, shape=(2, 3), width=8, storage=list(range(6)))
    (data, done) = run_actor(mem, [[1, 0], [2, 1]])
    assert data == [5, 1] and mem.strays == {}
    with pytest.raises(MemoryOutOfBounds):
        run_actor(Memory(ld=1, st=0, shape=(4,), width=8), [[4]])


def test_memory_addresses_row_major_as_c():
    """m[0][3] of a 2x3 array is m[1][0] (C's flat layout); m[1][3] is past the end."""
    mem = Memory(ld=1, st=1, shape=(2, 3), width=8, storage=list(range(6)))
    minus_one = (1 << 64) - 1     # index tokens are 64-bit patterns
    ld_data, _, _ = run_actor(mem, [[99], [0], [3], [0, 1], [3, minus_one]])
    assert ld_data == [99, 2]                     # m[1][-1] is m[0][2]
    assert mem.storage == [0, 1, 2, 99, 4, 5]
    assert sorted((port, at.index) for port, at in mem.strays.items()) == [
        (1, (0, 3)), (3, (0, 3))]
    with pytest.raises(MemoryOutOfBounds, match=r"index \[1, 3\] is element 6, outside a 2x3 array \(6 elements\)"):
        run_actor(Memory(ld=1, st=0, shape=(2, 3), width=8), [[1], [3]])


def test_compose_packs_data_low_then_extras():
    # channel<i32, [tag1: i2, tag2: i4]> -> channel<i38>
    widths = (32, 2, 4)
    assert pack((0xFFFFFFFF, 0b10, 0b0101), widths) == 0xFFFFFFFF | (0b10 << 32) | (0b0101 << 34)
    (composed,) = run_actor(Compose(widths), [[(5, 3, 9)]])
    assert run_actor(Decompose(widths), [composed]) == [[(5, 3, 9)]]
    assert unpack(pack((1, 2, 3), widths), widths) == (1, 2, 3)


def test_lsq_performs_accesses_in_allocation_order():
    """`x[row[p]] += a[p] * x[col[p]]` with colliding indices: the queue's loads
    and final memory are those of the loop run in order (each iteration one
    group: load x[col], load x[row], store x[row])."""
    row, col, a = [1, 1, 2, 1, 0], [0, 1, 1, 1, 1], [3, 5, 7, 2, 4]
    x = [10, 20, 30, 40]
    want_loads: tuple[list[int], list[int]] = ([], [])
    ref = list(x)
    for r, c, k in zip(row, col, a):
        want_loads[0].append(ref[c])
        want_loads[1].append(ref[r])
        ref[r] = ref[r] + k * ref[c]
    q = LoadStoreQueue(ld=2, st=1, shape=(4,), width=32, storage=x,
                       groups=[(("ld", 0), ("ld", 1), ("st", 0))])
    # operands: st_data, st_addr, ld_addr0, ld_addr1, alloc, fence; the store
    # data are the reference's (a test of ordering, not of arithmetic)
    stores = _store_values(row, col, a, x)
    outs, consumed = drive_actor(q, [stores, row, col, row, [None] * len(row), [None]])
    assert outs[0] == want_loads[0] and outs[1] == want_loads[1]
    assert outs[2] == [None] * len(row) and outs[3] == [None]
    assert q.storage == ref and consumed == [5, 5, 5, 5, 5, 1]


def _store_values(row: list[int], col: list[int], a: list[int], x: list[int]) -> list[int]:
    mem = list(x)
    out = []
    for r, c, k in zip(row, col, a):
        mem[r] = mem[r] + k * mem[c]
        out.append(mem[r])
    return out


def test_lsq_fence_waits_for_the_allocated_accesses():
    q = LoadStoreQueue(ld=1, st=1, shape=(2,), width=8, groups=[(("st", 0),), (("ld", 0),)])
    # allocated a store, its data absent: the fence waits; with it, it fires
    outs, _ = drive_actor(q, [[], [1], [], [None], [], [None]])
    assert outs[3] == [] and q.queue
    outs, _ = drive_actor(LoadStoreQueue(ld=1, st=1, shape=(2,), width=8,
                                         groups=[(("st", 0),), (("ld", 0),)]),
                          [[9], [1], [1], [None], [None], [None]])
    assert outs == [[9], [None], [None], [None]]


def test_lsq_results_are_numbered_loads_acks_fence():
    """One load, one group, then the fence: result 0 the load's data, 1 the
    group's ack, 2 the fence's done (the operand and result order of the
    module docstring). The group stores 9 to x[1] and then loads x[1]."""
    q = LoadStoreQueue(ld=1, st=1, shape=(2,), width=8, storage=[5, 6],
                       groups=[(("st", 0), ("ld", 0))])
    # operands: st_data, st_addr, ld_addr, alloc, fence
    outs, consumed = drive_actor(q, [[9], [1], [1], [None], [None]])
    assert outs == [[9], [None], [None]] and consumed == [1, 1, 1, 1, 1]
    assert q.storage == [5, 9]


def test_one_slot_buffers_and_one_input_joins_are_valid():
    # CIRCT: a buffer has at least one slot, a join at least one operand
    assert run_actor(Buffer(1), [[1, 2]]) == [[1, 2]]
    assert run_actor(Join(1), [[7, 8]]) == [[None, None]]
    with pytest.raises(ValueError):
        Buffer(0)
    with pytest.raises(ValueError):
        Join(0)


def test_memory_contents_must_fill_its_shape():
    with pytest.raises(ValueError, match="given 2 values"):
        Memory(ld=1, st=0, shape=(4,), width=8, storage=[1, 2])


def test_a_load_waits_for_its_address_and_control():
    # the address half fires on (address, ctrl): a stalled load names the
    # inputs of that half that are empty (a deadlock report's words)
    addr, data, ctrl = Channel("addr"), Channel("data"), Channel("ctrl")
    assert Load().waiting_on([addr, data, ctrl]) == [0, 2]
    addr.q.append(3)
    assert Load().waiting_on([addr, data, ctrl]) == [2]
    ctrl.q.append(None)
    assert Load().waiting_on([addr, data, ctrl]) == []


def test_unbundle_sends_control_data_and_each_extra_to_its_own_output():
    from loom.golden.ops.compose import Unbundle
    assert run_actor(Unbundle(2), [[(1, 2, 3), (4, 5, 6)]]) == [
        [None, None], [1, 4], [2, 5], [3, 6]]


def test_a_mux_of_three_data_inputs_selects_each():
    out = run_actor(Mux(3), [[2, 0, 1], [10], [20], [30]])
    assert out == [[30, 10, 20]]


def test_a_mux_names_a_select_past_its_inputs_and_waits_for_its_select():
    from loom.golden.ops.mux import MuxSelectOutOfRange
    with pytest.raises(MuxSelectOutOfRange, match="select 5 with 2 data inputs"):
        run_actor(Mux(2), [[5], [1], [2]])
    sel, a, b = Channel("sel"), Channel("a"), Channel("b")
    assert Mux(2).waiting_on([sel, a, b]) == [0]
    sel.q.append(1)
    assert Mux(2).waiting_on([sel, a, b]) == [2]


def test_a_sync_has_at_least_one_input():
    assert run_actor(Sync(1), [[4]]) == [[4]]
    with pytest.raises(ValueError):
        Sync(0)


def test_bundle_makes_a_tuple_only_with_extras_and_odd_widths_pack():
    from loom.golden.ops.compose import Bundle
    assert run_actor(Bundle(0), [[None], [7]]) == [[7]]
    assert run_actor(Bundle(1), [[None], [7], [1]]) == [[(7, 1)]]
    # channel<i3, [tag: i5]>: data in bits 0..2, the tag above
    assert pack((5, 17), (3, 5)) == 5 | (17 << 3)


def test_a_one_input_mux_and_what_a_queue_waits_for():
    assert run_actor(Mux(1), [[0, 0], [5, 6]]) == [[5, 6]]
    # st_data 0, st_addr 1, ld_addr 2, the groups' allocations 3 and 4, fence 5:
    # with the load's group allocated, the queue's head waits for its address
    q = LoadStoreQueue(ld=1, st=1, shape=(2,), width=8, groups=[(("st", 0),), (("ld", 0),)])
    ins = [Channel(f"in{i}") for i in range(q.n_in)]
    outs = [Channel(f"out{i}") for i in range(q.n_out)]
    ins[4].q.append(None)
    while q.fire(ins, outs):
        pass
    assert q.waiting_on(ins) == [2]
    ins[2].q.append(1)
    assert q.waiting_on(ins) == []
