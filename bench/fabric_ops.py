"""Ops per kernel as a fabric sees them: the DFG's, and those that need a PE
of their own on a preset's units (issue 31 item 1).

For each kernel of kernels/ (or those named), the DFG as `loom map`
compiles it for the preset (loom.mapper.kernel_compile.compile_for), and
its contracted view on the preset's function units (loom.mapper.contraction:
constants folded into their ops' units, casts that are wires folded into
their uses, branches paired). Columns:

  ops      DFG ops (handshake.func body ops but forks and sinks: dfg_graph's nodes)
  pe_ops   ops that need a PE (Contraction.ops)
  folded   constants folded into their ops' units
  wires    casts folded as wires
  pairs    ops paired with another in one unit (two branches on one condition)

Kernels the fabric flow refuses (a constant table) are listed below the
table with their one-line reason; totals are over the others. Takes about
a minute (every kernel compiled once, no simulation).

    tools/run python bench/fabric_ops.py [KERNEL ...] [--adg chess-16x16] [--out DIR]
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

from loom.diagnostics import LoomError
from loom.fabric.adg_view import adg_view
from loom.fabric.presets import preset
from loom.inputs import KernelSource
from loom.mapper.contraction import Contraction, contract
from loom.mapper.dfg_graph import dfg_graph
from loom.mapper.inventory import hw_units
from loom.mapper.kernel_compile import compile_for
from loom.mapper.matching import UnitKinds

ROOT = Path(__file__).resolve().parents[1]
KERNELS = ROOT / "kernels"
WORK = ROOT / "gen" / "bench" / "fabric_ops"


def contracted(kernel: str, units: UnitKinds, fanin: int, out: Path) -> Contraction:
    func, _ = compile_for(KernelSource(str(KERNELS / f"{kernel}.c"), out_dir=out / kernel),
                          fanin, need_bundle=False)
    return contract(dfg_graph(func.regions[0].block), units)


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("kernels", nargs="*", help="kernel names (default: every kernel)")
    ap.add_argument("--adg", default="chess-16x16", help="the preset whose units fold")
    ap.add_argument("--out", type=Path, default=WORK, help="where the kernels compile")
    args = ap.parse_args(argv)
    names = args.kernels or sorted(p.stem for p in KERNELS.glob("*.c") if p.stem != "helpers")
    view = adg_view(preset(args.adg).build())
    units = UnitKinds.of(hw_units(view))
    print(f"{'kernel':20} {'ops':>5} {'pe_ops':>6} {'folded':>6} {'wires':>5} {'pairs':>5}")
    print("-" * 52)
    totals = [0, 0]
    refused = []
    for name in names:
        try:
            c = contracted(name, units, view.max_join_fanin, args.out)
        except LoomError as e:
            refused.append(f"{name}: {e.message}")
            continue
        ops = sum(1 for n in c.dfg.nodes if n.kind == "op")
        totals[0] += ops
        totals[1] += c.ops
        print(f"{name:20} {ops:>5} {c.ops:>6} {c.constants:>6} {len(c.wired):>5} "
              f"{len(c.partner):>5}")
    print("-" * 52)
    print(f"{'total':20} {totals[0]:>5} {totals[1]:>6}")
    for line in refused:
        print(f"refused: {line}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
