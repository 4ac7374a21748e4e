"""A tagged result family's lanes after the tag split (loom.fabric.rtl.top's
del_tag buffer): two load lanes of one extmemory share its ld_done port, and
a join takes one done token of each lane, as the memory-ordering join of two
loads of one array in a loop does (kernels/bitrev.c on chess-8x8-ext4x4s2
deadlocked so). Loads come lane 1 first: without a buffer after the split,
lane 1's done token stays at the head of the shared port, waiting for the
join, and lane 0's token, which the join needs, waits behind it. The
expectation comes from the memory model (loom.fabric.models.memory) and the
join's semantics: one token per pair of done tokens."""

import pytest

from loom.fabric.models.memory import memory, regions
from tb.fabric_runner import FabricCase, random_tokens, run_fabric

pytestmark = pytest.mark.rtl

T = "!fabric.tagged<!fabric.bits<32>, i1>"
B = "!fabric.bits<32>"
ADG = f"""
module {{
  fabric.spatial_pe @pe_j(%p0: {B}, %p1: {B}) -> ({B}) {{
    fabric.function_unit @fu_join(%arg0: none, %arg1: none) -> (none) [latency = 1, interval = 1] {{
      %0 = handshake.join %arg0, %arg1 : none, none
      fabric.yield %0 : none
    }}
    fabric.yield
  }}
  fabric.module @lanes(%m: memref<?xi32>, %la: {T}) -> ({T}, {B}) {{
    %e:2 = fabric.extmemory @ext [ldCount = 2, stCount = 0, numRegion = 1,
        memrefType = memref<?xi32>] (%m, %la) : (memref<?xi32>, {T}) -> ({T}, {T})
    %d:2 = fabric.temporal_sw @split [num_route_table = 2] (%e#1) : ({T}) -> ({T}, {T})
    %u0 = fabric.del_tag %d#0 : {T} -> {B}
    %u1 = fabric.del_tag %d#1 : {T} -> {B}
    %j = fabric.instance @pe_j(%u0, %u1) {{sym_name = "pe_0_0"}} : ({B}, {B}) -> ({B})
    fabric.yield %e#0, %j : {T}, {B}
  }}
}}
"""
ELEMENTS = 32
REGION = {"region0.valid": 1, "region0.start_lane": 0, "region0.end_lane": 2,
          "region0.addr_offset": 0, "region0.elem_size_log2": 2}
SPLIT = {"slot0.valid": 1, "slot0.tag": 0, "slot0.route.o0.i0": 1,
         "slot1.valid": 1, "slot1.tag": 1, "slot1.route.o1.i0": 1}
JOIN = {"enable": 1, "opcode": 0, "in0.sel": 0, "in1.sel": 1, "out0.sel": 0,
        "fu.0.value": 0b11}


def make_case(rng, layout, n):
    pairs = max(1, n // 2)
    ld = [(lane, rng.randrange(ELEMENTS)) for _ in range(pairs) for lane in (1, 0)]
    contents = random_tokens(rng, 32, ELEMENTS)
    model = memory(regions(REGION, 1), 2, 0, contents, 32, ld)
    dones = model.outputs["ld_done"]
    assert len(dones[0]) == len(dones[1]) == pairs
    data = model.outputs["ld_data"]
    return FabricCase({"ext": REGION, "split": SPLIT, "pe_0_0": JOIN},
                      {"in1": [(tag << 32) | a for tag, a in ld]},
                      {"out0": [(tag << 32) | v for tag in sorted(data) for v in data[tag]],
                       "out1": [0] * pairs},
                      {"in1": len(ld)}, memories={"ext": contents},
                      final_memories={"ext": contents}, by_tag={"out0": 32})


def test_lane_waiting_for_the_other_lane_does_not_block_it():
    run_fabric("memory_lanes", ADG, make_case, seed=1, tokens=40, episodes=4)
