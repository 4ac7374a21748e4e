"""Golden-model speed: op firings per second on one core.

Two DFGs from tests/golden/data: a 100k-iteration stream -> gate -> carry
loop (sum_loop) and a loop with memory traffic in two ctrl-done groups
(scale, 100k elements). Target: at least 300,000 firings/s.
Run: tools/run python bench/golden_speed.py
"""

from __future__ import annotations

import sys
import time
from pathlib import Path

from loom.bundle import Bundle, MemoryRegion, ScalarInput
from loom.golden.run import find_func, run_dfg
from loom.ir import parse_module

DATA = Path(__file__).resolve().parent.parent / "tests" / "golden" / "data"
N = 100_000
TARGET = 300_000


def _case(name: str, text: str, bundle: Bundle) -> tuple[str, int, float, float, bool]:
    module = parse_module(text, name)
    func = find_func(module, None, name)
    t0 = time.perf_counter()
    golden = run_dfg(func, bundle, name)
    total = time.perf_counter() - t0
    ex = golden.execution
    return name, ex.total_firings, ex.seconds, total, golden.ok


def main() -> int:
    rows = [
        _case("sum_loop (stream->gate->carry)", (DATA / "sum_loop.dfg.mlir").read_text(),
              Bundle("sum", scalar_inputs=[ScalarInput(0, [N])])),
        _case("scale (load/store, 2 groups)",
              (DATA / "scale.dfg.mlir").read_text().replace("16xi32", f"{N}xi32"),
              Bundle("scale", scalar_inputs=[ScalarInput(2, [3]), ScalarInput(3, [N])],
                     memory_regions=[MemoryRegion(0, 4, list(range(N))),
                                     MemoryRegion(1, 4, [0] * N)])),
    ]
    print(f"{'case':34} {'iterations':>10} {'firings':>10} {'run s':>7} {'build+run s':>11} "
          f"{'firings/s':>10} {'target':>8} ok")
    worst = min(f / s for _, f, s, _, _ in rows)
    for name, firings, secs, total, ok in rows:
        print(f"{name:34} {N:>10} {firings:>10} {secs:>7.3f} {total:>11.3f} "
              f"{firings / secs:>10,.0f} {TARGET:>8,} {'yes' if ok else 'NO'}")
    print(f"slowest: {worst:,.0f} firings/s ({'meets' if worst >= TARGET else 'MISSES'} "
          f"the {TARGET:,} target)")
    return 0 if all(ok for *_, ok in rows) else 1


if __name__ == "__main__":
    sys.exit(main())
