"""Front-end stage times per kernel, the SCF constructs each kernel produces, and
the SCF/CF reference-run times. Prints a table; not a test.

    tools/run python bench/frontend_stages.py [kernel ...]
"""

from __future__ import annotations

import re
import sys
import tempfile
import time
from pathlib import Path

from loom.bundle import compare
from loom.frontend.driver import compile_kernel
from loom.frontend.reference import run_reference

STAGES = ("clang", "import", "raise", "scf", "native")


def main(names: list[str]) -> int:
    root = Path(__file__).resolve().parents[1]
    names = names or sorted(p.stem for p in (root / "kernels").glob("*.c"))
    print(f"{'kernel':<20}" + "".join(f"{s:>8}" for s in STAGES)
          + f"{'scf run':>9}{'cf run':>8}  match  constructs")
    with tempfile.TemporaryDirectory() as tmp:
        for name in names:
            times: dict[str, float] = {}
            arts = compile_kernel(root / "kernels" / f"{name}.c", None, [], [], Path(tmp) / name,
                                  progress=lambda stage, path, s: times.__setitem__(stage, s))
            runs, ok = [], True
            for path in (arts.scf_mlir, arts.cf_mlir):
                t = time.perf_counter()
                ok &= not compare(arts.bundle, run_reference(path, arts.bundle, arts.top))
                runs.append(time.perf_counter() - t)
            scf = arts.scf_mlir.read_text()
            counts = {k: len(re.findall(r"\bscf\." + k + r"\b", scf))
                      for k in ("for", "while", "if")}
            kinds = " ".join(f"{k}x{n}" for k, n in counts.items() if n)
            print(f"{name:<20}" + "".join(f"{times.get(s, 0):8.2f}" for s in STAGES)
                  + f"{runs[0]:9.2f}{runs[1]:8.2f}  {'yes' if ok else 'NO':<5}  {kinds}")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
