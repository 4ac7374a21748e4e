"""The handshake dialect: CIRCT/LOOM syntax of every op, round trip, verifier rejections."""

from __future__ import annotations

import pytest
from xdsl.dialects.builtin import IndexType, IntegerAttr, MemRefType, NoneType, i1, i32

from loom.dialects import handshake as hs
from loom.ir import print_module


def func(args: str, results: str, body: str, ret: str) -> str:
    return f"""handshake.func @f({args}) -> ({results}) {{
{body}
  handshake.return {ret}
}}"""


def test_func_signature_names_and_attributes(checked):
    text = """handshake.func @name(%a: memref<16xi32>, %n: i32, %start: none) -> (i32, none) attributes {arg_names = ["a", "n", "start"], res_names = ["out0", "done"], loom.note = 7 : i64} {
  handshake.sink %a_unused : i32
  %a_unused = handshake.constant %start {value = 3 : i32} : i32
  handshake.return %n, %start : i32, none
}"""
    op = next(iter(checked(text).ops))
    assert isinstance(op, hs.FuncOp)
    assert op.sym_name.data == "name"
    assert op.function_type.inputs.data == (MemRefType(i32, [16]), i32, NoneType())
    assert op.function_type.outputs.data == (i32, NoneType())
    assert op.arg_names == ["a", "n", "start"] and op.res_names == ["out0", "done"]
    assert [a.type for a in op.body.block.args] == list(op.function_type.inputs)
    assert "loom.note" in op.attributes
    assert isinstance(op.body.block.last_op, hs.ReturnOp)


def test_return_without_operands(checked, body_ops):
    text = """handshake.func @f(%x: i32) {
  handshake.sink %x : i32
  handshake.return
}"""
    assert isinstance(body_ops(checked(text))[-1], hs.ReturnOp)
    assert "handshake.return\n" in print_module(checked(text))


# (args, results, body, return operands+types, class of the first op, check)
CASES = {
    "fork": (
        "%x: i32", "i32, i32",
        "  %o:2 = handshake.fork [2] %x : i32",
        "%o#0, %o#1 : i32, i32",
        hs.ForkOp, lambda op: len(op.results) == 2 and op.result_types == (i32, i32),
    ),
    "lazy_fork": (
        "%x: none", "none, none, none",
        "  %o:3 = handshake.lazy_fork [3] %x : none",
        "%o#0, %o#1, %o#2 : none, none, none",
        hs.LazyForkOp, lambda op: len(op.results) == 3,
    ),
    "join": (
        "%a: none, %b: i32", "none",
        "  %j = handshake.join %a, %b : none, i32",
        "%j : none",
        hs.JoinOp, lambda op: op.result_types == (NoneType(),) and len(op.operands) == 2,
    ),
    "sync": (
        "%a: none, %b: i32", "none, i32",
        "  %s:2 = handshake.sync %a, %b : none, i32",
        "%s#0, %s#1 : none, i32",
        hs.SyncOp, lambda op: op.result_types == (NoneType(), i32),
    ),
    "merge": (
        "%a: i32, %b: i32", "i32",
        "  %m = handshake.merge %a, %b : i32",
        "%m : i32",
        hs.MergeOp, lambda op: len(op.operands) == 2,
    ),
    "control_merge": (
        "%a: none, %b: none", "none, index",
        "  %r, %i = handshake.control_merge %a, %b : none, index",
        "%r, %i : none, index",
        hs.ControlMergeOp, lambda op: op.index.type == IndexType(),
    ),
    "control_merge_i1": (
        "%a: none, %b: none", "none, i1",
        "  %r, %i = handshake.control_merge %a, %b : none, i1",
        "%r, %i : none, i1",
        hs.ControlMergeOp, lambda op: op.index.type == i1,
    ),
    "mux": (
        "%sel: index, %a: i32, %b: i32", "i32",
        "  %r = handshake.mux %sel [%a, %b] : index, i32",
        "%r : i32",
        hs.MuxOp,
        lambda op: op.select.name_hint == "sel"
        and [v.name_hint for v in op.data_operands] == ["a", "b"],
    ),
    "cond_br": (
        "%c: i1, %x: i32", "i32, i32",
        "  %t, %f = handshake.cond_br %c, %x : i32",
        "%t, %f : i32, i32",
        hs.ConditionalBranchOp,
        lambda op: (op.true_result.name_hint, op.false_result.name_hint) == ("t", "f")
        and op.condition.name_hint == "c",
    ),
    "buffer_seq": (
        "%x: i32", "i32",
        "  %b = handshake.buffer [2] seq %x : i32",
        "%b : i32",
        hs.BufferOp,
        lambda op: op.properties["slots"].value.data == 2
        and op.properties["buffer_type"].data == "seq",
    ),
    "buffer_fifo": (
        "%x: none", "none",
        "  %b = handshake.buffer [5] fifo %x : none",
        "%b : none",
        hs.BufferOp,
        lambda op: (op.slots.value.data, op.buffer_type.data) == (5, "fifo"),
    ),
    "constant": (
        "%ctrl: none", "i32",
        "  %c = handshake.constant %ctrl {value = 42 : i32} : i32",
        "%c : i32",
        hs.ConstantOp,
        lambda op: op.attributes["value"].value.data == 42 and op.value.type == i32,
    ),
    "constant_negative": (
        "%ctrl: none", "i8",
        "  %c = handshake.constant %ctrl {value = -3 : i8} : i8",
        "%c : i8",
        hs.ConstantOp, lambda op: op.value.value.data == -3,
    ),
    "source_sink": (
        "%x: i32", "none",
        "  %s = handshake.source\n  handshake.sink %x : i32",
        "%s : none",
        hs.SourceOp, lambda op: op.result_types == (NoneType(),),
    ),
    "load": (
        "%addr: index, %ld: i32, %ctrl: none", "i32, index",
        "  %d, %a = handshake.load [%addr] %ld, %ctrl : index, i32",
        "%d, %a : i32, index",
        hs.LoadOp,
        lambda op: op.result_types == (i32, IndexType())
        and [v.name_hint for v in op.operands] == ["addr", "ld", "ctrl"]
        and op.data_from_mem.name_hint == "ld",
    ),
    "load_rank2": (
        "%i: index, %j: index, %ld: i32, %ctrl: none", "i32, index, index",
        "  %d, %a:2 = handshake.load [%i, %j] %ld, %ctrl : index, i32",
        "%d, %a#0, %a#1 : i32, index, index",
        hs.LoadOp, lambda op: len(op.addresses) == 2 and len(op.address_results) == 2,
    ),
    "store": (
        "%addr: index, %v: i32, %ctrl: none", "i32, index",
        "  %d, %a = handshake.store [%addr] %v, %ctrl : index, i32",
        "%d, %a : i32, index",
        hs.StoreOp,
        lambda op: [v.name_hint for v in op.operands] == ["addr", "v", "ctrl"]
        and op.result_types == (i32, IndexType()),
    ),
    "extmemory": (
        "%mem: memref<256xi32>, %sd: i32, %sa: index, %la: index", "i32, none, none",
        "  %m:3 = handshake.extmemory[ld = 1, st = 1] (%mem : memref<256xi32>) (%sd, %sa, %la) {id = 0 : i32} : (i32, index, index) -> (i32, none, none)",
        "%m#0, %m#1, %m#2 : i32, none, none",
        hs.ExternalMemoryOp,
        lambda op: op.operands[0].name_hint == "mem"
        and (op.num_loads, op.num_stores) == (1, 1)
        and op.properties["ld_count"].value.data == 1
        and op.properties["st_count"].value.data == 1
        and op.attributes["id"].value.data == 0
        and [v.name_hint for v in op.inputs] == ["sd", "sa", "la"],
    ),
    "extmemory_rank2": (
        "%mem: memref<4x8xi16>, %sd: i16, %s0: index, %s1: index, %l0: index, %l1: index, %m0: index, %m1: index",
        "i16, i16, none, none, none",
        "  %m:5 = handshake.extmemory[ld = 2, st = 1] (%mem : memref<4x8xi16>) (%sd, %s0, %s1, %l0, %l1, %m0, %m1) {id = 3 : i32} : (i16, index, index, index, index, index, index) -> (i16, i16, none, none, none)",
        "%m#0, %m#1, %m#2, %m#3, %m#4 : i16, i16, none, none, none",
        hs.ExternalMemoryOp, lambda op: (op.num_loads, op.num_stores) == (2, 1),
    ),
    "memory": (
        "%sd: i32, %sa: index, %la: index", "i32, none, none",
        "  %m:3 = handshake.memory[ld = 1, st = 1] (%sd, %sa, %la) {id = 0 : i32} : memref<256xi32>, (i32, index, index) -> (i32, none, none)",
        "%m#0, %m#1, %m#2 : i32, none, none",
        hs.MemoryOp,
        lambda op: op.properties["mem_type"] == MemRefType(i32, [256])
        and op.attributes["id"].value.data == 0,
    ),
}


@pytest.mark.parametrize("name", list(CASES))
def test_op_parses_prints_and_round_trips(checked, body_ops, name):
    args, results, body, ret, cls, check = CASES[name]
    module = checked(func(args, results, body, ret))
    op = body_ops(module)[0]
    assert isinstance(op, cls)
    assert op.name == "handshake." + body.split("handshake.")[1].split("[")[0].split()[0]
    assert check(op)


@pytest.mark.parametrize("name", list(CASES))
def test_unqualified_form_inside_func(checked, name):
    args, results, body, ret, _, _ = CASES[name]
    qualified = print_module(checked(func(args, results, body, ret)))
    short = func(args, results, body.replace("handshake.", ""), ret)
    short = short.replace("handshake.return", "return")
    assert "handshake." not in short.split("\n", 1)[1]
    assert print_module(checked(short)) == qualified


def test_printed_form_is_fully_qualified(checked):
    args, results, body, ret, _, _ = CASES["fork"]
    text = print_module(checked(func(args, results, body.replace("handshake.", ""), ret)))
    assert "= handshake.fork [2] %x : i32" in text


def test_forward_references_across_a_loop(checked):
    """Graph regions: a back edge uses a value before its definition."""
    checked("""handshake.func @f(%d: i1, %a: i32) -> i32 {
  %o = dataflow.carry %d, %a, %b : i1, i32, i32 -> i32
  %b, %out = handshake.cond_br %c, %o : i32
  %c = handshake.constant %s {value = true} : i1
  %s = handshake.source
  handshake.return %out : i32
}""")


IMPLICIT_TYPE_VARIANTS = [
    # the syntax's implicit control/condition types, written when not the default
    ("%c: !handshake.channel<i1>, %x: i32", "i32, i32",
     "  %t, %f = handshake.cond_br %c, %x : !handshake.channel<i1>, i32", "%t, %f : i32, i32"),
    ("%a: index, %m: i32, %ctrl: !handshake.control", "i32, index",
     "  %d, %o = handshake.load [%a] %m, %ctrl : index, i32, !handshake.control",
     "%d, %o : i32, index"),
    ("%a: index, %v: i32, %ctrl: !handshake.control", "i32, index",
     "  %d, %o = handshake.store [%a] %v, %ctrl : index, i32, !handshake.control",
     "%d, %o : i32, index"),
    ("%ctrl: !handshake.control", "i32",
     "  %c = handshake.constant %ctrl {value = 1 : i32} : !handshake.control, i32", "%c : i32"),
    ("%a: none", "!handshake.control",
     "  handshake.sink %a : none\n  %s = handshake.source : !handshake.control", "%s : !handshake.control"),
    ("%a: none, %b: i32", "!handshake.control",
     "  %j = handshake.join %a, %b : none, i32 -> !handshake.control", "%j : !handshake.control"),
]


@pytest.mark.parametrize("args, results, body, ret", IMPLICIT_TYPE_VARIANTS)
def test_non_default_implicit_types_round_trip(checked, args, results, body, ret):
    text = print_module(checked(func(args, results, body, ret)))
    assert body.strip().split("\n")[-1].strip() in text


def test_explicit_channel_types_on_handshake_ops(checked):
    ch = "!handshake.channel<i32, [tag: i2]>"
    checked(func(
        f"%sel: !handshake.channel<i1>, %a: {ch}, %b: {ch}", f"{ch}, {ch}",
        f"""  %r = handshake.mux %sel [%a, %b] : !handshake.channel<i1>, {ch}
  %o:2 = handshake.fork [2] %r : {ch}""",
        f"%o#0, %o#1 : {ch}, {ch}",
    ))


# --- rejections ------------------------------------------------------------------------


def test_fork_count_mismatch_is_a_parse_error(error):
    err = error(func("%x: i32", "i32", "  %o:3 = handshake.fork [2] %x : i32", "%o#0 : i32"))
    assert "has 2 results, but was given 3" in err.message
    assert (err.loc.line, err.loc.col) == (2, 3)


def test_fork_with_mismatched_result_types_fails_verification(checked, error):
    module = checked(func("%x: i32", "i32, i32", "  %o:2 = handshake.fork [2] %x : i32", "%o#0, %o#1 : i32, i32"))
    text = print_module(module).replace("%o, %o_1 = handshake.fork [2] %x : i32", '%o, %o_1 = "handshake.fork"(%x) : (i32) -> (i32, i64)')
    text = text.replace("%o, %o_1 : i32, i32", "%o, %o_1 : i32, i64").replace("-> (i32, i32)", "-> (i32, i64)")
    assert "result #1 has type i64, expected i32" in error(text).message


def test_fork_zero_results_is_rejected(error):
    err = error(func("%x: i32", "", "  handshake.fork [0] %x : i32", ""))
    assert "at least one result" in err.message


@pytest.mark.parametrize(
    "body, results, ret, fragment",
    [
        # one load declared, but no address operand for it
        ("  %m:3 = handshake.extmemory[ld = 1, st = 1] (%mem : memref<256xi32>) (%sd, %sa) {id = 0 : i32} : (i32, index) -> (i32, none, none)",
         "i32, none, none", "%m#0, %m#1, %m#2 : i32, none, none",
         "has 2 port operands, expected 3 for ld = 1, st = 1"),
        # done token of the load missing
        ("  %m:2 = handshake.extmemory[ld = 1, st = 1] (%mem : memref<256xi32>) (%sd, %sa, %la) {id = 0 : i32} : (i32, index, index) -> (i32, none)",
         "i32, none", "%m#0, %m#1 : i32, none",
         "has 2 results, expected 3 for ld = 1, st = 1"),
        # store data of the wrong element type
        ("  %m:3 = handshake.extmemory[ld = 1, st = 1] (%mem : memref<256xi32>) (%sd, %sa, %la) {id = 0 : i32} : (i16, index, index) -> (i32, none, none)",
         "i32, none, none", "%m#0, %m#1, %m#2 : i32, none, none",
         "store #0 data has type i16, expected i32"),
        # load data result of the wrong element type
        ("  %m:3 = handshake.extmemory[ld = 1, st = 1] (%mem : memref<256xi32>) (%sd, %sa, %la) {id = 0 : i32} : (i32, index, index) -> (i64, none, none)",
         "i64, none, none", "%m#0, %m#1, %m#2 : i64, none, none",
         "load #0 data result has type i64"),
        # a done token that is not a control token
        ("  %m:3 = handshake.extmemory[ld = 1, st = 1] (%mem : memref<256xi32>) (%sd, %sa, %la) {id = 0 : i32} : (i32, index, index) -> (i32, i32, none)",
         "i32, i32, none", "%m#0, %m#1, %m#2 : i32, i32, none",
         "done result #0 must be none"),
        # missing id
        ("  %m:3 = handshake.extmemory[ld = 1, st = 1] (%mem : memref<256xi32>) (%sd, %sa, %la) : (i32, index, index) -> (i32, none, none)",
         "i32, none, none", "%m#0, %m#1, %m#2 : i32, none, none",
         "id"),
    ],
)
def test_extmemory_port_rejections(error, body, results, ret, fragment):
    args = "%mem: memref<256xi32>, %sd: i32, %sa: index, %la: index"
    if "(i16," in body:
        args = args.replace("%sd: i32", "%sd: i16")
    assert fragment in error(func(args, results, body, ret)).message


def test_extmemory_rank_two_needs_two_addresses_per_port(error):
    body = "  %m:3 = handshake.extmemory[ld = 1, st = 1] (%mem : memref<4x4xi32>) (%sd, %sa, %la) {id = 0 : i32} : (i32, index, index) -> (i32, none, none)"
    err = error(func("%mem: memref<4x4xi32>, %sd: i32, %sa: index, %la: index", "i32, none, none", body,
                     "%m#0, %m#1, %m#2 : i32, none, none"))
    assert "expected 5 for ld = 1, st = 1 on a rank-2 memref" in err.message


LSQ = ("  %q:3 = handshake.lsq[ld = 1, st = 1] (%mem : memref<8xi32>) (%sd, %sa, %la, %g, %f) "
       "{id = 0 : i32, groups = [GROUPS], lq = LQ : i32, sq = 4 : i32} "
       ": (i32, index, index, none, none) -> (i32, none, none)")


@pytest.mark.parametrize("groups, lq, fragment", [
    ('"ld0 st1"', 4, "must name each st port 0..0 once"),     # a port that does not exist
    ('"ld0 ld0 st0"', 4, "must name each ld port 0..0 once"),  # a port twice
    ('"ld0 xx1"', 4, "'xx1' is not ld<port> or st<port>"),
    ('"ld0 st0"', 3, "needs 'lq', a power of two >= 2"),
])
def test_lsq_rejections(error, groups, lq, fragment):
    body = LSQ.replace("GROUPS", groups).replace("LQ", str(lq))
    args = "%mem: memref<8xi32>, %sd: i32, %sa: index, %la: index, %g: none, %f: none"
    assert fragment in error(func(args, "i32, none", body, "%q#0, %q#2 : i32, none")).message


def test_memory_port_count_rejection(error):
    body = "  %m:2 = handshake.memory[ld = 2, st = 0] (%la) {id = 0 : i32} : memref<8xi32>, (index) -> (i32, none)"
    assert "expected 2 for ld = 2, st = 0" in error(func("%la: index", "i32, none", body, "%m#0, %m#1 : i32, none")).message


@pytest.mark.parametrize(
    "args, results, body, ret, fragment",
    [
        ("%x: i32", "i32", "  %b = handshake.buffer [0] seq %x : i32", "%b : i32", "slots must be >= 1, got 0"),
        ("%x: i32", "i32", "  %b = handshake.buffer [2] lifo %x : i32", "%b : i32", 'invalid buffer_type "lifo": expected one of seq fifo'),
        ("%c: none", "i32", "  %k = handshake.constant %c {value = 1 : i16} : i32", "%k : i32", "value type i16 does not match result type i32"),
        ("%c: i32", "i32", "  %k = handshake.constant %c {value = 1 : i32} : i32, i32", "%k : i32", "ctrl must be none"),
        ("%s: i1, %a: i32, %b: i32, %c: i32", "i32", "  %r = handshake.mux %s [%a, %b, %c] : i1, i32", "%r : i32", "too narrow for 3 inputs"),
        ("%s: f32, %a: i32", "i32", "  %r = handshake.mux %s [%a] : f32, i32", "%r : i32", "select must be an integer or index"),
        ("%a: none, %b: none, %c: none", "none, i1", "  %r, %i = handshake.control_merge %a, %b, %c : none, i1", "%r, %i : none, i1", "index result type i1 is too narrow for 3 inputs"),
        ("%c: i32, %x: i32", "i32, i32", "  %t, %f = handshake.cond_br %c, %x : i32, i32", "%t, %f : i32, i32", "condition must be i1"),
        ("%a: none", "i32", "  %j = handshake.join %a : none -> i32", "%j : i32", "result must be none or !handshake.control"),
        ("%a: i32, %c: none", "i32, i32", "  %d, %o = handshake.load [%a] %a2, %c : i32, i32\n  %a2 = handshake.constant %c2 {value = 0 : i32} : i32\n  %c2 = handshake.source", "%d, %o : i32, i32", None),
        ("%a: f32, %m: i32, %c: none", "i32, f32", "  %d, %o = handshake.load [%a] %m, %c : f32, i32", "%d, %o : i32, f32", "address must be an index or integer"),
        ("%m: i32, %c: none", "i32", "  %d = handshake.load [] %m, %c : index, i32", "%d : i32", "at least one address"),
    ],
)
def test_op_rejections(checked, error, args, results, body, ret, fragment):
    text = func(args, results, body, ret)
    if fragment is None:  # a control case: integer addresses are fine
        checked(text)
        return
    assert fragment in error(text).message


def test_return_type_must_match_function(error):
    text = """handshake.func @f(%x: i32) -> i64 {
  handshake.return %x : i32
}"""
    assert "return value #0 has type i32, expected i64" in error(text).message


def test_func_arg_names_length_is_checked(error):
    text = """handshake.func @f(%x: i32) -> i32 attributes {arg_names = ["x", "y"]} {
  handshake.return %x : i32
}"""
    assert "arg_names has 2 entries, expected 1" in error(text).message


def test_func_needs_return(error):
    text = """handshake.func @f(%x: i32) {
  handshake.sink %x : i32
}"""
    message = error(text).message
    assert "handshake.return" in message or "terminator" in message


def test_builders(checked):
    from xdsl.dialects.builtin import ModuleOp

    f = hs.FuncOp("g", [IndexType(), i32, NoneType(), MemRefType(i32, [8])], [i32, NoneType()])
    addr, x, ctrl, mem = f.body.block.args
    forks = hs.ForkOp(ctrl, 2)
    store = hs.StoreOp([addr], x, forks.outputs[0])
    ext = hs.ExternalMemoryOp(mem, [store.data_result, store.address_results[0]], [NoneType()], 0, 1, 0)
    join = hs.JoinOp([ext.outputs[0], forks.outputs[1]])
    src = hs.SourceOp()
    const = hs.ConstantOp(src.result, IntegerAttr(5, i32))
    buf = hs.BufferOp(const.result, 2, "fifo")
    f.body.block.add_ops([forks, store, ext, join, src, const, buf, hs.ReturnOp([buf.result, join.result])])
    text = print_module(ModuleOp([f]))
    assert "handshake.buffer [2] fifo" in text
    assert "handshake.extmemory[ld = 0, st = 1]" in text
    checked(text)
