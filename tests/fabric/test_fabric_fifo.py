"""fabric.fifo RTL (templates/fabric_fifo.sv.j2, storage from our fifo/oehb
unit templates) against the reference model: depth 1, and bypassable fifos
with the bypass bit set and clear at random (config through the cfg port),
under random input validity and output backpressure."""

import pytest

from loom.fabric.models.fifo import fifo
from loom.fabric.adg_view import adg_view
from tb.fabric_runner import FabricCase, random_tokens, run_fabric

pytestmark = pytest.mark.rtl

ADG = """
module {
  fabric.module @fifos(%a: i32, %b: !fabric.bits<64>, %c: i1) -> (i32, !fabric.bits<64>, i1) {
    %x = fabric.fifo @f1 [depth = 1] (%a) : (i32) -> (i32)
    %y = fabric.fifo @f3 [depth = 3, bypassable] (%b) : (!fabric.bits<64>) -> (!fabric.bits<64>)
    %z = fabric.fifo @f4 [depth = 4, bypassable] (%c) attributes {bypassed = true} : (i1) -> (i1)
    fabric.yield %x, %y, %z : i32, !fabric.bits<64>, i1
  }
}
"""
WIDTHS = [32, 64, 1]


def make_case(rng, layout, n):
    config = {name: {"bypassed": rng.randrange(2)} for name in ("f3", "f4")}
    case = FabricCase(config, {}, {}, {})
    for k, w in enumerate(WIDTHS):
        stream = random_tokens(rng, w, n)
        model = fifo({}, stream)
        case.inputs[f"in{k}"] = stream
        case.consumed[f"in{k}"] = model.consumed[0]
        case.outputs[f"out{k}"] = model.outputs[0]
    return case


def test_fifo_slices_follow_the_layout():
    from tb.fabric_runner import load_adg
    from loom.fabric.config_layout import fabric_layout
    layout = fabric_layout(adg_view(load_adg(ADG)))
    # only bypassable fifos have a slice (LOOM's ConfigGen): one word each
    assert [(s.name, s.word_offset, s.word_count) for s in layout.slices] == [
        ("f3", 0, 1), ("f4", 1, 1)]


def test_fifo_matches_model():
    cases = run_fabric("fifo", ADG, make_case, seed=1, tokens=150, episodes=6)
    assert {c.config["f3"]["bypassed"] for c in cases} == {0, 1}


@pytest.mark.slow
@pytest.mark.parametrize("seed", [2, 3])
def test_fifo_long(seed):
    run_fabric("fifo", ADG, make_case, seed=seed, tokens=1000, episodes=9)
