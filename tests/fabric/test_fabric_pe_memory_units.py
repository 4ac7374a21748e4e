"""Load and store function units of a spatial PE, against the reference
model loom.fabric.models.spatial_pe (the golden op classes Load and Store),
under random validity and backpressure. In a PE the memory side of each
unit is just two more ports: a load sends (address, ctrl) out as the
address to memory and passes the memory's data on, each half on its own;
a store sends (address, data) out when address, data and ctrl are all
there. Widths follow the presets: `index` addresses (INDEX_WIDTH bits on
the fabric, LOOM's default of 32), 64-bit lanes."""

import pytest

from loom.dialects.fabric_types import INDEX_WIDTH
from loom.fabric.models.function_unit import FuModel
from loom.fabric.models.spatial_pe import spatial_pe
from tb.fabric_runner import FabricCase, cycling, random_tokens, run_fabric

pytestmark = pytest.mark.rtl

B = "!fabric.bits<64>"
ADG = f"""
module {{
  fabric.spatial_pe @pe_m(%p0: {B}, %p1: {B}, %p2: {B}) -> ({B}, {B}) {{
    fabric.function_unit @fu_load(%arg0: index, %arg1: i32, %arg2: none) -> (i32, index) [latency = 1, interval = 1] {{
      %0, %1 = handshake.load [%arg0] %arg1, %arg2 : index, i32
      fabric.yield %0, %1 : i32, index
    }}
    fabric.function_unit @fu_store(%arg0: index, %arg1: i32, %arg2: none) -> (i32, index) [latency = 1, interval = 1] {{
      %0, %1 = handshake.store [%arg0] %arg1, %arg2 : index, i32
      fabric.yield %0, %1 : i32, index
    }}
    fabric.yield
  }}
  fabric.module @mfus(%a: {B}, %b: {B}, %c: {B}) -> ({B}, {B}) {{
    %o:2 = fabric.instance @pe_m(%a, %b, %c) {{sym_name = "pe_0_0"}} : ({B}, {B}, {B}) -> ({B}, {B})
    fabric.yield %o#0, %o#1 : {B}, {B}
  }}
}}
"""
FUS = [FuModel("handshake.load", (INDEX_WIDTH, 32, 0), (32, INDEX_WIDTH)),
       FuModel("handshake.store", (INDEX_WIDTH, 32, 0), (32, INDEX_WIDTH))]


def _case(rng, opcode: int, n: int) -> FabricCase:
    fields = {"enable": 1, "opcode": opcode}
    # a random permutation of the PE inputs onto the unit's three operands
    order = rng.sample(range(3), 3)
    for k in range(3):
        fields[f"in{k}.sel"] = order[k]
    outs = rng.sample(range(2), 2)
    for k in range(2):
        fields[f"out{k}.sel"] = outs[k]
    # unequal stream lengths: a half with fewer operands stops first
    streams = [random_tokens(rng, 64, rng.randrange(n // 2, n + 1)) for _ in range(3)]
    model = spatial_pe(fields, streams, 2, FUS)
    return FabricCase({"pe_0_0": fields}, {f"in{i}": streams[i] for i in range(3)},
                      {f"out{o}": model.outputs[o] for o in range(2)},
                      {f"in{i}": model.consumed[i] for i in range(3)})


def test_load_halves_are_independent_in_the_model():
    # two addresses with ctrl, one datum back: two addresses out, one datum on
    fields = {"enable": 1, "opcode": 0, "in0.sel": 0, "in1.sel": 1, "in2.sel": 2,
              "out0.sel": 0, "out1.sel": 1}
    got = spatial_pe(fields, [[5, 6], [77], [0, 0]], 2, FUS)
    assert got.outputs == [[77], [5, 6]] and got.consumed == [2, 1, 2]


def test_store_waits_for_all_three_in_the_model():
    fields = {"enable": 1, "opcode": 1, "in0.sel": 0, "in1.sel": 1, "in2.sel": 2,
              "out0.sel": 0, "out1.sel": 1}
    got = spatial_pe(fields, [[5, 6, 7], [70, 71], [0, 0, 0]], 2, FUS)
    assert got.outputs == [[70, 71], [5, 6]] and got.consumed == [2, 2, 2]


def test_memory_units_match_model():
    cases = run_fabric("pe_memory", ADG, cycling(range(len(FUS)), _case), seed=1, tokens=64,
                       episodes=4 * len(FUS))
    assert {c.config["pe_0_0"]["opcode"] for c in cases} == set(range(len(FUS)))
