"""--ordering lsq: an array analysis cannot order goes behind a load-store queue.

The program (a histogram with a conditional reset, its bin a loaded index):

    for i in 0..8: k = idx[i]; v = h[k]; h[k] = v + 1; if (v > 2) h[i] = 0;

`h` has a loaded subscript, so analysis cannot order its accesses: one
handshake.lsq, its groups the runs of accesses in program order; `idx`
keeps its extmemory. The golden run's final memory is the program's, run
here in Python (the reference), on inputs with colliding bins.
"""

import random

import pytest

from loom.bundle import Bundle, MemoryRegion
from loom.ir import op_location

HIST = """
func.func @f(%idx: memref<8xi32>, %h: memref<8xi32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c8 = arith.constant 8 : index
  %one = arith.constant 1 : i32
  %two = arith.constant 2 : i32
  %zero = arith.constant 0 : i32
  scf.for %i = %c0 to %c8 step %c1 {
    %k32 = memref.load %idx[%i] : memref<8xi32>
    %k = arith.index_cast %k32 : i32 to index
    %v = memref.load %h[%k] : memref<8xi32>
    %w = arith.addi %v, %one : i32
    memref.store %w, %h[%k] : memref<8xi32>
    %big = arith.cmpi sgt, %v, %two : i32
    scf.if %big {
      memref.store %zero, %h[%i] : memref<8xi32>
    }
  }
  return
}
"""


def _reference(idx: list[int], h: list[int]) -> list[int]:
    h = list(h)
    for i in range(8):
        k = idx[i]
        v = h[k]
        h[k] = v + 1
        if v > 2:
            h[i] = 0
    return h


def test_the_indirect_array_gets_a_queue_with_its_groups_in_program_order(lower):
    low = lower(HIST, ordering="lsq")
    (queue,) = low.ops("handshake.lsq")
    assert queue.memref.name_hint == "h"
    assert [m.operands[0].name_hint for m in low.ops("handshake.extmemory")] == ["idx"]
    # the loop body's run (load, store), then the if's store; stores have no op
    assert [g.data for g in queue.attributes["groups"].data] == ["ld0 st0", "st1"]
    assert low.ops("handshake.store") == []
    assert (queue.num_loads, queue.num_stores) == (1, 1 + 1)


def test_the_queue_is_at_its_arrays_first_access(lower):
    # a diagnosis about the queue names the C line of the array's first access
    text = HIST.replace("%v = memref.load %h[%k] : memref<8xi32>",
                        '%v = memref.load %h[%k] : memref<8xi32> loc("k.c":4:9)').replace(
        "memref.store %zero, %h[%i] : memref<8xi32>",
        'memref.store %zero, %h[%i] : memref<8xi32> loc("k.c":7:7)')
    (queue,) = lower(text, ordering="lsq").ops("handshake.lsq")
    assert op_location(queue).line == 4


def test_other_orderings_keep_the_done_chain(lower):
    for ordering in ("analysis", "seed"):
        low = lower(HIST, ordering=ordering)
        assert low.ops("handshake.lsq") == []
        assert len(low.ops("handshake.store")) == 2


@pytest.mark.parametrize("seed", range(4))
def test_the_golden_run_is_the_program(lower, seed):
    rng = random.Random(seed)
    idx = [rng.choice([1, 1, 3, rng.randrange(8)]) for _ in range(8)]
    h = [rng.randrange(4) for _ in range(8)]
    low = lower(HIST, ordering="lsq")
    run = low.run(Bundle("f", memory_regions=[MemoryRegion(0, 8, idx), MemoryRegion(1, 8, h)],
                         expected_memory_regions=[MemoryRegion(0, 8, idx),
                                                  MemoryRegion(1, 8, _reference(idx, h))]))
    assert run.ok, run.problems()


WIDE_RUN = HIST.replace("memref<8xi32>", "memref<16xi32>").replace(
    "    %v = memref.load %h[%k] : memref<16xi32>\n",
    "".join(f"    %o{j} = arith.constant {j} : index\n"
            f"    %k{j} = arith.addi %k, %o{j} : index\n"
            f"    %v{j} = memref.load %h[%k{j}] : memref<16xi32>\n" for j in range(9))
    + "".join(f"    %s{j} = arith.addi %s{j - 1}, %v{j} : i32\n" if j else "    %s0 = arith.addi %v0, %zero : i32\n"
              for j in range(9))
    + "    %v = arith.addi %s8, %zero : i32\n")
"""HIST with nine loads in its first group (h[k] ... h[k + 8] summed): the
queue allocates a group's slots at once, so it needs nine load slots."""


def test_a_queue_holds_its_widest_group(lower):
    low = lower(WIDE_RUN, ordering="lsq")
    (queue,) = low.ops("handshake.lsq")
    assert max(sum(kind == "ld" for kind, _ in g) for g in queue.groups) == 9
    assert queue.depth("lq") >= 9 and queue.depth("sq") >= 9
    idx, h = [0, 3, 7, 1, 7, 2, 0, 5] + [0] * 8, list(range(16))   # idx: the first 8 read
    want = list(h)
    for i in range(8):
        v = sum(want[idx[i] + j] for j in range(9))
        want[idx[i]] = v + 1
        if v > 2:
            want[i] = 0
    run = low.run(Bundle("f", memory_regions=[MemoryRegion(0, 16, idx), MemoryRegion(1, 16, h)],
                         expected_memory_regions=[MemoryRegion(0, 16, idx),
                                                  MemoryRegion(1, 16, want)]))
    assert run.ok, run.problems()


def test_explain_names_the_queue_and_its_groups(lower):
    from loom.lowering.ordering import ordering_report

    lines = ordering_report(lower(HIST, ordering="lsq").record)
    assert any(line.startswith("argument 1: a load-store queue, 2 allocation group(s)")
               for line in lines)
    assert sum(line.strip().startswith("group ") for line in lines) == 2
