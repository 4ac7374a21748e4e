"""`loom fuzz`: random C kernels through every stage, a summary by outcome.

Writes DIR/fuzz.jsonl (one line per program, in seed order), copies every
failing program to DIR/failures/, and with --reduce shrinks each one with
C-Vise into DIR/reduced/, ready to drop into kernels/.
Exit status: 0 when no program failed, 1 otherwise.
"""

from __future__ import annotations

import argparse
import json
import shutil
import sys
import time
from collections import Counter
from concurrent.futures import ProcessPoolExecutor, as_completed
from pathlib import Path

from loom.fuzz.campaign import FAILURES, OUTCOMES, FuzzResult, run_seed_program
from loom.fuzz.generator import SIZES, FuzzConfig
from loom.fuzz.reduce import reduce_failure


def fuzz_main(args: argparse.Namespace) -> int:
    out = Path(args.out_dir or "gen/fuzz").resolve()
    work = out / "work"
    work.mkdir(parents=True, exist_ok=True)
    seeds = list(range(args.first_seed, args.first_seed + args.count))
    t0 = time.perf_counter()
    print(f"fuzz: {len(seeds)} programs (seeds {seeds[0]}..{seeds[-1]}), {args.jobs} jobs, "
          f"{args.size} size, {'golden only' if args.no_rtl else 'RTL with 2 stall seeds'}, "
          f"into {out}",
          flush=True)
    results = _run_all(seeds, work, not args.no_rtl, args.jobs, SIZES[args.size], args.keep)
    with open(out / "fuzz.jsonl", "w") as f:
        for r in results:
            f.write(json.dumps(r.to_json()) + "\n")
    failed = [r for r in results if r.failed]
    for r in failed:
        dest = out / "failures"
        dest.mkdir(exist_ok=True)
        shutil.copyfile(work / r.name / f"{r.name}.c", dest / f"{r.name}.c")
        if args.reduce:
            print(f"fuzz: reducing {r.name} ({r.outcome})", flush=True)
            print(f"  -> {reduce_failure(r, work, out / 'reduced')}", flush=True)
    _summary(results, time.perf_counter() - t0)
    return 1 if failed else 0


def _run_all(seeds: list[int], work: Path, rtl: bool, jobs: int,
             config: FuzzConfig, keep: bool) -> list[FuzzResult]:
    results: list[FuzzResult] = []
    with ProcessPoolExecutor(max_workers=max(1, jobs)) as pool:
        futures = [pool.submit(run_seed_program, s, work, rtl, config, keep) for s in seeds]
        for k, fut in enumerate(as_completed(futures), 1):
            r = fut.result()
            results.append(r)
            note = f": {r.detail[:160]}" if r.outcome != "pass" else ""
            print(f"[{k}/{len(seeds)}] seed {r.seed}: {r.outcome} ({r.seconds:.1f} s){note}",
                  flush=True)
    return sorted(results, key=lambda r: r.seed)


def _summary(results: list[FuzzResult], wall: float) -> None:
    counts = Counter(r.outcome for r in results)
    print(f"\n{'outcome':<14} {'programs':>8}")
    for outcome in OUTCOMES:
        if counts[outcome]:
            mark = "  <- failure" if outcome in FAILURES else ""
            print(f"{outcome:<14} {counts[outcome]:>8}{mark}")
    cycles = [c for r in results for c in r.cycles]
    print(f"{'total':<14} {len(results):>8}   wall {wall:.0f} s"
          + (f", RTL cycles per run: median {sorted(cycles)[len(cycles) // 2]}, "
             f"max {max(cycles)}" if cycles else ""))
    sys.stdout.flush()
