"""fabric.add_tag / del_tag / map_tag RTL (templates/fabric_{add,del,map}_tag.sv.j2)
against the reference models: random tags and map tables (config through the
cfg port; tokens whose tag no entry maps stop the stream, as in LOOM), alone
and chained add -> map -> del, under random validity and backpressure."""

import random

import pytest

from loom.fabric.models.add_tag import add_tag
from loom.fabric.models.del_tag import del_tag
from loom.fabric.models.map_tag import map_tag
from tb.fabric_runner import FabricCase, random_tokens, run_fabric

pytestmark = pytest.mark.rtl

T2_32 = "!fabric.tagged<!fabric.bits<32>, i2>"
T2_16 = "!fabric.tagged<!fabric.bits<16>, i2>"
T3_32 = "!fabric.tagged<!fabric.bits<32>, i3>"
T1_40 = "!fabric.tagged<!fabric.bits<40>, i1>"
T2_40 = "!fabric.tagged<!fabric.bits<40>, i2>"
ADG = f"""
module {{
  fabric.module @tags(%a: i32, %b: {T2_16}, %c: {T3_32}, %d: i32, %e: i64)
      -> ({T2_32}, i8, {T2_32}, i32, {T2_16}) {{
    %t = fabric.add_tag %a {{tag = 1 : i64}} : i32 -> {T2_32}
    %u = fabric.del_tag %b : {T2_16} -> i8
    %m = fabric.map_tag %c [table_size = 3] attributes {{table = [[1, 0, 1], [1, 5, 2], [0, 7, 3]]}} : {T3_32} -> {T2_32}
    %ct = fabric.add_tag %d {{tag = 0 : i64}} : i32 -> {T1_40}
    %cm = fabric.map_tag %ct [table_size = 2] attributes {{table = [[1, 0, 3], [1, 1, 2]]}} : {T1_40} -> {T2_40}
    %cd = fabric.del_tag %cm : {T2_40} -> i32
    %w = fabric.add_tag %e {{tag = 3 : i64}} : i64 -> {T2_16}
    fabric.yield %t, %u, %m, %cd, %w : {T2_32}, i8, {T2_32}, i32, {T2_16}
  }}
}}
"""


def random_table(rng: random.Random, size: int, k_in: int, k_out: int) -> dict[str, int]:
    fields = {}
    for e in range(size):
        fields[f"entry{e}.valid"] = int(rng.random() < 0.8)
        fields[f"entry{e}.src_tag"] = rng.randrange(1 << k_in)
        fields[f"entry{e}.dst_tag"] = rng.randrange(1 << k_out)
    return fields


def tagged_tokens(rng, n, value_bits, tags):
    return [(rng.choice(tags) << value_bits) | v for v in random_tokens(rng, value_bits, n)]


def make_case(rng, layout, n):
    sl = {s.name: s for s in layout.slices}
    names = [s.name for s in layout.slices]   # add_tag_0, map_tag_0, add_tag_1, map_tag_1, add_tag_2
    assert names == ["add_tag_0", "map_tag_0", "add_tag_1", "map_tag_1", "add_tag_2"], names
    cfg = {"add_tag_0": {"tag": rng.randrange(4)}, "add_tag_1": {"tag": rng.randrange(2)},
           "add_tag_2": {"tag": rng.randrange(4)},
           "map_tag_0": random_table(rng, 3, 3, 2), "map_tag_1": random_table(rng, 2, 1, 2)}
    if rng.random() < 0.7:   # mostly tables that map every tag the input carries
        cfg["map_tag_1"] = {"entry0.valid": 1, "entry0.src_tag": cfg["add_tag_1"]["tag"],
                            "entry0.dst_tag": rng.randrange(4)}
    assert all(set(v) <= {f.name for f in sl[k].fields} for k, v in cfg.items())
    a = random_tokens(rng, 32, n)
    b = tagged_tokens(rng, n, 16, [0, 1, 2, 3])
    mapped = [cfg["map_tag_0"][f"entry{e}.src_tag"] for e in range(3)
              if cfg["map_tag_0"][f"entry{e}.valid"]]
    c = tagged_tokens(rng, n, 32, mapped or [0])
    if rng.random() < 0.3:   # an unmapped tag somewhere stops the stream
        c[rng.randrange(n)] = (rng.randrange(8) << 32) | 5
    d = random_tokens(rng, 32, n)
    e = random_tokens(rng, 64, n)
    ra = add_tag(cfg["add_tag_0"], a, 32)
    rb = del_tag(b, 16, 8)
    rc = map_tag(cfg["map_tag_0"], c, 32, 3)
    rd1 = add_tag(cfg["add_tag_1"], d, 40)
    rd2 = map_tag(cfg["map_tag_1"], rd1.outputs[0], 40, 2)
    rd3 = del_tag(rd2.outputs[0], 40, 32)
    re = add_tag(cfg["add_tag_2"], e, 16)
    case = FabricCase(cfg, {"in0": a, "in1": b, "in2": c, "in3": d, "in4": e}, {}, {})
    case.consumed = {"in0": n, "in1": n, "in2": rc.consumed[0], "in3": rd2.consumed[0],
                     "in4": n}
    case.outputs = {"out0": ra.outputs[0], "out1": rb.outputs[0], "out2": rc.outputs[0],
                    "out3": rd3.outputs[0], "out4": re.outputs[0]}
    return case


def test_tag_models():
    assert add_tag({"tag": 2}, [5, 0x1ff], 8).outputs == [[0x205, 0x2ff]]
    assert del_tag([0x3_0005], 16, 8).outputs == [[5]]
    table = {"entry0.valid": 1, "entry0.src_tag": 1, "entry0.dst_tag": 3,
             "entry1.valid": 1, "entry1.src_tag": 1, "entry1.dst_tag": 2}
    got = map_tag(table, [(1 << 4) | 7, (0 << 4) | 1, (1 << 4) | 2], 4, 2)
    assert got.outputs == [[(3 << 4) | 7]] and got.consumed == [1]


def test_tags_match_models():
    run_fabric("tags", ADG, make_case, seed=1, tokens=150, episodes=6)


@pytest.mark.slow
@pytest.mark.parametrize("seed", [2, 3])
def test_tags_long(seed):
    run_fabric("tags", ADG, make_case, seed=seed, tokens=1000, episodes=9)
