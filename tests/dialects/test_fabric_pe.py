"""function_unit, fabric.mux, spatial_pe and temporal_pe against LOOM's rules
(FabricOps.cpp) and seed 001's: a unit holding a dataflow op holds exactly
that op, with latency = -1 and interval = -1."""

from __future__ import annotations

import pytest

from loom.dialects.fabric_pe import FunctionUnitOp


def fu(body: str, sig: str = "(%a: i32, %b: i32) -> (i32)", timing: str = "[latency = 1, interval = 1]") -> str:
    return f"""module {{
  fabric.function_unit @fu{sig}
      {timing} {{
{body}
  }}
}}"""


ADD = "    %0 = arith.addi %a, %b : i32\n    fabric.yield %0 : i32"
CARRY = ("    %0 = dataflow.carry %c, %a, %b : i1, i32, i32 -> i32\n"
         "    fabric.yield %0 : i32")
CARRY_SIG = "(%c: i1, %a: i32, %b: i32) -> (i32)"
DF = "[latency = -1, interval = -1]"


def test_function_unit_round_trips_with_timing(checked):
    module = checked(fu(ADD))
    op = next(iter(module.ops))
    assert isinstance(op, FunctionUnitOp) and (op.latency, op.interval) == (1, 1)


@pytest.mark.parametrize(("body", "sig"), [
    (CARRY, CARRY_SIG),
    ("    %0 = dataflow.invariant %c, %a : i1, i32 -> i32\n    fabric.yield %0 : i32",
     "(%c: i1, %a: i32) -> (i32)"),
    ("    %0, %1 = dataflow.gate %a, %c : i32, i1 -> i32, i1\n    fabric.yield %0, %1 : i32, i1",
     "(%c: i1, %a: i32) -> (i32, i1)"),
])
def test_seed001_dataflow_unit_at_minus_one(checked, body, sig):
    checked(fu(body, sig, DF))


@pytest.mark.parametrize(("body", "sig"), [
    ("    %0 = arith.minnumf %a, %b : f32\n    fabric.yield %0 : f32",
     "(%a: f32, %b: f32) -> (f32)"),
    ("    %0 = arith.maxnumf %a, %b : f64\n    fabric.yield %0 : f64",
     "(%a: f64, %b: f64) -> (f64)"),
    ("    %0 = arith.extf %a : f32 to f64\n    fabric.yield %0 : f64", "(%a: f32) -> (f64)"),
    ("    %0 = arith.truncf %a : f64 to f32\n    fabric.yield %0 : f32", "(%a: f64) -> (f32)"),
])
def test_float_ops_beyond_loom_allowlist(checked, body, sig):
    # fminf/fmaxf and float <-> double: not in LOOM's list (spec-fabric-
    # function_unit-ops.md), allowed here (docs/fabric/function_unit.md)
    checked(fu(body, sig))


@pytest.mark.parametrize(("text", "message"), [
    (fu(CARRY, CARRY_SIG), "function_unit containing dataflow.carry must use latency = -1 "
     "and interval = -1"),
    (fu("    %0 = dataflow.carry %c, %a, %b : i1, i32, i32 -> i32\n"
        "    %1 = arith.addi %0, %a : i32\n    fabric.yield %1 : i32", CARRY_SIG, DF),
     "function_unit containing dataflow.carry must contain exactly one non-terminator "
     "dataflow operation and no other body ops"),
    (fu(ADD, timing=DF), "latency = -1 and interval = -1 are reserved for dedicated "
     "dataflow function_units"),
    (fu(ADD, timing="[latency = -2, interval = 1]"), "latency must be -1 or at least 0"),
    (fu(ADD, timing="[latency = 1, interval = 0]"), "interval must be -1 or at least 1"),
    (fu(ADD, timing="[latency = 1]"), "must specify both latency and interval"),
    (fu("    %0 = arith.addi %a, %a : i32\n    fabric.yield %0 : i32"),
     "all function_unit arguments must be consumed by the body"),
    (fu("    %0 = arith.addi %a, %b : i32\n    fabric.yield %a : i32"),
     "passthrough function_unit is illegal"),
    (fu("    %0 = arith.addi %a, %b : i32\n    fabric.yield"),
     "yield operand count mismatch with function_unit results"),
    (fu("    %c = arith.constant 1 : i32\n    %0 = arith.addi %a, %c : i32\n"
        "    %1 = arith.addi %0, %b : i32\n    fabric.yield %1 : i32"),
     "operation 'arith.constant' is not allowed inside fabric.function_unit"),
    (fu(ADD, "(%a: i32, %b: i32) -> (!fabric.bits<32>)"),
     "function_unit results must use native semantic types, but got '!fabric.bits<32>'"),
    (fu("    %0 = handshake.join " + ", ".join(f"%a{i}" for i in range(65)) + " : "
        + ", ".join(["none"] * 65) + "\n    fabric.yield %0 : none",
        "(" + ", ".join(f"%a{i}: none" for i in range(65)) + ") -> (none)"),
     "handshake.join inside fabric.function_unit supports at most 64 inputs"),
])
def test_function_unit_rules(error, text, message):
    err = error(text)
    assert message in err.message
    assert err.loc is not None and err.loc.line == 2  # at the function_unit


MAC = """module {
  fabric.function_unit @fu_mac(%a: i32, %b: i32, %c: i32) -> (i32) [latency = 1, interval = 1] {
    %d = arith.muli %a, %b : i32
    %e = arith.addi %d, %c : i32
    %g = fabric.mux %d, %e {sel = SEL : i64, discard = false, disconnect = DISC} : i32, i32 -> i32
    fabric.yield %g : i32
  }
}"""


def test_mux_selects_within_its_fanin(checked, error):
    checked(MAC.replace("SEL", "1").replace("DISC", "false"))
    checked(MAC.replace("SEL", "5").replace("DISC", "true"))  # disconnected: sel unused
    assert "sel out of range for 2-way mux" in error(
        MAC.replace("SEL", "2").replace("DISC", "false")).message


@pytest.mark.parametrize(("mux", "message"), [
    ("%g = fabric.mux %d {sel = 0 : i64, discard = true} : i32 -> i32",
     "1:1 mux cannot set discard or disconnect"),
    ("%g, %h = fabric.mux %d, %e {sel = 0 : i64} : i32, i32 -> i32, i32",
     "must be either M:1 or 1:M, not M:N"),
])
def test_mux_shape(error, mux, message):
    text = MAC.replace(
        "%g = fabric.mux %d, %e {sel = SEL : i64, discard = false, disconnect = DISC} : "
        "i32, i32 -> i32", mux)
    assert message in error(text).message


def test_mux_only_inside_a_function_unit(error):
    text = """module {
  fabric.module @m(%a: i32, %b: i32) -> (i32) {
    %g = fabric.mux %a, %b {sel = 0 : i64} : i32, i32 -> i32
    fabric.yield %g : i32
  }
}"""
    assert "must appear directly inside fabric.function_unit" in error(text).message


PE = """module {
  fabric.spatial_pe @pe(%p0: !fabric.bits<64>, %p1: !fabric.bits<64>) -> (!fabric.bits<64>) {
    fabric.function_unit @fu_add(%a: i32, %b: i32) -> (i32) [latency = 1, interval = 1] {
      %0 = arith.addi %a, %b : i32
      fabric.yield %0 : i32
    }
    fabric.function_unit @fu_sub(%a: i32, %b: i32) -> (i32) [latency = 1, interval = 1] {
      %0 = arith.subi %a, %b : i32
      fabric.yield %0 : i32
    }
    fabric.yield
  }
  fabric.function_unit @fu_mul(%a: i32, %b: i32) -> (i32) [latency = 1, interval = 1] {
    %0 = arith.muli %a, %b : i32
    fabric.yield %0 : i32
  }
  fabric.module @m(%x: !fabric.bits<64>, %y: !fabric.bits<64>) -> (!fabric.bits<64>) {
    %o = fabric.instance @pe(%x, %y) {sym_name = "pe_0_0"} : (!fabric.bits<64>, !fabric.bits<64>) -> (!fabric.bits<64>)
    %i:1 = fabric.spatial_pe @pe_inline inputs(%o, %y) : (!fabric.bits<64>, !fabric.bits<64>) -> (!fabric.bits<64>) {
      fabric.instance @fu_mul() {sym_name = "fu_mul_0"} : () -> ()
      fabric.yield
    }
    fabric.yield %i#0 : !fabric.bits<64>
  }
}"""


def test_spatial_pe_definition_instance_and_inline_form(checked):
    module = checked(PE)
    pe = next(iter(module.ops))
    assert [op.attributes["sym_name"].data for op in pe.regions[0].block.ops
            if op.name == "fabric.function_unit"] == ["fu_add", "fu_sub"]  # opcode order


def test_pe_instance_sees_only_enclosing_scopes(error):
    text = PE.replace("@fu_mul() {", "@fu_sub() {")  # @fu_sub lives inside @pe only
    assert "instance target 'fu_sub' cannot be resolved from the current host scope" in (
        error(text).message)


def test_duplicate_function_unit_names_in_a_pe(error):
    err = error(PE.replace("@fu_sub", "@fu_add"))
    assert "duplicate definition name 'fu_add' in the same host scope" in err.message
    assert err.loc is not None and err.loc.line == 7


def test_pe_instance_must_target_a_function_unit(error):
    text = PE.replace('fabric.instance @fu_mul() {sym_name = "fu_mul_0"}',
                      'fabric.instance @pe() {sym_name = "fu_mul_0"}')
    assert ("instances inside fabric.spatial_pe must target fabric.function_unit"
            in error(text).message)


TPE = """module {
  fabric.temporal_pe @tpe(%a: !fabric.tagged<!fabric.bits<32>, i1>) -> (!fabric.tagged<!fabric.bits<32>, i1>)
      [num_register = REG, num_instruction = 2, reg_fifo_depth = DEPTH] {
    fabric.function_unit @fu(%x: i32) -> (i32) [latency = 1, interval = 1] {
      %0 = arith.addi %x, %x : i32
      fabric.yield %0 : i32
    }
    fabric.yield
  }
}"""


def test_temporal_pe_parses_and_checks_its_registers(checked, error):
    checked(TPE.replace("REG", "0").replace("DEPTH", "0"))
    checked(TPE.replace("REG", "2").replace("DEPTH", "1"))
    assert "reg_fifo_depth must be 0 when num_register is 0" in error(
        TPE.replace("REG", "0").replace("DEPTH", "1")).message
    assert "reg_fifo_depth must be at least 1 when num_register is greater than 0" in error(
        TPE.replace("REG", "2").replace("DEPTH", "0")).message
