"""fabric.mux inside function units (compiler/loom/fabric/rtl/fu.py): a PE
whose units choose their body by configuration, checked against Python
arithmetic of the selected effective graph (loom.mapper.techmap's notion)
under random validity and backpressure:

- fu_mac (LOOM's tests/unit/techmap body): sel 0 is a * b, sel 1 is a * b + c;
  in the multiply-only selection the adder is outside the effective graph and
  its operand input stays disconnected (the product still feeds the adder: it
  drains there);
- fu_addsub: one 1:2 fabric.mux sends a to an adder or a subtractor, a 2:1
  picks the result: sel (0, 0) is a + b, (1, 1) is a - b; b feeds both ops;
- discard on the output mux: the unit consumes its operands and yields nothing;
- fu_div (the presets' divider): divsi, divui, remsi, remui on one datapath,
  against the golden op classes, edge operands included;
- fu_alu (the presets' ALU): add, sub, logic ops and shifts on one datapath
  (templates/arith_alu.sv.j2), against the spatial PE's reference model of
  the configurable unit (itself checked against the golden op class), shift
  amounts at and past the width included; and with its right operand a
  constant of the unit (constant_rhs), as the presets' multiplier and i32
  compare take one too.
"""


import pytest

from loom.fabric import function_units as fu
from loom.fabric.config_layout import CMPI_PREDICATES
from loom.fabric.function_units import FunctionUnit, configurable
from loom.fabric.models.function_unit import FuModel
from loom.fabric.models.spatial_pe import spatial_pe
from loom.golden.ops.arith import CmpI
from loom.rtl.units import ALU_OPS, DIV_OPS, divider_latency
from tb.fabric_runner import FabricCase, cycling, random_tokens, run_fabric
from tb.unit_cases import BINARY_CLASSES
from tb.unit_runner import edge_values, golden_streams

pytestmark = pytest.mark.rtl

B = "!fabric.bits<32>"
ADG = f"""
module {{
  fabric.spatial_pe @pe_m(%p0: {B}, %p1: {B}, %p2: {B}) -> ({B}) {{
    fabric.function_unit @fu_mac(%arg0: i32, %arg1: i32, %arg2: i32) -> (i32) [latency = 1, interval = 1] {{
      %d = arith.muli %arg0, %arg1 : i32
      %e = arith.addi %d, %arg2 : i32
      %g = fabric.mux %d, %e {{sel = 0 : i64, discard = false, disconnect = false}} : i32, i32 -> i32
      fabric.yield %g : i32
    }}
    fabric.function_unit @fu_addsub(%arg0: i32, %arg1: i32) -> (i32) [latency = 1, interval = 1] {{
      %x, %y = fabric.mux %arg0 {{sel = 0 : i64, discard = false, disconnect = false}} : i32 -> i32, i32
      %s = arith.addi %x, %arg1 : i32
      %t = arith.subi %y, %arg1 : i32
      %r = fabric.mux %s, %t {{sel = 0 : i64, discard = false, disconnect = false}} : i32, i32 -> i32
      fabric.yield %r : i32
    }}
    fabric.yield
  }}
  fabric.module @muxes(%a: {B}, %b: {B}, %c: {B}) -> ({B}) {{
    %o = fabric.instance @pe_m(%a, %b, %c) {{sym_name = "pe_0_0"}} : ({B}, {B}, {B}) -> ({B})
    fabric.yield %o : {B}
  }}
}}
"""
M = (1 << 32) - 1
MODES = ["mul", "mac", "add", "sub", "discard"]


def _pe(opcode: int, inputs: int, fu: dict[str, int], out_discard: int = 0) -> dict[str, int]:
    fields = {"enable": 1, "opcode": opcode, "out0.sel": 0, "out0.discard": out_discard}
    for k in range(3):
        used = k < inputs
        fields |= {f"in{k}.sel": k if used else 0, f"in{k}.disconnect": int(not used)}
    return fields | fu


def _case(rng, mode: str, n: int) -> FabricCase:
    a, b, c = (random_tokens(rng, 32, n) for _ in range(3))
    # fu_mac: body op 2 is the mux (fu.2.sel); fu_addsub: ops 0 (1:2) and 3 (2:1)
    if mode in ("mul", "mac"):
        sel = int(mode == "mac")
        cfg = _pe(0, 2 + sel, {"fu.2.sel": sel})
        out = [(x * y + (z if sel else 0)) & M for x, y, z in zip(a, b, c)]
    elif mode in ("add", "sub"):
        sel = int(mode == "sub")
        cfg = _pe(1, 2, {"fu.0.sel": sel, "fu.3.sel": sel})
        out = [(x - y if sel else x + y) & M for x, y in zip(a, b)]
    else:
        cfg = _pe(1, 2, {"fu.0.sel": 0, "fu.3.sel": 0, "fu.3.discard": 1})
        out = []
    used = 3 if mode == "mac" else 2
    inputs = {"in0": a, "in1": b, "in2": c}
    consumed = {f"in{k}": n if k < used else 0 for k in range(3)}
    return FabricCase({"pe_0_0": cfg}, inputs, {"out0": out}, consumed)


def test_fu_mux_selects_the_effective_graph():
    run_fabric("fu_mux", ADG, cycling(MODES, _case), seed=1, tokens=120, episodes=len(MODES))


# fu_div: presets.py's divider, the four divisions on one datapath (fabric/rtl/fu.py's
# shared_groups), its op the mux's sel; operands mix random values with the edge
# cases (zero, one, -1, MIN) so every selection meets division by zero and MIN / -1.
def _binary_pe(*units: FunctionUnit, inputs: int = 2) -> str:
    """An ADG of one PE (pe_0_0) of `inputs` inputs that holds `units` (opcode order)."""
    ports = ", ".join(f"%p{k}: {B}" for k in range(inputs))
    args = ", ".join(f"%i{k}: {B}" for k in range(inputs))
    names = ", ".join(f"%i{k}" for k in range(inputs))
    types = ", ".join([B] * inputs)
    return f"""
module {{
  fabric.spatial_pe @pe_u({ports}) -> ({B}) {{
{chr(10).join(line for unit in units for line in unit.render("    "))}
    fabric.yield
  }}
  fabric.module @units({args}) -> ({B}) {{
    %o = fabric.instance @pe_u({names}) {{sym_name = "pe_0_0"}} : ({types}) -> ({B})
    fabric.yield %o : {B}
  }}
}}
"""


DIV_W = 16
DIV_ADG = _binary_pe(configurable("fu_div", [f"arith.{op}" for op in DIV_OPS], f"i{DIV_W}",
                                  latency=divider_latency(DIV_W)))


def _div_case(rng, op: str, n: int) -> FabricCase:
    edges = edge_values(DIV_W)
    a, b = ([rng.choice(edges) if rng.random() < 0.4 else rng.getrandbits(DIV_W)
             for _ in range(n)] for _ in range(2))
    fields = {"enable": 1, "out0.sel": 0, "fu.4.sel": DIV_OPS.index(op)}
    fields |= {f"in{k}.sel": k for k in range(2)}
    out = golden_streams(BINARY_CLASSES[op](DIV_W), [a, b])[0][0]
    return FabricCase({"pe_0_0": fields}, {"in0": a, "in1": b}, {"out0": out},
                      {"in0": n, "in1": n})


def test_divider_unit_divides_as_configured():
    run_fabric("fu_div", DIV_ADG, cycling(DIV_OPS, _div_case), seed=1, tokens=150,
               episodes=2 * len(DIV_OPS))


# fu_alu: presets.py's ALU, ALU_OPS on one datapath, its op the mux's sel (body
# op len(ALU_OPS)); operands mix random values with edge values, and shift
# amounts around the width, so every shift meets 0, w - 1, w and beyond.
ALU_W = 16
ALU_ADG = _binary_pe(configurable("fu_alu", [f"arith.{op}" for op in ALU_OPS], f"i{ALU_W}"))


def _alu_case(rng, op: str, n: int) -> FabricCase:
    edges = edge_values(ALU_W)
    a = [rng.choice(edges) if rng.random() < 0.3 else rng.getrandbits(ALU_W) for _ in range(n)]
    if op.startswith("sh"):
        b = [rng.choice([0, 1, ALU_W - 1, ALU_W, ALU_W + 1, (1 << ALU_W) - 1])
             if rng.random() < 0.4 else rng.randrange(ALU_W) for _ in range(n)]
    else:
        b = [rng.choice(edges) if rng.random() < 0.3 else rng.getrandbits(ALU_W)
             for _ in range(n)]
    fields = {"enable": 1, "out0.sel": 0, f"fu.{len(ALU_OPS)}.sel": ALU_OPS.index(op)}
    fields |= {f"in{k}.sel": k for k in range(2)}
    model = FuModel("fu_alu", (ALU_W, ALU_W), (ALU_W,),
                    choices=tuple(f"arith.{o}" for o in ALU_OPS))
    expected = spatial_pe(fields, [a, b], 1, [model])
    assert expected.outputs[0] == golden_streams(BINARY_CLASSES[op](ALU_W), [a, b])[0][0]
    return FabricCase({"pe_0_0": fields}, {"in0": a, "in1": b}, {"out0": expected.outputs[0]},
                      {"in0": n, "in1": n})


def test_alu_unit_computes_as_configured():
    run_fabric("fu_alu", ALU_ADG, cycling(ALU_OPS, _alu_case), seed=1, tokens=150,
               episodes=2 * len(ALU_OPS))


# fu_alu with a constant operand (the presets' ALU: configurable's constant_rhs):
# the rhs mux (body op 1) at sel 1 takes the constant of body op 0, fired by
# the third input, so in1 stays disconnected; the constant is drawn from the
# edge values (shift amounts around the width for the shifts).
ALU_C_ADG = _binary_pe(configurable("fu_alu", [f"arith.{op}" for op in ALU_OPS], f"i{ALU_W}",
                                    constant_rhs=True), inputs=3)


def _alu_constant_case(rng, op: str, n: int) -> FabricCase:
    a = [rng.choice(edge_values(ALU_W)) if rng.random() < 0.3 else rng.getrandbits(ALU_W)
         for _ in range(n)]
    k = rng.choice([0, 1, ALU_W - 1, ALU_W, ALU_W + 3] if op.startswith("sh")
                   else edge_values(ALU_W))
    trigger = random_tokens(rng, ALU_W, n)   # a none token's data is not read
    fields = {"enable": 1, "out0.sel": 0, "fu.0.value": k, "fu.1.sel": 1,
              f"fu.{2 + len(ALU_OPS)}.sel": ALU_OPS.index(op),
              "in0.sel": 0, "in1.disconnect": 1, "in2.sel": 2}
    model = FuModel("fu_alu", (ALU_W, ALU_W, 0), (ALU_W,),
                    choices=tuple(f"arith.{o}" for o in ALU_OPS), constant_rhs=True)
    expected = spatial_pe(fields, [a, [], trigger], 1, [model])
    assert expected.outputs[0] == golden_streams(BINARY_CLASSES[op](ALU_W), [a, [k] * n])[0][0]
    return FabricCase({"pe_0_0": fields}, {"in0": a, "in1": [], "in2": trigger},
                      {"out0": expected.outputs[0]}, {"in0": n, "in1": 0, "in2": n})


def test_alu_unit_takes_its_constant_operand():
    run_fabric("fu_alu_c", ALU_C_ADG, cycling(ALU_OPS, _alu_constant_case), seed=2, tokens=120,
               episodes=len(ALU_OPS))


# The presets' multiplier and i32 compare take a constant operand the same way
# (function_units._rhs: body op 0 the constant, op 1 the rhs mux, op 2 the op):
# one PE holds both; each episode runs one of them with its right operand from
# in1 (sel 0) or from the constant fired by in2 (sel 1), the compare under a
# random predicate, against the reference model and the golden op classes.
RHS_W = 16
RHS_UNITS = [fu.binary("fu_muli", "arith.muli", f"i{RHS_W}", latency=4, constant_rhs=True),
             fu.cmpi("fu_cmpi", f"i{RHS_W}", constant_rhs=True)]
RHS_ADG = _binary_pe(*RHS_UNITS, inputs=3)
RHS_MODES = [(unit, constant) for unit in ("muli", "cmpi") for constant in (False, True)]


def _rhs_case(rng, mode: tuple[str, bool], n: int) -> FabricCase:
    unit, constant = mode
    edges = edge_values(RHS_W)
    a = [rng.choice(edges) if rng.random() < 0.3 else rng.getrandbits(RHS_W) for _ in range(n)]
    b = [rng.choice(edges) if rng.random() < 0.3 else rng.getrandbits(RHS_W) for _ in range(n)]
    k = rng.choice(edges)
    trigger = random_tokens(rng, RHS_W, n)
    pred = rng.choice(CMPI_PREDICATES)
    fields = {"enable": 1, "opcode": int(unit == "cmpi"), "out0.sel": 0, "in0.sel": 0,
              "fu.0.value": k, "fu.1.sel": int(constant)}
    if unit == "cmpi":
        fields["fu.2.value"] = CMPI_PREDICATES.index(pred)
    fields |= {"in1.disconnect": 1, "in2.sel": 2} if constant else {
        "in1.sel": 1, "in2.disconnect": 1}
    rhs = [k] * n if constant else b
    models = [FuModel("arith.muli", (RHS_W, RHS_W, 0), (RHS_W,), constant_rhs=True),
              FuModel("arith.cmpi", (RHS_W, RHS_W, 0), (1,), constant_rhs=True)]
    expected = spatial_pe(fields, [a, [] if constant else b, trigger if constant else []], 1,
                          models)
    golden = CmpI(pred, RHS_W) if unit == "cmpi" else BINARY_CLASSES["muli"](RHS_W)
    assert expected.outputs[0] == golden_streams(golden, [a, rhs])[0][0]
    inputs = {"in0": a, "in1": [] if constant else b, "in2": trigger if constant else []}
    return FabricCase({"pe_0_0": fields}, inputs, {"out0": expected.outputs[0]},
                      {"in0": n, "in1": 0 if constant else n, "in2": n if constant else 0})


def test_multiplier_and_compare_take_a_constant_operand():
    run_fabric("fu_rhs", RHS_ADG, cycling(RHS_MODES, _rhs_case), seed=3, tokens=100,
               episodes=2 * len(RHS_MODES))
