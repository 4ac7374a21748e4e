"""fabric.spatial_sw RTL (templates/fabric_spatial_sw.sv.j2) against the
reference model loom.fabric.models.spatial_sw: random legal routes (one
source per output, broadcasts, unrouted inputs and outputs), encoded by the
config layout and streamed through the cfg port, under random input
validity and output backpressure."""

import random

import pytest

from loom.fabric.models.spatial_sw import spatial_sw
from tb.fabric_runner import FabricCase, random_tokens, run_fabric

pytestmark = pytest.mark.rtl

B32 = "!fabric.bits<32>"
# three switches side by side: a sparse 3x3 (one 16-bit port), a full 2x4
# crossbar (no table: every position connected), and a 1x1
ADG = f"""
module {{
  fabric.module @sw(%a: {B32}, %b: {B32}, %c: i16, %d: i8, %e: i8, %f: {B32})
      -> ({B32}, {B32}, {B32}, i8, i8, i8, i8, {B32}) {{
    %x:3 = fabric.spatial_sw @sw_a [connectivity_table = ["111", "110", "011"]] (%a, %b, %c)
        : ({B32}, {B32}, i16) -> ({B32}, {B32}, {B32})
    %y:4 = fabric.spatial_sw @sw_b (%d, %e) : (i8, i8) -> (i8, i8, i8, i8)
    %z = fabric.spatial_sw @sw_c [connectivity_table = ["1"]] (%f) : ({B32}) -> ({B32})
    fabric.yield %x#0, %x#1, %x#2, %y#0, %y#1, %y#2, %y#3, %z
        : {B32}, {B32}, {B32}, i8, i8, i8, i8, {B32}
  }}
}}
"""
# name, module input ports, module output ports, input widths, connectivity
SWITCHES = [
    ("sw_a", [0, 1, 2], [0, 1, 2], [32, 32, 16], ["111", "110", "011"]),
    ("sw_b", [3, 4], [3, 4, 5, 6], [8, 8], ["11"] * 4),
    ("sw_c", [5], [7], [32], ["1"]),
]


def random_routes(rng: random.Random, table: list[str]) -> dict[str, int]:
    """One source (or none) per output among the connected inputs."""
    fields = {}
    for o, row in enumerate(table):
        choices = [i for i, c in enumerate(row) if c == "1"]
        if rng.random() < 0.8:
            fields[f"route.o{o}.i{rng.choice(choices)}"] = 1
    return fields


def make_case(rng, layout, n):
    case = FabricCase({}, {}, {}, {})
    for name, ins, outs, widths, table in SWITCHES:
        fields = random_routes(rng, table)
        case.config[name] = fields   # type: ignore[index]
        streams = [random_tokens(rng, w, n) for w in widths]
        model = spatial_sw(fields, streams, len(outs))
        for k, port in enumerate(ins):
            case.inputs[f"in{port}"] = streams[k]
            case.consumed[f"in{port}"] = model.consumed[k]
        for j, port in enumerate(outs):
            case.outputs[f"out{port}"] = model.outputs[j]
    return case


def test_spatial_sw_matches_model():
    cases = run_fabric("spatial_sw", ADG, make_case, seed=1, tokens=150, episodes=6)
    # the random configurations did exercise broadcast and unrouted inputs
    routed = [[k for k, v in c.config["sw_b"].items() if v] for c in cases]
    assert any(len({r.split(".")[2] for r in rs}) < len(rs) for rs in routed)
    assert any(c.consumed[f"in{p}"] == 0 for c in cases for p in range(6))


def test_spatial_sw_model_broadcast():
    # independent of the RTL: one input to three outputs, one input unrouted
    fields = {"route.o0.i1": 1, "route.o1.i1": 1, "route.o3.i1": 1}
    got = spatial_sw(fields, [[1, 2], [3, 4, 5]], 4)
    assert got.outputs == [[3, 4, 5], [3, 4, 5], [], [3, 4, 5]]
    assert got.consumed == [0, 3]


@pytest.mark.slow
@pytest.mark.parametrize("seed", [2, 3])
def test_spatial_sw_long(seed):
    run_fabric("spatial_sw", ADG, make_case, seed=seed, tokens=1000, episodes=9)
