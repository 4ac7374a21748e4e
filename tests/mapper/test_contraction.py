"""The contracted tech-mapped view (loom.mapper.contraction) and the compound
candidates it rests on (loom.mapper.matching): a constant whose one use is
an op of a unit with a constant operand (function_units.configurable's
constant_rhs) is hosted inside that unit, as LOOM's spec-mapper-model.md
describes contracted units; the expected bindings and fields are read off
the unit's body (op 0 the constant, op 1 the right operand's mux, then the
ops and their mux), not off the mapper's output."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from loom.fabric import function_units as fu
from loom.fabric.adg_view import adg_view
from loom.fabric.builder import AdgBuilder, PortRef, bits
from loom.fabric.presets import preset
from loom.mapper.artifacts import write_artifacts
from loom.mapper.checks import check
from loom.mapper.contraction import FOLDED, contract, is_wire
from loom.mapper.dfg_graph import dfg_graph
from loom.mapper.inventory import hw_units
from loom.mapper.mapping import map_dfg
from loom.mapper.matching import Partner, UnitKinds, candidates
from loom.mapper.stats import map_stats
from tests.fabric.test_function_units import _one_pe
from tests.mapper.test_matching import _dfg
from tests.mapper.test_precheck import _body, kernel_func

KERNELS = Path(__file__).resolve().parents[2] / "kernels"

ALU = fu.configurable("fu_alu", ["arith.addi", "arith.subi"], "i32", constant_rhs=True)
OP_MUX = "fu.4.sel"
"""The ops' mux: after the constant (0), the rhs mux (1), addi (2) and subi (3)."""


@pytest.fixture(scope="module")
def units():
    return UnitKinds.of(hw_units(adg_view(_one_pe([ALU, fu.constant("fu_const", "i32")]).build())))


def _pair(text: str):
    const, op = _dfg(text, "%a: i32, %c: none")
    return const, op


def test_a_constant_rhs_is_the_units_constant(units):
    const, sub = _pair("    %k = handshake.constant %c {value = 5 : i32} : i32\n"
                       "    %s = arith.subi %a, %k : i32\n    handshake.sink %s : i32")
    # a on input 0, input 1 unused, the constant's trigger (subi's extra
    # operand 2) on input 2, which fires the body constant
    assert [(c.unit, c.inputs, dict(c.fields), c.folded)
            for c in candidates(sub, units, {1: const})] == [
        ("fu_alu", (0, None, 2), {"fu.1.sel": 1, OP_MUX: 1, "fu.0.value": 5}, (1,))]
    # without the fold, the unit is a plain subtractor and the constant its own unit
    assert [(c.unit, c.inputs) for c in candidates(sub, units)] == [("fu_alu", (0, 1, None))]


def test_a_constant_lhs_folds_only_into_a_commutative_op(units):
    const, add = _pair("    %k = handshake.constant %c {value = -1 : i32} : i32\n"
                       "    %s = arith.addi %k, %a : i32\n    handshake.sink %s : i32")
    assert [(c.inputs, dict(c.fields)["fu.0.value"]) for c in candidates(add, units, {0: const})
            ] == [((1, None, 2), 2**32 - 1)]
    const, sub = _pair("    %k = handshake.constant %c {value = 7 : i32} : i32\n"
                       "    %s = arith.subi %k, %a : i32\n    handshake.sink %s : i32")
    assert candidates(sub, units, {0: const}) == []


def test_contract_folds_a_constant_of_one_use(units):
    body = _body("module {\n  handshake.func @k(%a: i32, %c: none) -> (i32, i32) {\n"
                 "    %k = handshake.constant %c {value = 3 : i32} : i32\n"
                 "    %s = arith.addi %a, %k : i32\n"
                 "    %f:2 = fork [2] %s : i32\n"
                 "    %m = handshake.constant %c {value = 4 : i32} : i32\n"
                 "    %g:2 = fork [2] %m : i32\n"
                 "    %t = arith.subi %f#0, %g#0 : i32\n"
                 "    %u = arith.addi %f#1, %g#1 : i32\n"
                 "    handshake.return %t, %u : i32, i32\n  }\n}\n")
    sw = dfg_graph(body)
    names = [n.op_name for n in sw.nodes]
    k, add, m = (names.index("handshake.constant"), names.index("arith.addi"),
                 len(names) - 1 - names[::-1].index("handshake.constant"))
    view = contract(sw, units)
    # %k has one use and folds into %s; %m has two and keeps a unit of its own
    assert view.host == {k: add}
    assert view.graph.nodes[k].kind == FOLDED and view.graph.nodes[m].kind == "op"
    inner = next(e for e in sw.edges if (e.src, e.dst) == (k, add))
    fire = next(e for e in sw.edges if e.dst == k)
    assert view.graph.edges[inner.id].internal
    assert (view.graph.edges[fire.id].dst, view.graph.edges[fire.id].dst_index) == (add, 2)
    assert view.ops == sum(1 for n in sw.nodes if n.kind == "op") - 1


def test_a_folded_constant_maps_inside_its_host_and_map_json_says_so(tmp_path):
    body = _body("module {\n  handshake.func @k(%a: i64, %c: none) -> (i64) {\n"
                 "    %k = handshake.constant %c {value = 9 : i64} : i64\n"
                 "    %s = arith.xori %a, %k : i64\n"
                 "    handshake.return %s : i64\n  }\n}\n")
    view = adg_view(preset("chess-2x2").build())
    m = map_dfg(body, view, seed=0)
    assert m.ok and check(m, view) == []
    names = [n.op_name for n in m.sw.nodes]
    k, xor = names.index("handshake.constant"), names.index("arith.xori")
    host = m.placement.chosen[xor]
    assert m.placement.chosen[k] is None and m.option_of(k) is host
    assert dict(host.candidate.fields)["fu.0.value"] == 9
    written = write_artifacts(m, view, tmp_path, "k.chess-2x2")
    doc = json.loads(written.paths["map.json"].read_text())
    inner = next(e for e in m.sw.edges if (e.src, e.dst) == (k, xor))
    # LOOM's map.json (spec-mapper-output.md): an absorbed edge is `intra_fu`
    # on its unit, with no path; both nodes sit on that unit
    assert doc["edge_routings"][inner.id] == {"sw_edge": inner.id, "kind": "intra_fu",
                                              "hw_node": host.hw_node, "path": []}
    rows = {r["sw_node"]: r["hw_node"] for r in doc["node_mappings"]}
    assert rows[k] == rows[xor] == host.hw_node
    (unit,) = [u for u in doc["techmap"]["selected_units"] if xor in u["sw_nodes"]]
    assert sorted(unit["sw_nodes"]) == sorted([xor, k])


def test_a_view_that_does_not_fit_falls_back_to_the_dfg():
    # chess-4x4 has 8 ALU PEs (fu_alu, the only units with a constant
    # operand) and 8 control PEs whose fu_addi has none: five xori and four
    # folded `addi a, K` want nine ALU PEs; unfolded, the adds and their
    # constants fit on the control PEs (LOOM's conservative fallback view)
    adds = "".join(f"    %k{i} = handshake.constant %c {{value = {i + 1} : i64}} : i64\n"
                   f"    %s{i} = arith.addi %a, %k{i} : i64\n    handshake.sink %s{i} : i64\n"
                   for i in range(4))
    xors = "".join(f"    %x{i} = arith.xori %a, %b : i64\n    handshake.sink %x{i} : i64\n"
                   for i in range(5))
    body = _body("module {\n  handshake.func @k(%a: i64, %b: i64, %c: none) -> () {\n"
                 f"{adds}{xors}    handshake.return\n  }}\n}}\n")
    view = adg_view(preset("chess-4x4").build())
    m = map_dfg(body, view, seed=0)
    assert m.ok and check(m, view) == []
    assert m.problem.contraction is not None and m.problem.contraction.fallback
    assert all(p != [] for p in m.paths)   # nothing inside a unit: every edge routed
    assert map_stats(m).line().startswith("13 ops (fallback view: nothing folded)")


WIRES = ("module {\n  handshake.func @k(%a: i32, %b: index, %w: i64) -> (i1, i1, i1) {\n"
         "    %i = arith.index_cast %a : i32 to index\n"
         "    %p = arith.cmpi ult, %i, %b : index\n"
         "    %j = arith.index_cast %w : i64 to index\n"
         "    %q = arith.cmpi ult, %j, %b : index\n"
         "    %t = arith.index_cast %a : i32 to index\n"
         "    %f:2 = fork [2] %t : index\n"
         "    %r = arith.cmpi ult, %f#0, %f#1 : index\n"
         "    handshake.return %p, %q, %r : i1, i1, i1\n  }\n}\n")


def test_a_wire_cast_of_one_use_is_read_by_its_ops_unit(units):
    # inside a fabric an index is 32 bits (design.md section 3): i32 -> index
    # is the same bits, i64 -> index their low half; a cast of two uses stays
    sw = dfg_graph(_body(WIRES))
    casts = [n.id for n in sw.nodes if n.op_name == "arith.index_cast"]
    cmps = [n.id for n in sw.nodes if n.op_name == "arith.cmpi"]
    view = contract(sw, units)
    assert view.host == {casts[0]: cmps[0], casts[1]: cmps[1]}
    assert view.wired == {casts[0], casts[1]}
    into = next(e for e in sw.edges if e.dst == casts[0])
    inner = next(e for e in sw.edges if e.src == casts[0])
    assert (view.graph.edges[into.id].dst, view.graph.edges[into.id].dst_index) == (cmps[0], 0)
    assert view.graph.edges[inner.id].internal
    assert view.ops == sum(1 for n in sw.nodes if n.kind == "op") - 2


@pytest.mark.parametrize("source", ["i32", "i64"])
def test_a_mapped_wire_is_routed_to_its_ops_unit_and_reported(source):
    # the wire's host: the cast back to i64 (a sign extension, no wire); an
    # i64's 64 bits cross the network and the index port of the cast back
    # takes the low 32 (C2 judges that port by the wire's result)
    body = _body(f"module {{\n  handshake.func @k(%a: {source}) -> (i64) {{\n"
                 f"    %i = arith.index_cast %a : {source} to index\n"
                 "    %r = arith.index_cast %i : index to i64\n"
                 "    handshake.return %r : i64\n  }\n}\n")
    view = adg_view(preset("chess-2x2").build())
    m = map_dfg(body, view, seed=0)
    assert m.ok and check(m, view) == []
    wire, back = [n.id for n in m.sw.nodes if n.op_name == "arith.index_cast"]
    assert m.placement.chosen[wire] is None and m.option_of(wire) is m.placement.chosen[back]
    into = next(e for e in m.sw.edges if e.dst == wire)      # the DFG's ids
    inner = next(e for e in m.sw.edges if e.src == wire)
    assert m.paths[into.id] and m.paths[inner.id] == []      # %a routed to the cast back
    assert "1 casts wires" in map_stats(m).line()


@pytest.mark.parametrize("cast,wire", [
    ("arith.index_cast %v : i64 to index", True),     # 64 -> 32 bits: the low ones
    ("arith.trunci %v : i64 to i8", True),
    ("arith.index_cast %i : index to i32", True),     # 32 -> 32
    ("arith.index_cast %i : index to i64", False),    # a sign extension
    ("arith.index_castui %n : i16 to index", False),  # a zero extension of an argument
    ("arith.extsi %n : i16 to i64", False),
])
def test_a_wire_keeps_or_drops_high_bits_only(cast, wire):
    body = _body("module {\n  handshake.func @k(%v: i64, %i: index, %n: i16) -> () {\n"
                 f"    %c = {cast}\n    handshake.sink %c : {cast.split()[-1]}\n"
                 "    handshake.return\n  }\n}\n")
    (op,) = [op for op in body.ops if op.name.startswith("arith.")]
    assert is_wire(op) is wire


def _extension(lines: str, args: str = "%a: i32, %b: i32, %n: i16, %m: i16, %c: i1, %e: i32"):
    """The wired set of a body whose `%x = arith.extui ...` feeds `%y = addi %x, %e`."""
    body = _body(f"module {{\n  handshake.func @k({args}) -> (i32) {{\n{lines}"
                 "    %y = arith.addi %x, %e : i32\n"
                 "    handshake.return %y : i32\n  }\n}\n")
    sw = dfg_graph(body)
    (ext,) = [n.id for n in sw.nodes if n.op_name == "arith.extui"]
    return ext in contract(sw, UnitKinds.of([])).wired


@pytest.mark.parametrize("lines,wire", [
    # a compare's i1 is 0 or 1 on any unit: its zero extension is the same bits
    ("    %p = arith.cmpi ult, %a, %b : i32\n    %x = arith.extui %p : i1 to i32\n", True),
    # through a branch, which moves the bits it gets
    ("    %p = arith.cmpi ult, %a, %b : i32\n"
     "    %t, %f = handshake.cond_br %c, %p : i1\n    handshake.sink %f : i1\n"
     "    %x = arith.extui %t : i1 to i32\n", True),
    # a kernel argument's bits above 16 are the harness's
    ("    %x = arith.extui %n : i16 to i32\n", False),
    # an i16 add on a wider unit leaves its carry in bit 16
    ("    %s = arith.addi %n, %m : i16\n    %x = arith.extui %s : i16 to i32\n", False),
    # a carry is clean when what enters it is, its loop's back edge included
    ("    %p = arith.cmpi ult, %a, %b : i32\n"
     "    %v = dataflow.carry %c, %p, %q : i1, i1, i1 -> i1\n"
     "    %v2:3 = fork [3] %v : i1\n"
     "    %q = arith.cmpi eq, %v2#0, %v2#2 : i1\n"
     "    %x = arith.extui %v2#1 : i1 to i32\n", True),
    ("    %p = arith.cmpi ult, %a, %b : i32\n"
     "    %v = dataflow.carry %c, %p, %q : i1, i1, i1 -> i1\n"
     "    %v2:2 = fork [2] %v : i1\n"
     "    %q = arith.xori %v2#0, %c : i1\n"
     "    %x = arith.extui %v2#1 : i1 to i32\n", False),
])
def test_a_zero_extension_of_a_clean_value_is_a_wire(lines, wire):
    assert _extension(lines) is wire


def test_the_binary_searchs_extensions_are_wires(tmp_path):
    # bsearch_u16 extends two compares' results and two 16-bit table elements
    # (one through a branch and the loop's invariant): all clean, all wires
    sw = dfg_graph(kernel_func(str(KERNELS / "bsearch_u16.c"), tmp_path).regions[0].block)
    exts = {n.id for n in sw.nodes if n.op_name == "arith.extui"}
    assert len(exts) == 4
    assert exts <= contract(sw, UnitKinds.of([])).wired


def _branches_pe(*units):
    b = AdgBuilder("branches")
    pe = b.define_pe("pe", 3, 4, 64, list(units))
    b.instance(pe, "pe_0")
    for k in range(3):
        b.connect(b.add_input(f"i{k}", bits(64)), PortRef("pe_0", k))
    for k in range(4):
        b.connect(PortRef("pe_0", k), b.add_output(f"o{k}", bits(64)))
    return UnitKinds.of(hw_units(adg_view(b.build())))


BR, BR2 = fu.cond_br("fu_br", "i32"), fu.cond_br_pair("fu_br2", "i32")


def _branches(conds: str = "%f#0, %f#1", second: str = "%b") -> str:
    return ("module {\n  handshake.func @k(%c: i1, %d: i1, %a: i32, %b: i32) -> "
            "(i32, i32, i32, i32) {\n"
            "    %f:2 = fork [2] %c : i1\n"
            f"    %t0, %e0 = handshake.cond_br {conds.split(', ')[0]}, %a : i32\n"
            f"    %t1, %e1 = handshake.cond_br {conds.split(', ')[1]}, {second} : i32\n"
            "    handshake.return %t0, %e0, %t1, %e1 : i32, i32, i32, i32\n  }\n}\n")


def test_two_branches_on_one_condition_are_a_pair():
    sw = dfg_graph(_body(_branches()))
    first, second = (n for n in sw.nodes if n.op_name == "handshake.cond_br")
    units = _branches_pe(BR, BR2)
    # read off fu_br2's body: %arg0 the condition both take, %arg1 the first
    # branch's value, %arg2 the second's (the host's extra operand 2 + 1);
    # yields: the first's true and false, the second's (extra results 2, 3);
    # or the halves the other way round
    assert [(c.unit, c.inputs, c.outputs) for c in candidates(
        first.op, units, partner=Partner(second.op, (0,)))] == [
        ("fu_br2", (0, 1, 3), (0, 1, 2, 3)), ("fu_br2", (0, 3, 1), (2, 3, 0, 1))]
    view = contract(sw, units)
    assert view.host == {second.id: first.id}
    assert view.partner == {first.id: Partner(second.op, (0,))}
    into = {e.dst_index: view.graph.edges[e.id] for e in sw.in_edges(second.id)}
    assert into[0].internal and (into[1].dst, into[1].dst_index) == (first.id, 3)
    out = sorted((view.graph.edges[e.id].src, view.graph.edges[e.id].src_index)
                 for e in sw.out_edges(second.id))
    assert out == [(first.id, 2), (first.id, 3)]
    assert view.ops == 1


@pytest.mark.parametrize("text,units", [
    (_branches(), (BR,)),                              # no unit holds two
    (_branches("%c, %d"), (BR, BR2)),                  # two conditions
    (_branches(second="%t0"), (BR, BR2)),              # the first feeds the second
])
def test_branches_pair_only_on_one_condition_and_a_unit_of_two(text, units):
    sw = dfg_graph(_body(text))
    view = contract(sw, _branches_pe(*units))
    assert view.partner == {} and view.ops == 2


def test_a_mapped_pair_shares_one_unit_and_map_json_says_so(tmp_path):
    view = adg_view(preset("chess-2x2-p").build())
    m = map_dfg(_body(_branches()), view, seed=0)
    assert m.ok and check(m, view) == []
    first, second = (n.id for n in m.sw.nodes if n.op_name == "handshake.cond_br")
    host = m.placement.chosen[first]
    assert m.placement.chosen[second] is None and m.option_of(second) is host
    assert host.candidate.unit == "fu_cond_br2"
    doc = json.loads(write_artifacts(m, view, tmp_path, "k.chess-2x2-p").paths["map.json"]
                     .read_text())
    (unit,) = [u for u in doc["techmap"]["selected_units"] if first in u["sw_nodes"]]
    assert sorted(unit["sw_nodes"]) == sorted([first, second])


def test_branches_on_copies_of_one_wire_cast_are_a_pair():
    # wire_casts.py builds a cast of several uses once per use: two
    # truncations of one value are one condition; the second copy's edges
    # are intra-FU (its cast's own and, shared, the one into it)
    text = ("module {\n  handshake.func @k(%w: i32, %a: i32, %b: i32) -> "
            "(i32, i32, i32, i32) {\n"
            "    %f:2 = fork [2] %w : i32\n"
            "    %c0 = arith.trunci %f#0 : i32 to i1\n"
            "    %c1 = arith.trunci %f#1 : i32 to i1\n"
            "    %t0, %e0 = handshake.cond_br %c0, %a : i32\n"
            "    %t1, %e1 = handshake.cond_br %c1, %b : i32\n"
            "    handshake.return %t0, %e0, %t1, %e1 : i32, i32, i32, i32\n  }\n}\n")
    sw = dfg_graph(_body(text))
    first, second = (n.id for n in sw.nodes if n.op_name == "handshake.cond_br")
    casts = [n.id for n in sw.nodes if n.op_name == "arith.trunci"]
    view = contract(sw, _branches_pe(BR, BR2))
    assert view.host == {casts[0]: first, casts[1]: first, second: first}
    assert view.ops == 1
    into, own = (next(e for e in sw.edges if e.dst == casts[1]),
                 next(e for e in sw.edges if e.src == casts[1]))
    assert view.graph.edges[into.id].internal and view.graph.edges[own.id].internal
    view = adg_view(preset("chess-2x2-p").build())
    m = map_dfg(_body(text), view, seed=0)
    assert m.ok and check(m, view) == []
    assert "1 op pairs sharing a unit" in map_stats(m).line()
