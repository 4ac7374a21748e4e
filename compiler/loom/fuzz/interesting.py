"""C-Vise's interestingness test: exit 0 when the C file in the current
directory still fails with the given signature (see loom.fuzz.reduce).

    python -m loom.fuzz.interesting SIGNATURE FILE.c
"""

from __future__ import annotations

import sys
import tempfile
from pathlib import Path

from loom.fuzz.campaign import FuzzProgram, run_program
from loom.fuzz.reduce import signature


def main(argv: list[str]) -> int:
    wanted, file = argv
    src = Path(file)
    prog = FuzzProgram(src.stem, -1, src.read_text())
    with tempfile.TemporaryDirectory(prefix="loom-interesting-") as tmp:
        result = run_program(prog, Path(tmp), rtl=wanted.startswith("rtl") or
                             wanted.startswith("crash"))
    return 0 if signature(result) == wanted else 1


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
