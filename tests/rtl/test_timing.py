"""The timing model and the II bound on hand-built DFGs whose bound is known
by hand (the latencies are those of the templates, read in their comments)."""

from fractions import Fraction


from loom.golden.run import find_func
from loom.ir import parse_module
from loom.rtl.netlist import build_netlist
from loom.rtl.timing import channel_graph, ii_bound, loop_bound, loop_bounds, unit_timing
from loom.rtl.catalog import CATALOG
from loom.rtl.units import FAMILIES, FLOAT_PIPELINED, unit_spec

# sum of i (or product) over 0..n-1: the accumulator is a carry whose next
# value is OP(carry's value, i); the loop condition comes from a stream.
RECURRENCE = """
handshake.func @acc(%n: i32, %start: none) -> (i32, none) {
  %0, %1, %2, %3 = handshake.fork [4] %start : none
  %c0 = handshake.constant %0 {value = 0 : i32} : i32
  %z0, %z1 = handshake.fork [2] %c0 : i32
  %c1 = handshake.constant %1 {value = 1 : i32} : i32
  %idx, %cont = dataflow.stream %z0, %c1, %n {step_op = "+=", cont_cond = "<"} : (i32, i32, i32) -> (i32, i1)
  %g, %d, %b = handshake.fork [3] %cont : i1
  %body, %after = dataflow.gate %idx, %g : i32, i1 -> i32, i1
  %acc = dataflow.carry %d, %z1, %next : i1, i32, i32 -> i32
  %t, %f = handshake.cond_br %b, %acc : i32
  %next = arith.OP %t, %body : i32
  handshake.return %f, %3 : i32, none
}
"""


def _netlist(text: str):
    module = parse_module("builtin.module {" + text + "}", "t.mlir")
    return build_netlist(find_func(module, None, "t.mlir"), "t.mlir")


def test_every_unit_family_has_a_timing_model():
    for family in FAMILIES:
        params = CATALOG[family][0] if family in CATALOG else dict(w=8)   # divrem
        timing = unit_timing(unit_spec(family, **params))
        assert timing.arcs or family in ("source", "sink"), family


def test_a_queue_acks_an_allocation_a_cycle_later_and_gives_data_after_its_path():
    # templates/lsq.sv.j2: ack_q registered; a load's address enters its entry
    # (1), the request slot (1), the latency-1 memory's response bypasses (1)
    timing = unit_timing(unit_spec("lsq", ld=1, st=1, shape=(4,), w=8, lq=2, sq=2,
                                   groups=((("ld", 0), ("st", 0)),)))
    arcs = {(a.src, a.dst): a for a in timing.arcs}
    ack = arcs[("alloc", 0), ("ack", 0)]
    assert (ack.latency, ack.valid_comb, ack.ready_comb) == (1, False, True)
    assert arcs[("ld_addr", 0), ("ld_data", 0)].latency == 3
    assert not any(a.src[0] == "st_data" for a in timing.arcs)   # collisions: data, not graph


def test_buffers_as_the_templates_build_them():
    tehb = unit_timing(unit_spec("tehb", w=8)).arcs[0]
    assert (tehb.latency, tehb.valid_comb, tehb.ready_comb) == (0, True, False)
    oehb = unit_timing(unit_spec("oehb", w=8)).arcs[0]
    assert (oehb.latency, oehb.valid_comb, oehb.ready_comb) == (1, False, True)
    fifo = unit_timing(unit_spec("fifo", slots=3, w=8)).arcs[0]
    assert (fifo.latency, fifo.valid_comb, fifo.ready_comb) == (1, False, False)
    mul = unit_timing(unit_spec("muli", w=8, latency=3)).arcs[0]
    assert (mul.latency, mul.valid_comb, mul.ready_comb) == (3, False, True)
    for op in ("divsi", "divui", "remsi", "remui"):   # its stages
        div = unit_timing(unit_spec(op, w=32, latency=5))
        assert {(a.latency, a.valid_comb, a.ready_comb) for a in div.arcs} == {(5, False, True)}
        assert div.holds == {("result", None)}
    for op in FLOAT_PIPELINED:   # pipeline_macros: the same shell as muli's
        for params in CATALOG[op]:
            spec = unit_spec(op, **params)
            lat = spec.params["latency"]
            arcs = {(a.latency, a.valid_comb, a.ready_comb) for a in unit_timing(spec).arcs}
            assert arcs == {(lat, lat == 0, True)}, spec.module


def test_carry_tokens_are_on_its_loop_ports():
    arcs = {a.src[0]: a for a in unit_timing(unit_spec("carry", w=8)).arcs}
    assert (arcs["a"].tokens, arcs["a"].entry) == (0, True)
    assert arcs["b"].tokens == arcs["d"].tokens == 1
    assert not arcs["d"].ready_comb     # d is taken in NeedCond, whatever o does


def test_add_recurrence_is_bound_by_one_register():
    # carry -> cond_br -> addi -> carry.b: no unit with latency, one token;
    # the cycle needs one register (design.md section 5): II 1
    value, cycle = ii_bound(_netlist(RECURRENCE.replace("OP", "addi")))
    assert value == 1
    assert {"acc", "t", "next"} <= set(cycle)


def test_multiply_in_the_recurrence_bounds_it_by_its_latency():
    net = _netlist(RECURRENCE.replace("OP", "muli"))
    latency = next(i.spec.params["latency"] for i in net.instances if i.spec.family == "muli")
    value, cycle = ii_bound(net)
    assert value == Fraction(latency) and "next" in cycle


# the float sum of sitofp(i): the accumulator's recurrence runs through addf
FLOAT_SUM = RECURRENCE.replace("-> (i32, none)", "-> (f32, none)").replace(
    "%c0 = handshake.constant %0 {value = 0 : i32} : i32\n  %z0, %z1 = handshake.fork [2] %c0 : i32",
    "%c0 = handshake.constant %0 {value = 0 : i32} : i32\n  %z0 = handshake.fork [1] %c0 : i32\n"
    "  %z1 = handshake.constant %3 {value = 0.0 : f32} : f32").replace(
    "%acc = dataflow.carry %d, %z1, %next : i1, i32, i32 -> i32",
    "%acc = dataflow.carry %d, %z1, %next : i1, f32, f32 -> f32").replace(
    "%t, %f = handshake.cond_br %b, %acc : i32",
    "%t, %f = handshake.cond_br %b, %acc : f32").replace(
    "%next = arith.OP %t, %body : i32",
    "%bf = arith.sitofp %body : i32 to f32\n  %next = arith.addf %t, %bf : f32").replace(
    "handshake.return %f, %3 : i32, none", "handshake.return %f, %3 : f32, none")


def test_a_float_add_in_the_recurrence_bounds_it_by_its_latency():
    net = _netlist(FLOAT_SUM)
    latency = next(i.spec.params["latency"] for i in net.instances if i.spec.family == "addf")
    assert latency == 6   # binary32's default (units.FLOAT_LATENCY)
    value, cycle = ii_bound(net)
    assert value == Fraction(latency) and "next" in cycle


def test_an_outer_cycle_through_a_loop_entry_is_not_a_recurrence():
    # the stream's operands and the carry's initial value enter the loop once
    # per activation: no loop holds the constants
    bounds = loop_bounds(_netlist(RECURRENCE.replace("OP", "addi")))
    names = {n for b in bounds for n in b.cycle}
    assert not names & {"c0", "z0", "z1", "n"}


def test_channel_graph_follows_units_lane_by_lane():
    net = _netlist(RECURRENCE.replace("OP", "addi"))
    g = channel_graph(net)
    by_name = {ch.index: (ch.copy_of or ch).name for ch in net.channels}
    pairs = {(by_name[e.src], by_name[e.dst]) for e in g.edges}
    assert ("next", "acc") in pairs and ("acc", "t") in pairs and ("t", "next") in pairs
    assert ("z1", "acc") in pairs            # the initial value: an entry
    assert ("next", "t") not in pairs and ("body", "t") not in pairs


def test_the_pipelined_bridge_as_its_template_builds_it():
    # templates/extmemory.sv.j2: done the cycle after acceptance, data two
    # cycles after (request slot, storage, bypass); a load's credit freed by
    # its data taken is reused in that cycle, so every input's ready follows
    # every load data ready: ready-only arcs, no token flows along them
    spec = unit_spec("extmemory", ld=2, st=1, shape=(8,), w=32, aw=64)
    arcs = unit_timing(spec).arcs
    flow = {(a.src, a.dst): a for a in arcs if a.flow}
    assert flow[("ld_addr", 0), ("ld_data", 0)].latency == 2
    assert flow[("ld_addr", 1), ("ld_done", 1)].latency == 1
    assert flow[("st_addr", 0), ("st_done", 0)].latency == 1
    assert not any(a.ready_comb for a in flow.values())
    ready = {(a.src, a.dst) for a in arcs if not a.flow}
    inputs = [("st_data", 0), ("st_addr", 0), ("ld_addr", 0), ("ld_addr", 1)]
    assert ready == {(i, ("ld_data", j)) for i in inputs for j in range(2)}
    assert all(a.ready_comb and not a.valid_comb for a in arcs if not a.flow)



# two loops side by side: `m` multiplies its accumulator, `a` adds to it
TWO_LOOPS = """
handshake.func @two(%n: i32, %start: none) -> (i32, i32, none) {
  %s0, %s1, %s2, %s3, %s4 = handshake.fork [5] %start : none
  %n_m, %n_a = handshake.fork [2] %n : i32
  %c0_m = handshake.constant %s0 {value = 1 : i32} : i32
  %z0_m, %z1_m = handshake.fork [2] %c0_m : i32
  %c1_m = handshake.constant %s1 {value = 1 : i32} : i32
  %idx_m, %cont_m = dataflow.stream %z0_m, %c1_m, %n_m {step_op = "+=", cont_cond = "<"} : (i32, i32, i32) -> (i32, i1)
  %g_m, %d_m, %b_m = handshake.fork [3] %cont_m : i1
  %body_m, %after_m = dataflow.gate %idx_m, %g_m : i32, i1 -> i32, i1
  %acc_m = dataflow.carry %d_m, %z1_m, %next_m : i1, i32, i32 -> i32
  %t_m, %f_m = handshake.cond_br %b_m, %acc_m : i32
  %next_m = arith.muli %t_m, %body_m : i32
  %c0_a = handshake.constant %s2 {value = 0 : i32} : i32
  %z0_a, %z1_a = handshake.fork [2] %c0_a : i32
  %c1_a = handshake.constant %s3 {value = 1 : i32} : i32
  %idx_a, %cont_a = dataflow.stream %z0_a, %c1_a, %n_a {step_op = "+=", cont_cond = "<"} : (i32, i32, i32) -> (i32, i1)
  %g_a, %d_a, %b_a = handshake.fork [3] %cont_a : i1
  %body_a, %after_a = dataflow.gate %idx_a, %g_a : i32, i1 -> i32, i1
  %acc_a = dataflow.carry %d_a, %z1_a, %next_a : i1, i32, i32 -> i32
  %t_a, %f_a = handshake.cond_br %b_a, %acc_a : i32
  %next_a = arith.addi %t_a, %body_a : i32
  handshake.return %f_m, %f_a, %s4 : i32, i32, none
}
"""

def test_a_loops_bound_is_that_of_the_recurrences_its_condition_decides():
    # ii_bound is the largest over the loops; a per-iteration count of one
    # loop compares with that loop's bound only (cont_*: each loop's
    # raw_will_continue, which the stream drives and the carry takes as d)
    net = _netlist(TWO_LOOPS)
    latency = next(i.spec.params["latency"] for i in net.instances if i.spec.family == "muli")
    assert ii_bound(net)[0] == Fraction(latency) > 1
    assert loop_bound(net, "cont_m") == Fraction(latency)
    assert loop_bound(net, "cont_a") == 1
    assert loop_bound(net, "n_a") == 0
