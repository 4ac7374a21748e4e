"""fabric.temporal_sw RTL (templates/fabric_temporal_sw.sv.j2) against the
reference model loom.fabric.models.temporal_sw: random route tables (valid
slots, tags, per-slot routes with broadcast; tokens whose tag no slot routes
stop their stream), config through the cfg port, random validity and
backpressure. A 1:3 splitter (what splits a shared memory's responses by
tag) and a 2x2 switch whose outputs each take one input."""

import random

import pytest

from loom.fabric.models.temporal_sw import temporal_sw
from tb.fabric_runner import FabricCase, random_tokens, run_fabric

pytestmark = pytest.mark.rtl

T = "!fabric.tagged<!fabric.bits<16>, i2>"
ADG = f"""
module {{
  fabric.module @tsw(%a: {T}, %b: {T}, %c: {T}) -> ({T}, {T}, {T}, {T}, {T}) {{
    %x:3 = fabric.temporal_sw @split [num_route_table = 4] (%a) : ({T}) -> ({T}, {T}, {T})
    %y:2 = fabric.temporal_sw @cross [num_route_table = 2] (%b, %c) : ({T}, {T}) -> ({T}, {T})
    fabric.yield %x#0, %x#1, %x#2, %y#0, %y#1 : {T}, {T}, {T}, {T}, {T}
  }}
}}
"""


def random_table(rng: random.Random, slots: int, owner: list[int], mapped: float) -> dict:
    """Slots with distinct tags; output o may only be routed from input owner[o]."""
    fields = {}
    tags = rng.sample(range(4), slots)
    for s in range(slots):
        fields[f"slot{s}.valid"] = int(rng.random() < 0.9)
        fields[f"slot{s}.tag"] = tags[s]
        for o, i in enumerate(owner):
            if rng.random() < mapped:
                fields[f"slot{s}.route.o{o}.i{i}"] = 1
    return fields


def tokens(rng, n, tags):
    return [(rng.choice(tags) << 16) | v for v in random_tokens(rng, 16, n)]


def make_case(rng, layout, n):
    split = random_table(rng, 4, [0, 0, 0], 0.6)
    cross = random_table(rng, 2, rng.choice([[0, 1], [1, 0], [0, 0], [1, 1]]), 0.8)
    routed = [split[f"slot{s}.tag"] for s in range(4) if split[f"slot{s}.valid"] and any(
        split.get(f"slot{s}.route.o{o}.i0") for o in range(3))]
    a = tokens(rng, n, routed if routed and rng.random() < 0.8 else [0, 1, 2, 3])
    b = tokens(rng, n, [cross["slot0.tag"], cross["slot1.tag"]])
    c = tokens(rng, n, [cross["slot0.tag"], cross["slot1.tag"]])
    m1 = temporal_sw(split, [a], 3, 4, 16)
    m2 = temporal_sw(cross, [b, c], 2, 2, 16)
    outs = m1.outputs + m2.outputs
    return FabricCase({"split": split, "cross": cross}, {"in0": a, "in1": b, "in2": c},
                      {f"out{o}": outs[o] for o in range(5)},
                      {"in0": m1.consumed[0], "in1": m2.consumed[0], "in2": m2.consumed[1]})


def test_temporal_sw_model():
    table = {"slot0.valid": 1, "slot0.tag": 1, "slot0.route.o0.i0": 1, "slot0.route.o1.i0": 1,
             "slot1.valid": 1, "slot1.tag": 2, "slot1.route.o1.i0": 1}
    got = temporal_sw(table, [[(1 << 4) | 3, (2 << 4) | 5, (3 << 4) | 7, (1 << 4)]], 2, 2, 4)
    assert got.outputs == [[0x13], [0x13, 0x25]] and got.consumed == [2]


def test_temporal_sw_matches_model():
    run_fabric("temporal_sw", ADG, make_case, seed=1, tokens=150, episodes=6)


@pytest.mark.slow
@pytest.mark.parametrize("seed", [2, 3])
def test_temporal_sw_long(seed):
    run_fabric("temporal_sw", ADG, make_case, seed=seed, tokens=1000, episodes=9)
