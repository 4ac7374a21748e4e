"""fabric.spatial_pe RTL (templates/fabric_spatial_pe.sv.j2, function units
from our unit templates through templates/fabric_function_unit.sv.j2) against the
reference model loom.fabric.models.spatial_pe (golden op classes): random
enable, opcode, input muxes (select, discard, disconnect), output demuxes
(select, discard) and payloads (constant value, cmpi predicate), encoded by
the config layout and streamed through the cfg port, under random input
validity and output backpressure."""

import itertools
import random

import pytest

from loom.fabric import function_units as fu
from loom.fabric.models.function_unit import FuModel
from loom.fabric.models.spatial_pe import spatial_pe
from tb.fabric_runner import FabricCase, random_tokens, run_fabric

pytestmark = pytest.mark.rtl

B = "!fabric.bits<32>"


def pe_adg(units: str, bits: int = 32) -> str:
    """One PE of three inputs and two outputs, each of `bits`, holding `units`
    (their MLIR text), wired to the module's ports."""
    port = f"!fabric.bits<{bits}>"
    return f"""
module {{
  fabric.spatial_pe @pe_t(%p0: {port}, %p1: {port}, %p2: {port}) -> ({port}, {port}) {{
    {units.strip()}
    fabric.yield
  }}
  fabric.module @pes(%a: {port}, %b: {port}, %c: {port}) -> ({port}, {port}) {{
    %o:2 = fabric.instance @pe_t(%a, %b, %c) {{sym_name = "pe_0_0"}} : ({port}, {port}, {port}) -> ({port}, {port})
    fabric.yield %o#0, %o#1 : {port}, {port}
  }}
}}
"""


UNITS = """
    fabric.function_unit @fu_add(%arg0: i32, %arg1: i32) -> (i32) [latency = 1, interval = 1] {
      %0 = arith.addi %arg0, %arg1 : i32
      fabric.yield %0 : i32
    }
    fabric.function_unit @fu_cmp(%arg0: i32, %arg1: i32) -> (i1) [latency = 1, interval = 1] {
      %0 = arith.cmpi eq, %arg0, %arg1 : i32
      fabric.yield %0 : i1
    }
    fabric.function_unit @fu_const(%arg0: none) -> (i32) [latency = 1, interval = 1] {
      %0 = handshake.constant %arg0 {value = 0 : i32} : i32
      fabric.yield %0 : i32
    }
    fabric.function_unit @fu_br(%arg0: i1, %arg1: i32) -> (i32, i32) [latency = 1, interval = 1] {
      %0, %1 = handshake.cond_br %arg0, %arg1 : i32
      fabric.yield %0, %1 : i32, i32
    }
    fabric.function_unit @fu_sel(%arg0: i1, %arg1: i32, %arg2: i32) -> (i32) [latency = 1, interval = 1] {
      %0 = arith.select %arg0, %arg1, %arg2 : i32
      fabric.yield %0 : i32
    }
    fabric.function_unit @fu_mul(%arg0: i32, %arg1: i32) -> (i32) [latency = 4, interval = 1] {
      %0 = arith.muli %arg0, %arg1 : i32
      fabric.yield %0 : i32
    }
"""
"""Six units of the kinds a kernel needs most; the temporal PE's test holds them too."""
ADG = pe_adg(UNITS)
FUS = [FuModel("arith.addi", (32, 32), (32,)), FuModel("arith.cmpi", (32, 32), (1,)),
       FuModel("handshake.constant", (0,), (32,)), FuModel("handshake.cond_br", (1, 32), (32, 32)),
       FuModel("arith.select", (1, 32, 32), (32,)), FuModel("arith.muli", (32, 32), (32,))]
N_IN, N_OUT = 3, 2


def random_config(rng: random.Random, fus: list[FuModel] = FUS,
                  opcode: int | None = None) -> dict[str, int]:
    # the PE has as many input (output) muxes as its widest unit has ports
    k_in, k_out = max(len(f.in_widths) for f in fus), max(len(f.out_widths) for f in fus)
    if opcode is None and rng.random() < 0.1:
        return {f"in{k}.disconnect": 1 for k in range(k_in)} | {
            f"out{k}.disconnect": 1 for k in range(k_out)}   # an unused PE
    opcode = rng.randrange(len(fus)) if opcode is None else opcode
    fu = fus[opcode]
    fields = {"enable": 1, "opcode": opcode}
    perm = rng.sample(range(N_IN), N_IN)
    for k in range(k_in):
        if k < len(fu.in_widths):
            fields[f"in{k}.sel"] = perm[k]
        elif rng.random() < 0.5:   # drain a PE input the FU does not use
            fields |= {f"in{k}.sel": perm[k], f"in{k}.discard": 1}
        else:
            fields[f"in{k}.disconnect"] = 1
    outs = rng.sample(range(N_OUT), N_OUT)
    for k in range(k_out):
        if k < len(fu.out_widths) and rng.random() < 0.8:
            fields[f"out{k}.sel"] = outs[k]
        elif k < len(fu.out_widths):
            fields[f"out{k}.discard"] = 1
        else:
            fields[f"out{k}.disconnect"] = 1
    if fu.op == "arith.cmpi":
        fields["fu.0.value"] = rng.randrange(10)
    if fu.op == "arith.cmpf":
        fields["fu.0.value"] = rng.randrange(16)   # any of the sixteen, by MLIR ordinal
    if fu.op == "handshake.constant":
        fields["fu.0.value"] = rng.getrandbits(32)
    return fields


def make_case(rng, layout, n, fus: list[FuModel] = FUS, small=(0, 1, 2, 3),
              opcode: int | None = None, bits: int = 32):
    fields = random_config(rng, fus, opcode)
    streams = []
    for _ in range(N_IN):
        # small values make cmpi's and cond_br's outcomes vary
        streams.append([rng.choice(small) if rng.random() < 0.5 else t
                        for t in random_tokens(rng, bits, n)])
    model = spatial_pe(fields, streams, N_OUT, fus)
    case = FabricCase({"pe_0_0": fields}, {}, {}, {})
    for i in range(N_IN):
        case.inputs[f"in{i}"] = streams[i]
        case.consumed[f"in{i}"] = model.consumed[i]
    for o in range(N_OUT):
        case.outputs[f"out{o}"] = model.outputs[o]
    return case


def test_spatial_pe_model():
    fields = {"enable": 1, "opcode": 3, "in0.sel": 2, "in1.sel": 0, "in2.sel": 1,
              "in2.discard": 1, "out0.sel": 1, "out1.discard": 1}
    got = spatial_pe(fields, [[5, 6, 7], [9], [1, 0, 3]], 2, FUS)
    assert got.outputs == [[], [5, 7]] and got.consumed == [3, 1, 3]
    assert spatial_pe({}, [[1], [2], [3]], 2, FUS).consumed == [0, 0, 0]


def test_spatial_pe_matches_model():
    cases = run_fabric("spatial_pe", ADG, make_case, seed=1, tokens=120, episodes=8)
    assert len({c.config["pe_0_0"].get("opcode") for c in cases}) >= 4


@pytest.mark.slow
@pytest.mark.parametrize("seed", [2, 3, 4])
def test_spatial_pe_long(seed):
    run_fabric("spatial_pe", ADG, make_case, seed=seed, tokens=600, episodes=16)


F = "f32"
FLOAT_ADG = pe_adg("\n    ".join(
    f"""fabric.function_unit @fu_{name}({args}) -> ({res}) [latency = {lat}, interval = 1] {{
      %0 = {op} {operands} : {types}
      fabric.yield %0 : {res}
    }}""" for name, op, args, operands, types, res, lat in (
        ("addf", "arith.addf", f"%arg0: {F}, %arg1: {F}", "%arg0, %arg1", F, F, 6),
        ("mulf", "arith.mulf", f"%arg0: {F}, %arg1: {F}", "%arg0, %arg1", F, F, 2),
        ("divf", "arith.divf", f"%arg0: {F}, %arg1: {F}", "%arg0, %arg1", F, F, 15),
        ("sqrt", "math.sqrt", f"%arg0: {F}", "%arg0", F, F, 15),
        ("sitofp", "arith.sitofp", "%arg0: i32", "%arg0", f"i32 to {F}", F, 5),
        ("fptosi", "arith.fptosi", f"%arg0: {F}", "%arg0", f"{F} to i32", "i32", 5),
        ("cmpf", "arith.cmpf olt,", f"%arg0: {F}, %arg1: {F}", "%arg0, %arg1", F, "i1", 1),
        ("minnumf", "arith.minnumf", f"%arg0: {F}, %arg1: {F}", "%arg0, %arg1", F, F, 1),
        ("maxnumf", "arith.maxnumf", f"%arg0: {F}, %arg1: {F}", "%arg0, %arg1", F, F, 1))
))
FLOAT_FUS = [FuModel("arith.addf", (32, 32), (32,)), FuModel("arith.mulf", (32, 32), (32,)),
             FuModel("arith.divf", (32, 32), (32,)), FuModel("math.sqrt", (32,), (32,)),
             FuModel("arith.sitofp", (32,), (32,)), FuModel("arith.fptosi", (32,), (32,)),
             FuModel("arith.cmpf", (32, 32), (1,)), FuModel("arith.minnumf", (32, 32), (32,)),
             FuModel("arith.maxnumf", (32, 32), (32,))]
FLOAT_CORNERS = (0x00000000, 0x80000000, 0x3F800000, 0x7F800000, 0x7FC00000, 0x00000001,
                 0x7F7FFFFF, 0x4F000000, 0xCF000000, 0x3F000000)
"""Binary32 corners: zeros, one, infinity, NaN, the least subnormal, the largest
finite, +-2^31 (fptosi's edges), one half (a rounding tie)."""


def test_float_units_match_model():
    # the float units of section 5 as fabric function units (issue 33): each
    # against the golden float ops, random operands and the binary32 corners
    units = itertools.cycle(range(len(FLOAT_FUS)))   # each unit in turn
    cases = run_fabric("spatial_pe_float", FLOAT_ADG,
                       lambda rng, layout, n: make_case(rng, layout, n, FLOAT_FUS, FLOAT_CORNERS,
                                                        next(units)),
                       seed=1, tokens=80, episodes=2 * len(FLOAT_FUS))
    assert {c.config["pe_0_0"]["opcode"] for c in cases} == set(range(len(FLOAT_FUS)))


WIDTH_CAST_ADG = pe_adg("""
    fabric.function_unit @fu_extf(%arg0: f32) -> (f64) [latency = 5, interval = 1] {
      %0 = arith.extf %arg0 : f32 to f64
      fabric.yield %0 : f64
    }
    fabric.function_unit @fu_truncf(%arg0: f64) -> (f32) [latency = 5, interval = 1] {
      %0 = arith.truncf %arg0 : f64 to f32
      fabric.yield %0 : f32
    }""", bits=64)
WIDTH_CAST_FUS = [FuModel("arith.extf", (32,), (64,)), FuModel("arith.truncf", (64,), (32,))]
WIDTH_CAST_CORNERS = (
    *FLOAT_CORNERS,                                          # extf's (the low 32 bits)
    0x8000000000000000, 0x7FF0000000000000, 0x7FF8000000000001, 0x0000000000000001,
    0x47EFFFFFE0000000, 0x47EFFFFFF0000000,                  # f32's largest; half an ulp over
    0x36A0000000000000, 0x3690000000000000, 0x3698000000000000,   # 2^-149, 2^-150, 1.5 * 2^-150
    0x3FF0000010000000, 0x3FF0000030000000)                  # 1 + 2^-24, 1 + 3 * 2^-24: ties
"""Binary64 corners for truncf: the edges of binary32's range (its largest
finite, and half an ulp above, which rounds to infinity), its least
subnormal and the ties below it (2^-150 rounds to zero, 1.5 * 2^-150 up),
ties to even at one, a NaN with a payload; the binary32 corners for extf."""


def test_float_width_casts_match_model():
    # extf and truncf (issue 33; beyond LOOM's unit-body list) on 64-bit
    # ports, against the golden casts
    units = itertools.cycle(range(len(WIDTH_CAST_FUS)))
    cases = run_fabric("spatial_pe_float_casts", WIDTH_CAST_ADG,
                       lambda rng, layout, n: make_case(rng, layout, n, WIDTH_CAST_FUS,
                                                        WIDTH_CAST_CORNERS, next(units), 64),
                       seed=1, tokens=80, episodes=4)
    assert {c.config["pe_0_0"]["opcode"] for c in cases} == {0, 1}


PAIR_ADG = f"""
module {{
  fabric.spatial_pe @pe_p(%p0: {B}, %p1: {B}, %p2: {B}) -> ({B}, {B}, {B}, {B}) {{
{chr(10).join(fu.cond_br_pair("fu_cond_br2", "i32").render("    "))}
    fabric.yield
  }}
  fabric.module @pair(%a: {B}, %b: {B}, %c: {B}) -> ({B}, {B}, {B}, {B}) {{
    %o:4 = fabric.instance @pe_p(%a, %b, %c) {{sym_name = "pe_0_0"}} : ({B}, {B}, {B}) -> ({B}, {B}, {B}, {B})
    fabric.yield %o#0, %o#1, %o#2, %o#3 : {B}, {B}, {B}, {B}
  }}
}}
"""
PAIR = FuModel("handshake.cond_br", (1, 32, 32), (32,) * 4, paired=True)


def _pair_case(rng, layout, n):
    # the condition on a random PE input, the two values on the others; the
    # second value's stream sometimes shorter, so one half stops and holds the
    # condition (the other half may run one token ahead, no further)
    ins = rng.sample(range(3), 3)
    outs = rng.sample(range(4), 4)
    fields = {"enable": 1, "opcode": 0} | {f"in{k}.sel": ins[k] for k in range(3)}
    fields |= {f"out{k}.sel": outs[k] for k in range(4)}
    streams = [[] for _ in range(3)]
    streams[ins[0]] = [rng.getrandbits(1) for _ in range(n)]
    streams[ins[1]] = random_tokens(rng, 32, n)
    streams[ins[2]] = random_tokens(rng, 32, n if rng.random() < 0.5 else rng.randrange(n))
    model = spatial_pe(fields, streams, 4, [PAIR])
    return FabricCase({"pe_0_0": fields}, {f"in{i}": streams[i] for i in range(3)},
                      {f"out{o}": model.outputs[o] for o in range(4)},
                      {f"in{i}": model.consumed[i] for i in range(3)})


def test_cond_br_pair_model():
    # hand-derived: condition 1, 0, 1; values 10, 11, 12 and 20 (one only):
    # the first half runs one token ahead of the second at most, so it steers
    # 10 (true) and 11 (false); the second steers 20 (true); the condition's
    # first token leaves, its second waits for the second half
    fields = {"enable": 1, "opcode": 0, "in0.sel": 0, "in1.sel": 1, "in2.sel": 2,
              "out0.sel": 0, "out1.sel": 1, "out2.sel": 2, "out3.sel": 3}
    got = spatial_pe(fields, [[1, 0, 1], [10, 11, 12], [20]], 4, [PAIR])
    assert got.outputs == [[10], [11], [20], []] and got.consumed == [1, 2, 1]


def test_cond_br_pair_matches_model():
    # the presets' pair of branches (function_units.cond_br_pair): both
    # halves steer their values by the one condition, each at its own pace
    run_fabric("spatial_pe_pair", PAIR_ADG, _pair_case, seed=1, tokens=120, episodes=6)
