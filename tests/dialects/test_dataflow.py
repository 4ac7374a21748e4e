"""The dataflow dialect against seed 001: its syntax examples, value sets and types."""

from __future__ import annotations

import pytest
from xdsl.dialects.builtin import IndexType, i1

from loom.dialects.dataflow import (
    CONT_CONDS,
    STEP_OPS,
    CarryOp,
    GateOp,
    InvariantOp,
    StreamOp,
)

# Seed 001's syntax blocks, verbatim (line breaks included).
SEED_STREAM = """%idx, %cont = dataflow.stream %start, %step, %bound
    {step_op = "+=", cont_cond = "<"}
    : (index, index, index) -> (index, i1)"""
SEED_GATE = """%after_value, %after_cond = dataflow.gate %before_value, %before_cond
    : T, i1 -> T, i1"""
SEED_CARRY = "%o = dataflow.carry %d, %a, %b : i1, T, T -> T"
SEED_INVARIANT = "%o = dataflow.invariant %d, %a : i1, T -> T"

# T of seed 001: any native type, none, or an explicit channel/control.
T_CHOICES = [
    "i32",
    "index",
    "i1",
    "f32",
    "none",
    "!handshake.control",
    "!handshake.channel<i16>",
    "!handshake.channel<i32, [tag: i2, (U) i1]>",
]


def stream_func(body: str, ty: str = "index") -> str:
    return f"""handshake.func @f(%start: {ty}, %step: {ty}, %bound: {ty}) -> ({ty}, i1) {{
  {body}
  handshake.return %idx, %cont : {ty}, i1
}}"""


def test_seed_stream_example(checked, body_ops):
    op = body_ops(checked(stream_func(SEED_STREAM)))[0]
    assert isinstance(op, StreamOp)
    assert op.properties["step_op"].data == "+="
    assert op.properties["cont_cond"].data == "<"
    assert [a.name_hint for a in op.operands] == ["start", "step", "bound"]
    assert op.result_types == (IndexType(), i1)


@pytest.mark.parametrize("t", T_CHOICES)
def test_seed_gate_example(checked, body_ops, t):
    text = f"""handshake.func @f(%before_value: {t}, %before_cond: i1) -> ({t}, i1) {{
  {SEED_GATE.replace("T", t)}
  handshake.return %after_value, %after_cond : {t}, i1
}}"""
    op = body_ops(checked(text))[0]
    assert isinstance(op, GateOp)
    assert op.before_value.name_hint == "before_value"
    assert op.before_cond.name_hint == "before_cond"
    assert op.after_value.type == op.before_value.type


@pytest.mark.parametrize("t", T_CHOICES)
def test_seed_carry_example(checked, body_ops, t):
    text = f"""handshake.func @f(%d: i1, %a: {t}, %b: {t}) -> {t} {{
  {SEED_CARRY.replace("T", t)}
  handshake.return %o : {t}
}}"""
    op = body_ops(checked(text))[0]
    assert isinstance(op, CarryOp)
    assert [v.name_hint for v in (op.cond, op.init, op.loop)] == ["d", "a", "b"]


@pytest.mark.parametrize("t", T_CHOICES)
def test_seed_invariant_example(checked, body_ops, t):
    text = f"""handshake.func @f(%d: i1, %a: {t}) -> {t} {{
  {SEED_INVARIANT.replace("T", t)}
  handshake.return %o : {t}
}}"""
    op = body_ops(checked(text))[0]
    assert isinstance(op, InvariantOp)
    assert [v.name_hint for v in (op.cond, op.init)] == ["d", "a"]


def test_value_sets_are_exactly_seed_001s():
    assert STEP_OPS == ("+=", "-=", "*=", "/=", "<<=", ">>=")
    assert CONT_CONDS == ("<", "<=", ">", ">=", "!=")


@pytest.mark.parametrize("step_op", ["+=", "-=", "*=", "/=", "<<=", ">>="])
@pytest.mark.parametrize("cont_cond", ["<", "<=", ">", ">=", "!="])
def test_every_step_op_and_cont_cond_verifies(checked, body_ops, step_op, cont_cond):
    body = SEED_STREAM.replace('"+="', f'"{step_op}"').replace('"<"', f'"{cont_cond}"')
    op = body_ops(checked(stream_func(body)))[0]
    assert (op.step_op.data, op.cont_cond.data) == (step_op, cont_cond)


@pytest.mark.parametrize("bad", ["+", "++", "=", "==", "<", "%=", "+= ", ""])
def test_bad_step_op_is_rejected_naming_value_and_set(error, bad):
    err = error(stream_func(SEED_STREAM.replace('"+="', f'"{bad}"')))
    assert f'invalid step_op "{bad}"' in err.message
    assert "+= -= *= /= <<= >>=" in err.message
    assert (err.loc.line, err.loc.col) == (2, 3)


@pytest.mark.parametrize("bad", ["==", "=<", "<<", "+=", "lt", ""])
def test_bad_cont_cond_is_rejected_naming_value_and_set(error, bad):
    err = error(stream_func(SEED_STREAM.replace('"<"', f'"{bad}"')))
    assert f'invalid cont_cond "{bad}"' in err.message
    assert "< <= > >= !=" in err.message


def test_missing_step_op_is_rejected(error):
    err = error(stream_func(SEED_STREAM.replace('step_op = "+=", ', "")))
    assert "step_op" in err.message


@pytest.mark.parametrize(
    "types, fragment",
    [
        ("(index, i32, index) -> (index, i1)", "step type i32 does not match start"),
        ("(index, index, i64) -> (index, i1)", "bound type i64 does not match start"),
        ("(index, index, index) -> (i32, i1)", "idx result type i32"),
        ("(index, index, index) -> (index, i8)", "cont result must be i1"),
    ],
)
def test_stream_type_mismatches_are_rejected(error, types, fragment):
    ins = types.split(" -> ")[0].strip("()").split(", ")
    outs = types.split(" -> ")[1].strip("()").split(", ")
    text = f"""handshake.func @f(%start: {ins[0]}, %step: {ins[1]}, %bound: {ins[2]}) -> ({outs[0]}, {outs[1]}) {{
  %idx, %cont = dataflow.stream %start, %step, %bound {{step_op = "+=", cont_cond = "<"}} : {types}
  handshake.return %idx, %cont : {outs[0]}, {outs[1]}
}}"""
    assert fragment in error(text).message


def test_stream_of_floats_is_rejected(error):
    assert "integer or index" in error(stream_func(SEED_STREAM.replace("index", "f32"), "f32")).message


def test_stream_accepts_explicit_channels(checked):
    ch = "!handshake.channel<i32>"
    body = f"""%idx, %cont = dataflow.stream %start, %step, %bound {{step_op = "-=", cont_cond = ">="}} : ({ch}, i32, {ch}) -> (i32, !handshake.channel<i1>)"""
    text = f"""handshake.func @f(%start: {ch}, %step: i32, %bound: {ch}) -> (i32, !handshake.channel<i1>) {{
  {body}
  handshake.return %idx, %cont : i32, !handshake.channel<i1>
}}"""
    checked(text)


@pytest.mark.parametrize(
    "text, fragment",
    [
        (
            """handshake.func @f(%v: i32, %c: i32) -> (i32, i32) {
  %av, %ac = dataflow.gate %v, %c : i32, i32 -> i32, i32
  handshake.return %av, %ac : i32, i32
}""",
            "before_cond must be i1",
        ),
        (
            """handshake.func @f(%v: i32, %c: i1) -> (i64, i1) {
  %av, %ac = dataflow.gate %v, %c : i32, i1 -> i64, i1
  handshake.return %av, %ac : i64, i1
}""",
            "after_value type i64 does not match before_value type i32",
        ),
        (
            """handshake.func @f(%d: i1, %a: i32, %b: i64) -> i32 {
  %o = dataflow.carry %d, %a, %b : i1, i32, i64 -> i32
  handshake.return %o : i32
}""",
            "loop value %b type i64 does not match initial value %a type i32",
        ),
        (
            """handshake.func @f(%d: i8, %a: i32, %b: i32) -> i32 {
  %o = dataflow.carry %d, %a, %b : i8, i32, i32 -> i32
  handshake.return %o : i32
}""",
            "condition %d must be i1",
        ),
        (
            """handshake.func @f(%d: i1, %a: i32) -> none {
  %o = dataflow.invariant %d, %a : i1, i32 -> none
  handshake.return %o : none
}""",
            "result type none does not match invariant value %a type i32",
        ),
        (
            """handshake.func @f(%d: i1, %a: memref<4xi32>) -> memref<4xi32> {
  %o = dataflow.invariant %d, %a : i1, memref<4xi32> -> memref<4xi32>
  handshake.return %o : memref<4xi32>
}""",
            "is not a channel type",
        ),
    ],
)
def test_type_rejections(error, text, fragment):
    assert fragment in error(text).message


def test_shorthand_and_explicit_types_agree(checked):
    """`i32` and `!handshake.channel<i32>` are the same edge (design.md section 3)."""
    checked("""handshake.func @f(%d: !handshake.channel<i1>, %a: i32, %b: !handshake.channel<i32>) -> i32 {
  %o = dataflow.carry %d, %a, %b : !handshake.channel<i1>, i32, !handshake.channel<i32> -> i32
  handshake.return %o : i32
}""")


def test_builders_print_like_the_seed_syntax(checked):
    from xdsl.dialects.builtin import ModuleOp

    from loom.dialects.handshake import FuncOp, ReturnOp
    from loom.ir import print_module

    func = FuncOp("f", [IndexType()] * 3 + [i1], [IndexType(), i1])
    start, step, bound, d = func.body.block.args
    for arg, name in zip(func.body.block.args, ["start", "step", "bound", "d"]):
        arg.name_hint = name
    stream = StreamOp(start, step, bound, ">>=", "!=")
    stream.idx.name_hint, stream.cont.name_hint = "idx", "cont"
    gate = GateOp(stream.idx, stream.cont)
    inv = InvariantOp(d, gate.after_value)
    func.body.block.add_ops([stream, gate, inv, ReturnOp([inv.output, gate.after_cond])])
    text = print_module(ModuleOp([func]))
    assert 'dataflow.stream %start, %step, %bound {step_op = ">>=", cont_cond = "!="} : (index, index, index) -> (index, i1)' in text
    assert "dataflow.gate %idx, %cont : index, i1 -> index, i1" in text
    assert "dataflow.invariant %d, %" in text
    checked(text)
