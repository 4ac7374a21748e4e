"""The function-unit helpers: each one, inside a PE, passes our fabric dialect's
verifier (LOOM's body and timing rules); bad parameters are refused."""

from __future__ import annotations

import pytest

from loom.diagnostics import LoomError
from loom.fabric import function_units as fu
from loom.fabric.builder import AdgBuilder, PortRef, bits

UNITS = [
    fu.binary("u_add", "arith.addi", "i64"),
    fu.binary("u_divsi", "arith.divsi", "i32"),
    fu.unary("u_negf", "arith.negf", "f32"),
    fu.cmpi("u_cmpi", "i64", "ult"),
    fu.select("u_select", "i64"),
    fu.constant("u_const", "i64", 7),
    fu.index_cast("u_to_index", "i64"),
    fu.cast("u_extsi", "arith.extsi", "i8", "i64"),
    fu.cast("u_extui", "arith.extui", "i1", "i32"),
    fu.cast("u_trunci", "arith.trunci", "i64", "i16"),
    fu.join("u_join", 3),
    fu.load("u_load", "index", "i32"),
    fu.store("u_store", "index", "i32"),
    fu.mux("u_mux", "i64"),
    fu.cond_br("u_cond_br", "none"),
    fu.stream("u_stream"),
    fu.gate("u_gate", "i32"),
    fu.carry("u_carry", "i64"),
    fu.invariant("u_invariant", "i1"),
    fu.raw("u_mac", ["i32", "i32", "i32"], ["i32"],
           "%m = arith.muli %arg0, %arg1 : i32\n%s = arith.addi %m, %arg2 : i32\n"
           "fabric.yield %s : i32", latency=2),
]


def _one_pe(units) -> AdgBuilder:
    b = AdgBuilder("units")
    pe = b.define_pe("pe", 4, 2, 64, units)
    b.instance(pe, "pe_0")
    for k in range(4):
        b.connect(b.add_input(f"i{k}", bits(64)), PortRef("pe_0", k))
    for k in range(2):
        b.connect(PortRef("pe_0", k), b.add_output(f"o{k}", bits(64)))
    return b


def test_every_helper_verifies_in_a_pe():
    module = _one_pe(UNITS).build()
    fus = [op for op in module.walk() if op.name == "fabric.function_unit"]
    assert [f.attributes["sym_name"].data for f in fus] == [u.name for u in UNITS]


@pytest.mark.parametrize("unit", [fu.stream("s"), fu.gate("g", "i32"), fu.carry("c", "i32"),
                                  fu.invariant("v", "i32")], ids=lambda u: u.name)
def test_dataflow_units_are_minus_one(unit):
    # seed 001: a dataflow unit holds that one op at latency = interval = -1
    assert (unit.latency, unit.interval) == (-1, -1)
    assert len(unit.body) == 2


def test_default_timing_is_one():
    assert (UNITS[0].latency, UNITS[0].interval) == (1, 1)


def test_the_dialect_checks_what_helpers_do_not():
    # A dataflow op with ordinary timing is LOOM's timing error, found when the ADG is verified.
    bad = fu.raw("bad_gate", ["i32", "i1"], ["i32", "i1"],
                 "%0, %1 = dataflow.gate %arg0, %arg1 : i32, i1 -> i32, i1\n"
                 "fabric.yield %0, %1 : i32, i1")
    with pytest.raises(LoomError) as info:
        _one_pe([bad]).build()
    assert "function_unit containing dataflow.gate must use latency = -1" in info.value.message


@pytest.mark.parametrize(("make", "message"), [
    (lambda: fu.join("j", 0), "fan-in 0 is outside 1..64"),
    (lambda: fu.join("j", 65), "fan-in 65 is outside 1..64"),
    (lambda: fu.cmpi("c", "i32", "lt"), "unknown predicate 'lt'"),
    (lambda: fu.raw("r", ["i32"], ["i32"], "%0 = arith.addi %arg0, %arg0 : i32"),
     "must end with fabric.yield"),
])
def test_bad_parameters(make, message):
    with pytest.raises(LoomError) as info:
        make()
    assert message in info.value.message
