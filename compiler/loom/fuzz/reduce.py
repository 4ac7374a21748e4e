"""Shrinking a failing random kernel with C-Vise (Debian's `cvise`).

The interestingness test keeps a candidate only when it is still UB-free and
still fails with the same outcome (and, for a crash, the same exception), so
the reduced file reproduces the original failure. The result is written as a
ready-made regression kernel: the top keeps the file's stem, main() stays.
"""

from __future__ import annotations

import shlex
import shutil
import subprocess
import sys
from pathlib import Path

import loom
from loom.diagnostics import LoomError
from loom.fuzz.campaign import FuzzResult

CVISE_TIMEOUT_S = 1800


def signature(result: FuzzResult) -> str:
    """What a reduced program must keep: the outcome, and for a crash its exception
    and for undefined behaviour its kind."""
    if result.outcome in ("crash", "ub"):   # the exception's type / the UB's kind
        return f"{result.outcome} {result.detail.split(':', 1)[0]}"
    return result.outcome


def reduce_failure(result: FuzzResult, work: Path, dest: Path) -> Path:
    """C-Vise the program of `result` (in work/<name>/) into dest/<name>.c."""
    cvise = shutil.which("cvise")
    if cvise is None:
        raise LoomError("cvise is not installed (apt-get install cvise; make fuzz does it)")
    src = work / result.name / f"{result.name}.c"
    red_dir = work / result.name / "reduce"
    red_dir.mkdir(exist_ok=True)
    target = red_dir / src.name
    shutil.copyfile(src, target)
    test = red_dir / "interesting.sh"
    # The test runs in C-Vise's scratch directories: name this very loom package.
    package_root = Path(loom.__file__).resolve().parents[1]
    test.write_text("#!/usr/bin/env bash\n"
                    f"PYTHONPATH={shlex.quote(str(package_root))} "
                    f"exec {shlex.quote(sys.executable)} -m loom.fuzz.interesting "
                    f"{shlex.quote(signature(result))} {shlex.quote(src.name)}\n")
    test.chmod(0o755)
    proc = subprocess.run([cvise, "--n", "1", "--timeout", "300", str(test), target.name],
                          cwd=red_dir, capture_output=True, text=True,
                          timeout=CVISE_TIMEOUT_S, check=False)
    if proc.returncode != 0:
        last = (proc.stderr or proc.stdout).strip().splitlines()
        raise LoomError(f"cvise failed on {src}: {last[-1] if last else 'no output'}")
    dest.mkdir(parents=True, exist_ok=True)
    out = dest / src.name
    out.write_text(f"/* reduced by loom fuzz from seed {result.seed}: {result.outcome}: "
                   f"{result.detail[:200].replace('*/', '* /')} */\n" + target.read_text())
    return out
