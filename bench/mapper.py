"""Mapper bench: each kernel on the smallest preset it maps onto.

Per kernel: DFG ops (ops and memories), the preset (`auto`'s choice: the
first of `loom adg --list` that maps, skipping those the necessary-resource
pre-check rejects, or the one given with --adg), PEs and
switches used, routed hops (routing nodes crossed, summed over DFG edges),
the busiest switch's outputs in use, and the mapping time of that preset
(place, route, check; compile and ADG build excluded). A kernel no preset
hosts shows the first violated constraint on the last preset tried.
Targets (issue 13): up to 150 DFG ops in under 20 s; none over 120 s.

Run: tools/run python bench/mapper.py [KERNEL ...] [--adg PRESET] [--seed N] [--rounds N]
"""

from __future__ import annotations

import argparse
import sys
import tempfile
from pathlib import Path

from loom.cli import collect_less
from loom.diagnostics import LoomError
from loom.fabric.presets import presets
from loom.inputs import KernelSource
from loom.mapper.mapping import ROUNDS, Mapping
from loom.mapper.preset_fit import fit_presets
from loom.mapper.stats import map_stats

KERNELS = Path(__file__).resolve().parent.parent / "kernels"
SMALL_OPS, SMALL_SECONDS, ANY_SECONDS = 150, 20.0, 120.0


def _row(name: str, m: Mapping | None, adg: str, seconds: float, why: str) -> str:
    if m is None or not m.ok:
        ops = sum(1 for n in m.sw.nodes if n.kind in ("op", "memory")) if m else 0
        return f"{name:22} {ops:>5} {adg:18} {'-':>4} {'-':>5} {'-':>6} {'-':>14} " \
               f"{seconds:>7.2f}  {why}"
    s = map_stats(m)
    used, total = s.worst_outputs
    flag = "" if seconds <= (SMALL_SECONDS if s.ops <= SMALL_OPS else ANY_SECONDS) else \
        "  OVER TARGET"
    return (f"{name:22} {s.ops:>5} {adg:18} {s.pes:>4} {s.switches:>5} {s.hops:>6} "
            f"{s.worst_switch + f' {used}/{total}':>14} {seconds:>7.2f}{flag}")


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("kernels", nargs="*", help="kernel names (default: every kernels/*.c)")
    parser.add_argument("--adg", help="one preset for every kernel (default: auto)")
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--rounds", type=int, default=ROUNDS,
                        help=f"routing rounds at most (default {ROUNDS}, loom map --rounds)")
    opts = parser.parse_args()
    collect_less()   # as `loom map` runs: its map times are the command's
    names = opts.kernels or sorted(p.stem for p in KERNELS.glob("*.c"))
    targets = [opts.adg] if opts.adg else [p.name for p in presets()]
    print(f"{'kernel':22} {'ops':>5} {'preset':18} {'PEs':>4} {'sws':>5} {'hops':>6} "
          f"{'busiest sw':>14} {'map s':>7}")
    failed = 0
    with tempfile.TemporaryDirectory(prefix="loom-bench-map-") as tmp:
        for name in names:
            m, adg, seconds, why = None, "-", 0.0, "no preset"
            source = KernelSource(str(KERNELS / f"{name}.c"), out_dir=Path(tmp) / name)
            try:   # as `--adg auto` (or on the one preset given): mapper/preset_fit.py
                fit = fit_presets([source], opts.seed, opts.rounds, names=targets)
            except LoomError as err:
                why = f"compile: {err.message}"
            else:
                if fit.placed:
                    (placed,) = fit.placed
                    m, adg, seconds = placed.mapping, fit.name or "-", placed.seconds
                elif fit.passed_over:
                    last = fit.passed_over[-1]
                    m = last.failed[0] if last.failed else None
                    adg, seconds, why = last.preset, last.seconds, last.reason.message
            print(_row(name, m, adg, seconds, why), flush=True)
            failed += m is None or not m.ok
    print(f"{len(names) - failed} of {len(names)} kernels mapped")
    return 0


if __name__ == "__main__":
    sys.exit(main())
