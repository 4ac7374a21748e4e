"""Explicit channel types and bundle/unbundle/compose/decompose against seed 004."""

from __future__ import annotations

import pytest
from xdsl.dialects.builtin import Float32Type, IndexType, IntegerType, NoneType, i1, i32

from loom.dialects import handshake as hs
from loom.dialects.channel_types import (
    ChannelType,
    ControlType,
    Extra,
    canonical_type,
    data_width,
    extra_signal,
    extras,
    same_edge_type,
)
from loom.ir import parse_module, print_module

# Seed 004's serialization examples (`channel<...>` = `!handshake.channel<...>`),
# with the data width and extra signals the seed's prose gives for each.
SEED_TYPES = [
    ("channel<i32>", 32, []),
    ("channel<i32, [i1]>", 32, [Extra(None, 1, False)]),
    ("channel<i32, [tag1: i2, tag2: i4]>", 32, [Extra("tag1", 2, False), Extra("tag2", 4, False)]),
    ("channel<i32, [otherReady: (U) i1]>", 32, [Extra("otherReady", 1, True)]),
    ("channel<i1>", 1, []),
    ("channel<i38>", 38, []),
    ("channel<i32, [i2, i4]>", 32, [Extra(None, 2, False), Extra(None, 4, False)]),
    (
        "channel<i32, [i2, i4, (U) i4, (U) i8]>",
        32,
        [Extra(None, 2, False), Extra(None, 4, False), Extra(None, 4, True), Extra(None, 8, True)],
    ),
    ("channel<i32, [i6, (U) i12]>", 32, [Extra(None, 6, False), Extra(None, 12, True)]),
    ("control", 0, []),
]


def arg_type(text: str):
    module = parse_module(f"handshake.func @f(%x: {text}) {{\n  handshake.sink %x : {text}\n  handshake.return\n}}")
    return next(iter(module.ops)).function_type.inputs.data[0]


@pytest.mark.parametrize("seed, width, seed_extras", SEED_TYPES)
def test_seed_type_examples(seed, width, seed_extras):
    t = arg_type(f"!handshake.{seed}")
    assert isinstance(t, ChannelType | ControlType)
    assert data_width(t) == width
    assert extras(t) == seed_extras
    assert str(t) == f"!handshake.{seed}"


@pytest.mark.parametrize("seed, width, seed_extras", SEED_TYPES)
def test_seed_bare_spelling_inside_ops(checked, seed, width, seed_extras):
    """Seed 004 writes `channel<...>` / `control` without the dialect prefix."""
    module = checked(f"""handshake.func @f(%x: !handshake.{seed}) {{
  handshake.sink %x : {seed}
  handshake.return
}}""")
    assert "handshake.sink %x : !handshake." + seed in print_module(module)


@pytest.mark.parametrize(
    "t, width",
    [(i32, 32), (IntegerType(7), 7), (IndexType(), 64), (NoneType(), 0), (ControlType(), 0),
     (Float32Type(), 32), (ChannelType(IndexType()), 64), (ChannelType(IntegerType(9)), 9)],
)
def test_data_width(t, width):
    assert data_width(t) == width
    assert extras(t) == []


def test_shorthand_equivalence():
    assert canonical_type(i32) == ChannelType(i32)
    assert canonical_type(NoneType()) == ControlType()
    assert same_edge_type(i32, ChannelType(i32))
    assert same_edge_type(NoneType(), ControlType())
    assert not same_edge_type(i32, ChannelType(i32, [extra_signal(i1)]))
    assert not same_edge_type(i1, ChannelType(i32))


@pytest.mark.parametrize(
    "text, fragment",
    [
        ("!handshake.channel<i0>", "invalid channel data type i0: it has zero width"),
        ("!handshake.channel<f32>", "invalid channel data type f32: it is not an integer or index"),
        ("!handshake.channel<none>", "invalid channel data type none"),
        ("!handshake.channel<i32, [t: i0]>", "invalid extra signal type i0: it has zero width"),
        ("!handshake.channel<i32, [a: i1, a: i2]>", "duplicate extra signal name 'a'"),
        ("!handshake.channel<i32, [(D) i1]>", "Expected 'U'"),
    ],
)
def test_invalid_channel_types_are_rejected_at_the_token(error, text, fragment):
    err = error(f"""handshake.func @f(
    %x: {text}) {{
  handshake.return
}}""")
    assert fragment in err.message
    assert err.loc.line == 2
    assert err.loc.col > len("    %x: !handshake.channel<") - 1


def test_channel_i0_rejected_when_built_in_python():
    from xdsl.utils.exceptions import VerifyException

    with pytest.raises(VerifyException, match="zero width"):
        ChannelType(IntegerType(0))


def test_native_i0_edge_is_rejected(error):
    err = error("""handshake.func @f(%x: i0) {
  handshake.sink %x : i0
  handshake.return
}""")
    assert "zero width" in err.message


# Seed 004's bundle/unbundle examples, each in a function that supplies its inputs.
SEED_BUNDLES = {
    "simple": (
        "%channel: !handshake.channel<i32>", "!handshake.channel<i32>",
        """  %control, %data = handshake.unbundle %channel : control, i32
  %channelAgain = handshake.bundle %control, %data : channel<i32>""",
        "%channelAgain : !handshake.channel<i32>",
    ),
    "tags": (
        "%channel: !handshake.channel<i32, [tag1: i2, tag2: i4]>",
        "!handshake.channel<i32, [tag1: i2, tag2: i4]>",
        """  %control, %data, %tag1, %tag2 = handshake.unbundle %channel : control, i32, i2, i4
  %bundled = handshake.bundle %control, %data [%tag1, %tag2] : channel<i32, [tag1: i2, tag2: i4]>""",
        "%bundled : !handshake.channel<i32, [tag1: i2, tag2: i4]>",
    ),
    "upstream": (
        "%channel: !handshake.channel<i32, [otherReady: (U) i1]>",
        "!handshake.channel<i32, [otherReady: (U) i1]>",
        """  %control, %data = handshake.unbundle %channel, %otherReady : control, i32
  %bundled, %otherReady = handshake.bundle %control, %data : channel<i32, [otherReady: (U) i1]>""",
        "%bundled : !handshake.channel<i32, [otherReady: (U) i1]>",
    ),
    "control": (
        "%control: !handshake.control", "!handshake.control",
        """  %valid = handshake.unbundle %control, %ready : i1
  %controlAgain, %ready = handshake.bundle %valid : control, i1""",
        "%controlAgain : !handshake.control",
    ),
}


@pytest.mark.parametrize("name", list(SEED_BUNDLES))
def test_seed_bundle_unbundle_examples(checked, body_ops, name):
    args, res, body, ret = SEED_BUNDLES[name]
    unbundle, bundle = body_ops(checked(f"handshake.func @f({args}) -> {res} {{\n{body}\n  handshake.return {ret}\n}}"))[:2]
    assert isinstance(unbundle, hs.UnbundleOp) and isinstance(bundle, hs.BundleOp)
    # upstream extras flow against the channel: inputs of unbundle, outputs of bundle
    up = sum(e.upstream for e in extras(bundle.results[0].type))
    assert len(unbundle.operands) == 1 + (1 if name == "control" else up)
    assert len(bundle.results) == 1 + (1 if name == "control" else up)
    assert [r.name_hint for r in unbundle.results] == body.split("=")[0].replace("%", "").replace(" ", "").split(",")


def test_unbundle_result_types_follow_seed(checked, body_ops):
    args, res, body, ret = SEED_BUNDLES["tags"]
    unbundle = body_ops(checked(f"handshake.func @f({args}) -> {res} {{\n{body}\n  handshake.return {ret}\n}}"))[0]
    assert unbundle.result_types == (ControlType(), i32, IntegerType(2), IntegerType(4))


def test_unbundle_of_a_later_channel_uses_the_explicit_form(checked):
    text = """handshake.func @f(%c: !handshake.control, %d: i32) -> !handshake.channel<i32> {
  %c2, %d2 = handshake.unbundle %ch : !handshake.channel<i32> -> control, i32
  %ch = handshake.bundle %c, %d : channel<i32>
  %back = handshake.bundle %c2, %d2 : channel<i32>
  handshake.return %back : !handshake.channel<i32>
}"""
    printed = print_module(checked(text))
    assert "handshake.unbundle %ch : !handshake.channel<i32> -> !handshake.control, i32" in printed


def test_unbundle_of_an_unknown_channel_needs_the_explicit_form(error):
    err = error("""handshake.func @f(%c: !handshake.control, %d: i32) -> i32 {
  %c2, %d2 = handshake.unbundle %ch : control, i32
  %ch = handshake.bundle %c, %d : channel<i32>
  handshake.return %d2 : i32
}""")
    assert "type of %ch is not known here" in err.message
    assert (err.loc.line, err.loc.col) == (2, 33)


@pytest.mark.parametrize(
    "body, fragment",
    [
        ("  %ch = handshake.bundle %c, %d : channel<i32, [i2]>", "operands"),
        ("  %x, %y = handshake.unbundle %ch0 : control, i16", "result #1 has type i16, expected i32"),
    ],
)
def test_bundle_signature_mismatches(error, body, fragment):
    text = f"""handshake.func @f(%c: !handshake.control, %d: i32, %ch0: !handshake.channel<i32>) {{
{body}
  handshake.return
}}"""
    assert fragment in error(text).message


# Seed 004's compose/decompose examples.
SEED_COMPOSE = """handshake.func @f(%index: !handshake.channel<i1>, %muxOprd1: !handshake.channel<i32, [i2, i4]>, %muxOprd2: !handshake.channel<i32, [i2, i4]>, %addOprd1: !handshake.channel<i32, [i2, i4, (U) i4, (U) i8]>) -> (!handshake.channel<i32, [i2, i4]>, !handshake.channel<i32, [i2, i4, (U) i4, (U) i8]>) {
  %muxComposedOprd1 = handshake.compose %muxOprd1 : channel<i32, [i2, i4]> -> channel<i38>
  %muxComposedOprd2 = handshake.compose %muxOprd2 : channel<i32, [i2, i4]> -> channel<i38>
  %muxComposedResult = handshake.mux %index [%muxComposedOprd1, %muxComposedOprd2] : channel<i1>, channel<i38>
  %muxResult = handshake.decompose %muxComposedResult : channel<i38> -> channel<i32, [i2, i4]>
  %addComposedOprd1 = handshake.compose %addOprd1 : channel<i32, [i2, i4, (U) i4, (U) i8]>
-> channel<i32, [i6, (U) i12]>
  %addResult = handshake.decompose %addComposedOprd1 : channel<i32, [i6, (U) i12]>
-> channel<i32, [i2, i4, (U) i4, (U) i8]>
  handshake.return %muxResult, %addResult : !handshake.channel<i32, [i2, i4]>, !handshake.channel<i32, [i2, i4, (U) i4, (U) i8]>
}"""


def test_seed_compose_decompose_examples(checked, body_ops):
    ops = body_ops(checked(SEED_COMPOSE))
    assert [op.name for op in ops[:6]] == [
        "handshake.compose", "handshake.compose", "handshake.mux",
        "handshake.decompose", "handshake.compose", "handshake.decompose",
    ]
    assert data_width(ops[0].results[0].type) == 32 + 2 + 4


def test_seed_merge_and_mux_with_channel_types(checked):
    checked("""handshake.func @f(%mergeOprd1: !handshake.control, %mergeOprd2: !handshake.control, %muxOprd1: !handshake.channel<i32, [i2, i4]>, %muxOprd2: !handshake.channel<i32, [i2, i4]>) -> (!handshake.control, !handshake.channel<i32, [i2, i4]>) {
  %mergeResult, %index = handshake.control_merge %mergeOprd1, %mergeOprd2 : control, channel<i1>
  %muxResult = handshake.mux %index [%muxOprd1, %muxOprd2] : channel<i1>, channel<i32, [i2, i4]>
  handshake.return %mergeResult, %muxResult : !handshake.control, !handshake.channel<i32, [i2, i4]>
}""")


@pytest.mark.parametrize(
    "src, dst, op",
    [
        ("channel<i32, [i2, i4]>", "channel<i37>", "compose"),  # 38 bits do not fit 37
        ("channel<i32, [i2, i4]>", "channel<i32, [i2, i4]>", "compose"),  # nothing composed
        ("channel<i32, [i2, (U) i4]>", "channel<i38>", "compose"),  # upstream cannot join data
        ("channel<i32, [i6, (U) i12]>", "channel<i32, [i2, i4, (U) i4, (U) i4]>", "decompose"),
        ("channel<i32, [(U) i4, (U) i8]>", "channel<i32, [(U) i4, (U) i8]>", "compose"),
    ],
)
def test_compose_rejections(error, src, dst, op):
    err = error(f"""handshake.func @f(%x: !handshake.{src}) -> !handshake.{dst} {{
  %y = handshake.{op} %x : {src} -> {dst}
  handshake.return %y : !handshake.{dst}
}}""")
    assert "cannot turn" in err.message


def test_compose_accepts_per_direction_folding(checked):
    checked("""handshake.func @f(%x: !handshake.channel<i8, [a: i1, b: i3, (U) i2]>) -> !handshake.channel<i12, [(U) i2]> {
  %y = handshake.compose %x : channel<i8, [a: i1, b: i3, (U) i2]> -> channel<i12, [(U) i2]>
  handshake.return %y : !handshake.channel<i12, [(U) i2]>
}""")
