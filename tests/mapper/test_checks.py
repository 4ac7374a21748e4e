"""C1-C11 on deliberately broken mappings of test_placement's hand-worked
case (add(a, b) on test_adg_graph's ADG; ports: module inputs 0, 1; sw_0
inputs 2, 3 and outputs 4, 5, input 0 reaching output 0 only; fu_add 6, 7
-> 8; fu_mul 9, 10 -> 11; module output 12). Each break violates exactly
the constraint's definition (LOOM's spec-mapper-model.md)."""

from __future__ import annotations

from dataclasses import replace

from loom.dialects.fabric_types import BitsType
from loom.mapper.checks import check
from loom.mapper.config_values import fabric_config
from loom.mapper.mapping import map_dfg
from loom.fabric.adg_view import adg_view
from tests.mapper.test_placement import ADD, _adg_module, _body


def _mapped(text: str = ADD):
    module = _adg_module()
    m = map_dfg(_body(text), adg_view(module), seed=0)
    return m, module


def _labels(m, module, config=None) -> list[str]:
    return [v.line() for v in check(m, adg_view(module), config)]


def test_a_legal_mapping_has_no_violation():
    m, module = _mapped()
    assert m.ok and _labels(m, module, fabric_config(m, adg_view(module))) == []


def test_c1_unplaced_node_and_wrong_unit():
    m, module = _mapped()
    m.placement.chosen[2] = None
    assert "C1: unmapped node 2" in _labels(m, module)
    m, module = _mapped()
    mul, _ = _mapped(ADD.replace("arith.addi", "arith.muli"))
    m.placement.chosen[2] = mul.placement.chosen[2]  # the add on fu_mul
    assert "C1: node 2 (arith.addi) cannot run on fu_mul of pe_0" in _labels(m, module)


def test_c2_a_port_narrower_than_the_value():
    m, module = _mapped()
    m.adg.ports[4] = replace(m.adg.ports[4], type=BitsType(16))  # i32 through 16 bits
    assert _labels(m, module) == ["C2: edge 0 (i32) does not fit hw_port 4 (!fabric.bits<16>)"]


def test_c3_unrouted_edge_and_illegal_step():
    m, module = _mapped()
    m.paths[0] = None
    assert _labels(m, module) == ["C3: unrouted edge 0"]
    m, module = _mapped()
    m.paths[0] = [0, 2, 5, 6]  # sw input 0 does not reach output 1
    assert "C3: edge 0 steps from hw_port 2 to hw_port 5, which no switch connects" in \
        _labels(m, module)


def test_c4_two_sources_on_one_port():
    m, module = _mapped()
    m.paths[1] = [1, 3, 4, 7]  # b also through switch output 4, which carries a
    assert "C4: routing overuse on hw_port 4 with 2 logical sources, at sw_0 output 0" in \
        _labels(m, module)


def test_c6_a_value_the_slice_cannot_encode():
    m, module = _mapped()
    o = m.placement.chosen[2]
    bad = replace(o.candidate, fields=(("fu.0.value", 7),))  # fu_add has no payload
    m.placement.chosen[2] = replace(o, candidate=bad)
    labels = _labels(m, module, fabric_config(m, adg_view(module)))
    assert any(x.startswith("C6: slice pe_0:") and "no config field fu.0.value" in x
               for x in labels)


def test_c8_two_active_units_in_one_pe():
    text = ADD.replace("return %s : i32", "%p = arith.muli %a, %b : i32\n    return %s : i32")
    m, module = _mapped(text)
    mul, _ = _mapped(ADD.replace("arith.addi", "arith.muli"))
    m.placement.chosen[3] = mul.placement.chosen[2]  # the muli on fu_mul, beside the add
    assert "C8: multiple active function_unit instances in spatial_pe pe_0" in \
        _labels(m, module)


def test_c10_a_route_through_a_unit():
    m, module = _mapped()
    m.paths[0] = [0, 2, 4, 6, 8, 12, 7]
    assert any(x.startswith("C10: routed edge 0 illegally traverses functional node fu_add")
               for x in _labels(m, module))


def test_c11_fanout_outside_a_switch():
    # muli(b, b) routed legally branches at the switch input; branching at
    # switch output 4 (PE input 0 feeding both unit inputs) is a broadcast
    # outside a switch
    m, module = _mapped(ADD.replace("arith.addi %a, %b", "arith.muli %b, %b"))
    assert _labels(m, module) == []
    m.paths[1] = [1, 3, 4, 10]
    assert "C11: routing source port 4 fans out to multiple next hops (9 and 10)" in \
        _labels(m, module)
