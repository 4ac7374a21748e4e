"""Temporal PEs against spatial ones (issue 35 item 6): per kernel, the
smallest named temporal preset that maps it and the smallest spatial one,
their areas and the kernel's cycles on each under the ideal profile.

For each kernel (default: KERNELS) `fit_presets` (what `--adg auto` runs)
picks, among the named presets in `loom adg --list` order, the first
temporal one (a `-tpe<S>` name) and the first spatial one that map it; the
kernel then runs on both as `loom sim K --adg A --ideal` does
(bench/fabric_kernels.py's fabric_run: results, memories and every DFG
edge against the golden model). Columns:

  temporal, spatial   the two presets
  t.cells, s.cells    bench/fabric_area.py's total Yosys cells of each
                      (cached under gen/bench/fabric_area/; the first run
                      of a preset takes minutes), and `area` = t / s
  t.cyc, s.cyc        kernel cycles on each (config excluded), `cycles` = t / s
  t.II, s.II          the mappings' expected II (loom.mapper.throughput)

Issue 35's target: area at most 0.5 on the kernels that need the temporal
preset; the cycles are reported, not bounded. Progress goes to stderr.

    tools/run python bench/temporal_pes.py [KERNEL ...] [--lock FILE] [--no-area]
"""

from __future__ import annotations

import argparse
import sys
from dataclasses import dataclass
from pathlib import Path

from fabric_area import WORK as AREA_WORK
from fabric_kernels import WORK, FabricRun, fabric_run, preset_total
from loom.cli import collect_less
from loom.fabric.presets import presets
from loom.inputs import KernelSource
from loom.mapper.preset_fit import fit_presets
from loom.ordering_modes import FABRIC_ORDERING
from loom.sim.runner import file_lock

KERNELS = ["sum_n", "self_assign", "while_search", "while_sum", "factmod", "dot"]
"""The first five need 17 to 20 PEs of a spatial mesh, an 8x8 (`loom adg
--for` over kernels/ with 17 to 40 ops, 2026-11-30: the only ones a
temporal 4x4 hosts); dot fits a spatial 4x4 too (the row that shows what
temporal PEs cost where nothing needs them)."""


@dataclass
class Side:
    adg: str
    run: FabricRun
    cells: int | None


def _log(msg: str) -> None:
    print(msg, file=sys.stderr, flush=True)


def first_fit(kernel: str, temporal: bool) -> str | None:
    """The first named preset of the kind that maps `kernel` (fit_presets's choice)."""
    names = [p.name for p in presets() if bool(p.temporal_slots) == temporal]
    fit = fit_presets([KernelSource(kernel, out_dir=WORK / kernel / "fit")], names=names)
    return fit.name


def side(kernel: str, adg: str, lock: Path | None, with_area: bool) -> Side:
    with file_lock(lock):
        _log(f"temporal_pes: {kernel} on {adg}: map, fabric build, ideal run")
        run = fabric_run(kernel, adg, FABRIC_ORDERING)
    cells = None
    if with_area:
        _log(f"temporal_pes: area of {adg}")
        cells = preset_total(adg, lock).cells
    return Side(adg, run, cells)


def _ratio(a: float | None, b: float | None) -> str:
    return f"{a / b:.2f}" if a and b else "-"


def print_table(rows: list[tuple[str, Side | None, Side | None]]) -> None:
    head = (f"{'kernel':16} {'temporal':22} {'spatial':16} {'t.cells':>9} {'s.cells':>9} "
            f"{'area':>5} {'t.cyc':>6} {'s.cyc':>6} {'cycles':>6} {'t.II':>5} {'s.II':>5} ok")
    print(head)
    print("-" * len(head))
    for kernel, t, s in rows:
        if t is None or s is None:
            print(f"{kernel:16} {'-' if t is None else t.adg:22} {'-' if s is None else s.adg:16}"
                  "  (no preset of that kind maps it)")
            continue
        ok = t.run.run.ok and s.run.run.ok
        print(f"{kernel:16} {t.adg:22} {s.adg:16} {t.cells or '-':>9} {s.cells or '-':>9} "
              f"{_ratio(t.cells, s.cells):>5} {t.run.kernel_cycles:>6} {s.run.kernel_cycles:>6} "
              f"{_ratio(t.run.kernel_cycles, s.run.kernel_cycles):>6} "
              f"{t.run.expected_ii or 0:>5g} {s.run.expected_ii or 0:>5g} {'yes' if ok else 'NO'}")
    print("-" * len(head))
    for kernel, t, s in rows:
        for x in (t, s):
            for p in (x.run.run.problems[:3] if x else []):
                print(f"{kernel} on {x.adg}: {p}")


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("kernels", nargs="*", metavar="KERNEL",
                    help=f"kernel names (default: {' '.join(KERNELS)})")
    ap.add_argument("--lock", type=Path, help="flock this file around each run")
    ap.add_argument("--no-area", action="store_true", help="skip the presets' Yosys areas")
    args = ap.parse_args(argv)
    collect_less()
    WORK.mkdir(parents=True, exist_ok=True)
    AREA_WORK.mkdir(parents=True, exist_ok=True)
    rows = []
    for kernel in args.kernels or KERNELS:
        found = [first_fit(kernel, temporal) for temporal in (True, False)]
        t, s = (side(kernel, adg, args.lock, not args.no_area) if adg else None
                for adg in found)
        rows.append((kernel, t, s))
    print_table(rows)
    return 0 if all(t and s and t.run.run.ok and s.run.run.ok for _, t, s in rows) else 1


if __name__ == "__main__":
    sys.exit(main())
