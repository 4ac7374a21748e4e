"""Post-route bufferization (loom.mapper.bufferization) on the `-f` presets,
whose PE outputs leave through bypassable fifos: what it bypasses keeps a
register on every ring (the direct flow's rule, design.md section 5), the
configuration words carry its choice, and the loop bounds only fall. The runs under random stalls are in
tests/sim/test_fabric_regression.py (BYPASS)."""

from __future__ import annotations

import pytest

from loom.fabric.adg_view import adg_view
from loom.fabric.config_layout import fabric_layout
from loom.fabric.presets import parse_preset, preset
from loom.mapper.bufferization import adg_bypassed
from loom.mapper.config_values import fabric_config
from loom.mapper.mapping import map_dfg
from loom.mapper.throughput import FabricTiming
from tests.mapper.test_precheck import kernel_func

PRESET = "chess-8x8-ext2-f"


@pytest.fixture(scope="module")
def view():
    return adg_view(preset(PRESET).build())


def _mapped(kernel: str, view, tmp_path):
    func = kernel_func(kernel, tmp_path, view.max_join_fanin)
    m = map_dfg(func.regions[0].block, view, seed=0)
    assert m.ok
    return m


def _route_fifos(m, edge: int) -> list[str]:
    return [hw.name for port in (m.paths[edge] or [])[1::2]
            if (hw := m.adg.nodes[m.adg.ports[port].node]).kind == "fifo"]


def test_the_f_suffix_puts_a_bypassable_fifo_on_every_pe_link(view):
    p = parse_preset(PRESET)
    assert p.pe_fifos and p.name == PRESET
    assert not parse_preset("chess-8x8-ext2").pe_fifos
    pes = view.of_kind("spatial_pe")
    fifos = view.of_kind("fifo")
    on_pes = [f for f in fifos if f.name.startswith("pe_")]
    assert len(on_pes) == sum(len(pe.outputs) + len(pe.inputs) for pe in pes)
    # and one on each switch link's backward direction: 9 rows of 8 links
    # between the 9 x 9 switches of an 8 x 8 mesh, and 9 columns of 8
    assert len(fifos) - len(on_pes) == 9 * 8 + 9 * 8
    assert all("bypassable" in f.definition.attributes for f in fifos)
    fed = {view.node_of(v.op).kind for pe in pes for v in pe.inputs}
    assert fed == {"fifo"}
    # each PE output's one consumer is its fifo, which is then its register
    assert not any(view.output_buffered(pe, k) for pe in pes for k in range(len(pe.outputs)))
    assert not adg_bypassed(view)


@pytest.mark.parametrize("kernel", ["sum_n", "dot", "fir", "collatz"])
def test_bypassed_fifos_keep_a_register_on_every_ring(kernel, view, tmp_path):
    m = _mapped(kernel, view, tmp_path)
    timing = FabricTiming.of(m, view)
    assert isinstance(timing, FabricTiming)
    assert m.bypassed
    assert timing.combinational(m.bypassed) == {}
    # the rule bites: every fifo on the routes bypassed closes a ring of wires
    every = frozenset(f for e in m.sw.edges for f in _route_fifos(m, e.id))
    assert timing.combinational(every)
    # and it is all that keeps a fifo buffered: each one left on a route
    # would leave a ring without a register
    for fifo in sorted(every - m.bypassed):
        assert timing.combinational(m.bypassed | {fifo}), fifo
    # bypassing only removes registers: no loop's bound grows
    before = {lp.loop: lp.ii for lp in timing.model(frozenset()).loops}
    after = {lp.loop: lp.ii for lp in timing.model(m.bypassed).loops}
    assert after.keys() == before.keys()
    assert all(after[k] <= before[k] for k in after)
    assert any(after[k] < before[k] for k in after)


def test_the_config_words_carry_the_bypass(view, tmp_path):
    m = _mapped("sum_n", view, tmp_path)
    config = fabric_config(m, view)
    layout = fabric_layout(view)
    decoded = layout.decode(config.words)
    set_bits = {name for name, fields in decoded.items() if fields.get("bypassed")}
    assert set_bits == m.bypassed
