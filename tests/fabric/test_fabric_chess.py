"""The whole chess-2x2 preset fabric, configured by hand-written fields
(through the config layout) to compute (a + b) * c: the sum in pe_0_0
(pe_alu_div's fu_alu configured to addi), the product in pe_1_1 (pe_alu's muli), five switches
routing, every other slice left at its reset value. Tokens are checked at the
module ports against Python arithmetic, under random validity and
backpressure, with the config streamed through the cfg port."""

from pathlib import Path

import pytest

from loom.fabric.presets import preset
from loom.rtl.units import ALU_OPS
from tb.fabric_runner import FabricCase, random_tokens, run_fabric

pytestmark = pytest.mark.rtl
MASK = (1 << 64) - 1

# (switch, input, output) hops, read off the preset's wiring:
# a = in0 at sw_0_0 input 3, b = in1 at sw_0_0 input 4, c = in3 at sw_0_1 input 6
ROUTES = [
    ("sw_0_0", 3, 2),   # a -> pe_0_0 p0
    ("sw_0_0", 4, 0),   # b -> sw_0_1 input 0
    ("sw_0_1", 0, 3),   # b -> pe_0_0 p1
    ("sw_1_1", 4, 7),   # a + b (pe_0_0 out 3) -> pe_1_1 p0
    ("sw_0_1", 6, 2),   # c -> sw_1_1 input 2
    ("sw_1_1", 2, 1),   # c -> sw_1_2 input 0
    ("sw_1_2", 0, 4),   # c -> pe_1_1 p1
    ("sw_2_2", 2, 3),   # (a + b) * c (pe_1_1 out 3) -> module output 3
]


def _pe(layout, name: str, fu: str, out: int, **fu_fields: int) -> dict[str, int]:
    s = layout.slice(name)
    opcode = [f.name for f in s.fu_layouts].index(fu)
    fields = s.unused() | {"enable": 1, "opcode": opcode, "in0.sel": 0, "in0.disconnect": 0,
                           "in1.sel": 1, "in1.disconnect": 0, "out0.sel": out,
                           "out0.disconnect": 0}
    return fields | {f"fu.{k}": v for k, v in fu_fields.items()}


def config(layout) -> dict[str, dict[str, int]]:
    cfg: dict[str, dict[str, int]] = {}
    for sw, i, o in ROUTES:
        name = f"route.o{o}.i{i}"
        assert name in {f.name for f in layout.slice(sw).fields}, (sw, name)
        cfg.setdefault(sw, {})[name] = 1
    # fu_alu's body: its constant (op 0) and the right operand's fabric.mux
    # (op 1; sel 0: the second input), one op per ALU_OPS entry, then the
    # op's fabric.mux (body op 10)
    cfg["pe_0_0"] = _pe(layout, "pe_0_0", "fu_alu", 3,
                        **{"1.sel": 0, f"{2 + len(ALU_OPS)}.sel": ALU_OPS.index("addi")})
    cfg["pe_1_1"] = _pe(layout, "pe_1_1", "fu_muli", 3)
    return cfg


def make_case(rng, layout, n):
    a, b, c = (random_tokens(rng, 64, n) for _ in range(3))
    expected = [((x + y) * z) & MASK for x, y, z in zip(a, b, c)]
    return FabricCase(config(layout), {"in0": a, "in1": b, "in3": c},
                      {"out0": [], "out1": [], "out2": [], "out3": expected},
                      {"in0": n, "in1": n, "in3": n})


def adg_text(tmp: Path) -> str:
    mlir, _ = preset("chess-2x2").write(tmp, "chess-2x2")
    return mlir.read_text()


def test_chess_2x2_computes_a_plus_b_times_c(tmp_path):
    run_fabric("chess_2x2", adg_text(tmp_path), make_case, seed=1, tokens=100, episodes=3)
