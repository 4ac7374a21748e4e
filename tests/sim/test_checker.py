"""The checker works: deliberately broken units and a broken lowering are caught
with the right first divergence or leftover report."""

import re
from dataclasses import replace

from loom.cli import main
from loom.ir import load_module, print_module
from loom.lowering.mutations import wire_body_invariant_to_raw
from loom.lowering.pipeline import lower_module
from loom.sim.flow import run_seed, setup
from loom.sim import profiles

from sim_inputs import SIM_ROOT, kernel_inputs

HARSH = profiles.for_seed(3)


def _mutate_unit(family_prefix: str, old: str, new: str):
    """A hook that rewrites one line in every unit file whose module starts with the prefix."""
    def mutate(rtl) -> None:
        hits = 0
        for path in rtl.unit_files:
            if path.stem.startswith(family_prefix):
                text = path.read_text()
                assert old in text, f"{old!r} not in {path.name}"
                path.write_text(text.replace(old, new))
                hits += 1
        assert hits, f"no unit {family_prefix}*"
    return mutate


def _fixed_rules(monkeypatch) -> None:
    """Buffers by the fixed rules (rtl/netlist.py), for the tests that take
    the rules' liveness slots away."""
    import loom.rtl.buffer_placement as placement

    monkeypatch.setattr(placement, "place", lambda net: None)


def test_gate_emitting_a_value_on_the_terminating_false_is_caught(compiled):
    # a gate that also forwards the N+1-th (terminating) value: an off-by-one
    # stream; under the solver's placement the eager fork behind the cast
    # passes the extra index on to the store's slack FIFO while the loads
    # never take it, so it is seen there first: the blame follows it up
    mutate = _mutate_unit("loom_gate_", "assign emit = {need_next_q, before_cond_data};",
                          "assign emit = {need_next_q, before_cond_data | need_next_q};")
    s = setup(kernel_inputs(compiled("vecadd"), SIM_ROOT / "broken_gate"), None, mutate=mutate)
    result = run_seed(s, profiles.mild())
    assert not result.passed
    first = result.problems[0]
    assert first.startswith("first divergence on channel 'for0_body_index'"), first
    assert re.search(r"from dataflow\.gate 'gate0' at \S*kernels/vecadd\.c:5:", first), first
    assert "token 256: expected nothing, got " in first and " 256 " in first
    # the summaries differed, so the run was repeated recording every transfer
    assert result.report["repeated_for_trace"] and result.report["trace"] == "every channel"


def test_fork_that_duplicates_under_backpressure_is_caught(compiled):
    # a fork that forgets which outputs it already served re-offers their copy
    mutate = _mutate_unit("loom_fork_", "done_q <= served & {", "done_q <= '0 & {")
    s = setup(kernel_inputs(compiled("vecadd"), SIM_ROOT / "broken_fork"), None, mutate=mutate)
    result = run_seed(s, HARSH)
    assert not result.passed
    first = result.problems[0]
    assert re.match(r"first divergence on channel '\w+' \(from handshake\.fork 'fork\d+'", first) \
        or "first divergence on channel 'fork" in first, first


def test_body_control_on_raw_will_continue_is_a_leftover(compiled, tmp_path, capsys):
    """Seed 000/002's classic bug, wired into the DFG: loom sim refuses it with the
    golden model's leftover report (the invariant replays one extra time)."""
    arts = compiled("axpy")
    module, lowered = lower_module(load_module(arts.scf_mlir), arts.top, 64, str(arts.scf_mlir))
    wire_body_invariant_to_raw(lowered.func, lowered.record)
    dfg = tmp_path / "axpy.dfg.mlir"
    dfg.write_text(print_module(module))
    (tmp_path / "axpy.bundle.json").write_text(arts.bundle_path.read_text())
    status = main(["sim", str(dfg), "-o", str(tmp_path)])
    out = capsys.readouterr().out
    assert status == 1
    assert "the golden model itself fails" in out
    assert "leftover: channel" in out and "dataflow.invariant" in out


def test_deadlock_names_stuck_channels_and_busy_state_machines(compiled, monkeypatch):
    """Without the slots on fork, carry and invariant outputs (fixed rules 2
    and 3), countdown's while loop needs a token to wait where there is no
    room: the watchdog fires and the report says where."""
    import loom.rtl.netlist as netlist

    _fixed_rules(monkeypatch)
    monkeypatch.setattr(netlist, "_buffer_fork_outputs", lambda net: None)
    monkeypatch.setattr(netlist, "_buffer_lead_outputs", lambda net: None)
    s = setup(kernel_inputs(compiled("countdown"), SIM_ROOT / "no_slots"), None)
    result = run_seed(s, replace(profiles.mild(), watchdog=2000))
    assert not result.passed and result.report["sim_status"] == "deadlock"
    text = "\n".join(result.problems)
    assert "stuck at valid && !ready: '" in text
    assert re.search(r"state machines not idle: dataflow\.\w+ '\w+' at \S*kernels/countdown\.c:\d+",
                     text), text


def test_carry_and_invariant_outputs_need_their_slot(compiled, monkeypatch):
    """Rule 2 of the fixed buffer rules (rtl/netlist.py): without a slot for the
    initial value a carry or invariant emits ahead of its condition, issue 10's
    decrementing while loop deadlocks although the golden model finishes.
    (The solver's placement without its lead slots: the test above.)"""
    import loom.rtl.netlist as netlist

    _fixed_rules(monkeypatch)
    monkeypatch.setattr(netlist, "_buffer_lead_outputs", lambda net: None)
    s = setup(kernel_inputs(compiled("countdown_replay"), SIM_ROOT / "no_lead_slots"), None)
    result = run_seed(s, replace(profiles.mild(), watchdog=2000))
    assert not result.passed and result.report["sim_status"] == "deadlock"


def test_a_unit_that_does_not_build_is_a_one_line_failure(compiled):
    from loom.diagnostics import ToolFailure

    def break_syntax(rtl) -> None:
        rtl.unit_files[0].write_text(rtl.unit_files[0].read_text() + "\nthis is not verilog\n")

    try:
        setup(kernel_inputs(compiled("sum_n"), SIM_ROOT / "broken_build"), None, mutate=break_syntax)
    except ToolFailure as exc:
        assert exc.exit_status == 1
        line = exc.format()
        assert "the Verilator build of tb_sum_n failed" in line and "build.log" in line
        assert "\n" not in line
    else:
        raise AssertionError("a unit with a syntax error built")
