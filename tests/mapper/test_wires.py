"""loom.mapper.wires through Mapping.wires: one wire per routed step, chosen
again when a path changes."""

from __future__ import annotations

from tests.mapper.test_checks import ADD, _mapped


def _steps(m) -> set[tuple[int, int]]:
    return {(a, b) for path in m.paths if path is not None and path[0] != path[-1]
            for a, b in zip(path[0::2], path[1::2])}


def test_every_routed_step_has_an_adg_wire_between_its_ports():
    m, _ = _mapped()
    assert set(m.wires) == _steps(m)
    assert all((w.src, w.dst) == step for step, w in m.wires.items())


def test_a_path_edited_after_the_wires_were_read_gets_its_own():
    # the muli(b, b) kernel of test_checks' C11 case, its second operand
    # rerouted through switch output 4 (an ADG wire the first route did not use)
    m, _ = _mapped(ADD.replace("arith.addi %a, %b", "arith.muli %b, %b"))
    before = dict(m.wires)
    m.paths[1] = [1, 3, 4, 10]
    assert (4, 10) not in before and set(m.wires) == _steps(m)
    wire = m.wires[(4, 10)]
    assert (wire.src, wire.dst) == (4, 10)
    assert any((e.src, e.dst) == (4, 10) for e in m.adg.edges)
