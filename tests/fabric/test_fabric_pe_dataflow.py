"""Function units of a spatial PE beyond plain arithmetic, against the
reference model loom.fabric.models.spatial_pe (golden op classes): the four
dataflow units at -1/-1 (stream with a configured cont_cond, gate, carry,
invariant), a 3-input join under a configured mask (masked-out inputs take no
part), and casts (extsi, extui, trunci), under random validity and
backpressure. Stream operands are drawn so every activation ends."""


import pytest

from loom.fabric.config_layout import CONT_COND_BITS
from loom.fabric.models.function_unit import FuModel
from loom.fabric.models.spatial_pe import spatial_pe
from tb.fabric_runner import FabricCase, cycling, random_tokens, run_fabric

pytestmark = pytest.mark.rtl

B = "!fabric.bits<32>"
ADG = f"""
module {{
  fabric.spatial_pe @pe_d(%p0: {B}, %p1: {B}, %p2: {B}) -> ({B}, {B}) {{
    fabric.function_unit @fu_stream(%arg0: i32, %arg1: i32, %arg2: i32) -> (i32, i1) [latency = -1, interval = -1] {{
      %0, %1 = dataflow.stream %arg0, %arg1, %arg2 {{step_op = "+=", cont_cond = "<"}} : (i32, i32, i32) -> (i32, i1)
      fabric.yield %0, %1 : i32, i1
    }}
    fabric.function_unit @fu_gate(%arg0: i32, %arg1: i1) -> (i32, i1) [latency = -1, interval = -1] {{
      %0, %1 = dataflow.gate %arg0, %arg1 : i32, i1 -> i32, i1
      fabric.yield %0, %1 : i32, i1
    }}
    fabric.function_unit @fu_carry(%arg0: i1, %arg1: i32, %arg2: i32) -> (i32) [latency = -1, interval = -1] {{
      %0 = dataflow.carry %arg0, %arg1, %arg2 : i1, i32, i32 -> i32
      fabric.yield %0 : i32
    }}
    fabric.function_unit @fu_inv(%arg0: i1, %arg1: i32) -> (i32) [latency = -1, interval = -1] {{
      %0 = dataflow.invariant %arg0, %arg1 : i1, i32 -> i32
      fabric.yield %0 : i32
    }}
    fabric.function_unit @fu_join(%arg0: none, %arg1: none, %arg2: none) -> (none) [latency = 1, interval = 1] {{
      %0 = handshake.join %arg0, %arg1, %arg2 : none, none, none
      fabric.yield %0 : none
    }}
    fabric.function_unit @fu_extsi(%arg0: i8) -> (i32) [latency = 1, interval = 1] {{
      %0 = arith.extsi %arg0 : i8 to i32
      fabric.yield %0 : i32
    }}
    fabric.function_unit @fu_extui(%arg0: i8) -> (i32) [latency = 1, interval = 1] {{
      %0 = arith.extui %arg0 : i8 to i32
      fabric.yield %0 : i32
    }}
    fabric.function_unit @fu_trunci(%arg0: i32) -> (i8) [latency = 1, interval = 1] {{
      %0 = arith.trunci %arg0 : i32 to i8
      fabric.yield %0 : i8
    }}
    fabric.yield
  }}
  fabric.module @dfus(%a: {B}, %b: {B}, %c: {B}) -> ({B}, {B}) {{
    %o:2 = fabric.instance @pe_d(%a, %b, %c) {{sym_name = "pe_0_0"}} : ({B}, {B}, {B}) -> ({B}, {B})
    fabric.yield %o#0, %o#1 : {B}, {B}
  }}
}}
"""
FUS = [FuModel("dataflow.stream", (32, 32, 32), (32, 1)),
       FuModel("dataflow.gate", (32, 1), (32, 1)),
       FuModel("dataflow.carry", (1, 32, 32), (32,)),
       FuModel("dataflow.invariant", (1, 32), (32,)),
       FuModel("handshake.join", (0, 0, 0), (0,)),
       FuModel("arith.extsi", (8,), (32,)), FuModel("arith.extui", (8,), (32,)),
       FuModel("arith.trunci", (32,), (8,))]


def _stream_operands(rng, n: int, cond: str) -> list[list[int]]:
    """(start, step, bound) per activation: a few iterations for every cont_cond
    under `+=`."""
    starts, steps, bounds = [], [], []
    for _ in range(n):
        start = rng.randrange(-4, 5)
        step = 1 if cond == "!=" else rng.randrange(1, 4)
        # > and >= start below their bound: no trip (>= at the bound would never end)
        bound = start + rng.randrange(0 if cond in ("<", "<=", "!=") else 1, 6)
        starts.append(start & 0xFFFFFFFF)
        steps.append(step)
        bounds.append(bound & 0xFFFFFFFF)
    return [starts, steps, bounds]


def _case(rng, opcode: int, n: int) -> FabricCase:
    fu = FUS[opcode]
    fields = {"enable": 1, "opcode": opcode}
    for k in range(3):
        if k < len(fu.in_widths):
            fields[f"in{k}.sel"] = k
        else:
            fields[f"in{k}.disconnect"] = 1
    for k in range(2):
        if k < len(fu.out_widths):
            fields[f"out{k}.sel"] = k
        else:
            fields[f"out{k}.disconnect"] = 1
    streams = [[rng.choice([0, 1, 0x80, 0xFF, 0x7F]) if rng.random() < 0.5 else t
                for t in random_tokens(rng, 32, n)] for _ in range(3)]
    if fu.op == "dataflow.stream":
        cond = rng.choice(list(CONT_COND_BITS))
        fields["fu.0.value"] = CONT_COND_BITS[cond]
        streams = _stream_operands(rng, n // 8, cond)
    if fu.op == "handshake.join":
        fields["fu.0.value"] = rng.randrange(1, 8)
    model = spatial_pe(fields, streams, 2, FUS)
    return FabricCase({"pe_0_0": fields}, {f"in{i}": streams[i] for i in range(3)},
                      {f"out{o}": model.outputs[o] for o in range(2)},
                      {f"in{i}": model.consumed[i] for i in range(3)})


def test_masked_join_model():
    fields = {"enable": 1, "opcode": 4, "in0.sel": 0, "in1.sel": 1, "in2.sel": 2,
              "out0.sel": 0, "out1.disconnect": 1, "fu.0.value": 0b101}
    got = spatial_pe(fields, [[1, 2, 3], [4], [5, 6]], 2, FUS)
    # inputs 0 and 2 take part, input 1 is left alone: two firings
    assert got.outputs == [[0, 0], []] and got.consumed == [2, 0, 2]


def test_dataflow_units_match_model():
    cases = run_fabric("pe_dataflow", ADG, cycling(range(len(FUS)), _case), seed=1, tokens=96,
                       episodes=2 * len(FUS))
    assert {c.config["pe_0_0"]["opcode"] for c in cases} == set(range(len(FUS)))
