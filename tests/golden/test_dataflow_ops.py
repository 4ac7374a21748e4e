"""The four dataflow state machines on seed 001's examples, literally."""

import pytest

from loom.golden.actor import drive_actor, run_actor
from loom.golden.channel import Channel
from loom.golden.ops.carry import Carry
from loom.golden.ops.gate import Gate
from loom.golden.ops.invariant import Invariant
from loom.golden.ops.stream import CONT_CONDS, STEP_OPS, Stream
from loom.golden.values import wrap

T, F = 1, 0


def test_stream_seed_example():
    # seed 001: start=0 step=1 bound=4, +=, <  ->  idx [0..4], cont [T,T,T,T,F]
    idx, cont = run_actor(Stream("+=", "<"), [[0], [1], [4]])
    assert idx == [0, 1, 2, 3, 4]
    assert cont == [T, T, T, T, F]


def test_stream_returns_to_activation_and_runs_a_second_burst():
    s = Stream("+=", "<")
    idx, cont = run_actor(s, [[0, 10], [1, 2], [2, 13]])
    assert idx == [0, 1, 2, 10, 12, 14]
    assert cont == [T, T, F, T, T, F]
    assert s.idle()


def test_stream_zero_trip_emits_one_false():
    idx, cont = run_actor(Stream("+=", "<"), [[5], [1], [5]])
    assert (idx, cont) == ([5], [F])


def _python_loop(start, step, bound, step_op, cont_cond):
    """The C loop `for (i = start; i COND bound; i STEP step)` in plain Python."""
    cond = {"<": lambda i: i < bound, "<=": lambda i: i <= bound, ">": lambda i: i > bound,
            ">=": lambda i: i >= bound, "!=": lambda i: i != bound}[cont_cond]
    upd = {"+=": lambda i: i + step, "-=": lambda i: i - step, "*=": lambda i: i * step,
           "/=": lambda i: int(i / step), "<<=": lambda i: i << step,
           ">>=": lambda i: i >> step}[step_op]
    body, i = [], start
    while cond(i):
        body.append(i)
        i = upd(i)
    return body, i


@pytest.mark.parametrize("step_op,cont_cond,start,step,bound", [
    ("+=", "<", 0, 3, 10), ("+=", "<=", 0, 3, 9), ("+=", "!=", 0, 2, 8),
    ("-=", ">", 10, 3, 0), ("-=", ">=", 10, 2, 0), ("-=", "!=", 9, 3, 0),
    ("*=", "<", 1, 2, 100), ("*=", "<=", 1, 3, 81), ("/=", ">", 1000, 3, 0),
    ("/=", ">=", 64, 2, 1), ("<<=", "<", 1, 1, 1000), ("<<=", "!=", 1, 2, 256),
    (">>=", ">", 1024, 1, 0), (">>=", ">=", 4096, 2, 1), ("-=", ">", -2, 5, -30),
])
def test_stream_every_step_op_and_cont_cond(step_op, cont_cond, start, step, bound):
    body, last = _python_loop(start, step, bound, step_op, cont_cond)
    idx, cont = run_actor(Stream(step_op, cont_cond), [[wrap(start, 64)], [wrap(step, 64)],
                                                       [wrap(bound, 64)]])
    assert idx == [wrap(v, 64) for v in body + [last]]  # N + 1 elements
    assert cont == [T] * len(body) + [F]


def test_all_step_ops_and_cont_conds_covered():
    assert set(STEP_OPS) == {"+=", "-=", "*=", "/=", "<<=", ">>="}
    assert set(CONT_CONDS) == {"<", "<=", ">", ">=", "!="}
    with pytest.raises(ValueError):
        Stream("%=", "<")
    with pytest.raises(ValueError):
        Stream("+=", "==")


def test_gate_seed_example():
    after_value, after_cond = run_actor(Gate(), [[0, 1, 2, 3, 4], [T, T, T, T, F]])
    assert after_value == [0, 1, 2, 3]
    assert after_cond == [T, T, T, F]


def test_gate_lone_false_emits_nothing_and_second_burst():
    g = Gate()
    # a zero-trip burst, then a two-iteration burst
    after_value, after_cond = run_actor(g, [[7, 0, 1, 2], [F, T, T, F]])
    assert after_value == [0, 1]
    assert after_cond == [T, F]
    assert g.idle()


def _step(actor, ins, n_out):
    """Fire once; return what each output got."""
    outs = [Channel() for _ in range(n_out)]
    assert actor.fire(ins, outs)
    return [o.trace for o in outs]


def test_carry_state_sequence_and_reset():
    c = Carry()
    d, a, b = Channel("d"), Channel("a"), Channel("b")
    assert c.phase() == "NeedInit"
    a.q.extend([10, 20])
    assert _step(c, [d, a, b], 1) == [[10]] and c.phase() == "NeedCond"
    assert not c.fire([d, a, b], [Channel()])  # waits for d, ignores the second init
    d.q.append(T)
    assert _step(c, [d, a, b], 1) == [[]] and c.phase() == "NeedLoop"
    b.q.append(11)
    assert _step(c, [d, a, b], 1) == [[11]] and c.phase() == "NeedCond"
    d.q.append(F)
    assert _step(c, [d, a, b], 1) == [[]] and c.phase() == "NeedInit"
    # second burst starts from the second init value
    assert _step(c, [d, a, b], 1) == [[20]] and c.phase() == "NeedCond"


def test_carry_streams_n_plus_one():
    (o,) = run_actor(Carry(), [[T, T, T, F, F], [100, 200], [1, 2, 3]])
    assert o == [100, 1, 2, 3, 200]


def test_invariant_state_sequence_and_reset():
    inv = Invariant()
    (o,) = run_actor(inv, [[T, T, F, T, F], [5, 9]])
    # burst 1: emit once, replay twice, reset; burst 2: emit once, replay once, reset
    assert o == [5, 5, 5, 9, 9]
    assert inv.idle() and inv.phase() == "NeedInit"


def test_stream_gate_carry_chain_sums_the_index():
    """stream -> gate -> carry: sum of 0..N-1 with N + 1 carry outputs."""
    n = 6
    idx, raw = run_actor(Stream("+=", "<"), [[0], [1], [n]])
    body_idx, after_cond = run_actor(Gate(), [idx, raw])
    assert len(raw) == n + 1 and len(body_idx) == n and len(after_cond) == n
    # feedback computed from the carry's own output: iterate to a fixed point
    feedback: list[int] = []
    for _ in range(n + 1):
        (carried,) = run_actor(Carry(), [raw, [0], feedback])
        feedback = [c + i for c, i in zip(carried, body_idx)]
    assert len(carried) == n + 1
    assert carried[-1] == sum(range(n))


def test_gate_waits_for_a_value_for_each_condition():
    # seed 001: a gate consumes one value and one condition a firing; more
    # conditions than values leave the extra conditions untaken
    outs, consumed = drive_actor(Gate(), [[5], [T, T, F]])
    assert outs == [[5], []] and consumed == [1, 1]


def test_a_stream_waits_for_its_missing_operands_only_between_activations():
    # seed 001: phase A latches start, step and bound (all three needed);
    # phase B emits from its state and waits for no operand
    s, ins = Stream("+=", "<"), [Channel(f"in{i}") for i in range(3)]
    ins[0].q.append(0)
    ins[2].q.append(4)
    assert s.waiting_on(ins) == [1]
    s.active = True
    assert s.waiting_on(ins) == []


def test_a_carry_waits_for_the_input_of_its_state():
    # seed 001: NeedInit takes the initial value (input 1), NeedCond the
    # condition (input 0), NeedLoop the loop value (input 2)
    c, ins = Carry(), [Channel(f"in{i}") for i in range(3)]
    assert c.waiting_on(ins) == [1]
    c.state = "NeedCond"
    assert c.waiting_on(ins) == [0]
    c.state = "NeedLoop"
    assert c.waiting_on(ins) == [2]
