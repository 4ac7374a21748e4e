"""LOOM's own unit cases through our `loom map` (issue 31 item 5).

Each case of PolyArch/loom's tests/unit with a dfg.mlir and a fabric.mlir
(read from the local mirror, as tests/dialects/test_fabric_loom.py does) is
run as a new user would: `loom map dfg.mlir --adg fabric.mlir -o DIR`, with
the options of the case's loom.args that our `loom map` takes under LOOM's
names (mapper/snapshots.py LOOM_FLAGS; the others are LOOM's alone).
LOOM maps the case unless it carries an expect-fail.txt; the case behaves
as in LOOM when we map exactly the cases LOOM maps, and refuse the others
in one line with exit status 2 (never a traceback). Where LOOM's
expect-fail.txt names a constraint (`C3: ...`), the column `label` says
whether ours names the same. Where the case carries a check.py, it runs on
our artifacts under LOOM's names (`dfg.map.json`, `dfg.config.json`,
`dfg.viz.html`). Cases whose ADG LOOM's C++ builder generates (no
fabric.mlir) are counted apart.

Columns: case, LOOM (maps | refuses), ours (exit status), as LOOM (yes |
no), label (same | other | -), check (pass | fail | -), and our first
error line, cut.

    tools/run python bench/loom_cases.py [CASE ...] [--mirror GITDIR]
"""

from __future__ import annotations

import argparse
import re
import subprocess
import sys
import tempfile
from dataclasses import dataclass
from pathlib import Path

from loom.mapper.snapshots import loom_flags

MIRROR = Path("/work/.mirror/PolyArch+loom/repo")
LABEL = re.compile(r"\bC(\d+)\b")


@dataclass(frozen=True)
class Outcome:
    case: str
    loom_maps: bool
    status: int
    label: str
    check: str
    line: str

    @property
    def as_loom(self) -> bool:
        return self.status == (0 if self.loom_maps else 2)


def _git(mirror: Path, *args: str) -> str:
    return subprocess.run(["git", "--git-dir", str(mirror), *args], capture_output=True,
                          text=True, check=True).stdout


def _git_dir(mirror: Path) -> Path:
    return mirror / ".git" if (mirror / ".git").is_dir() else mirror


def run_case(mirror: Path, case: str, files: set[str], work: Path) -> Outcome:
    d = work / case
    d.mkdir(parents=True)
    for name in files:
        (d / name).write_text(_git(mirror, "show", f"HEAD:tests/unit/{case}/{name}"))
    expect = [line.strip() for line in (d / "expect-fail.txt").read_text().splitlines()
              if line.strip() and not line.startswith("#")] if "expect-fail.txt" in files else []
    args = loom_flags((d / "loom.args").read_text().split()) if "loom.args" in files else []
    run = subprocess.run(["loom", "map", str(d / "dfg.mlir"), "--adg", str(d / "fabric.mlir"),
                          "-o", str(d / "out"), "--no-progress", *args],
                         capture_output=True, text=True)
    lines = run.stderr.strip().splitlines()
    first = lines[0] if lines else ""
    if "Traceback" in run.stderr:
        first = "TRACEBACK " + lines[-1]
    wanted = {m for pattern in expect for m in LABEL.findall(pattern)}
    got = set(LABEL.findall(first.split("error:", 1)[-1][:12]))
    label = "-" if not wanted else "same" if wanted <= got else "other"
    check = "-"
    if "check.py" in files and run.returncode == 0:
        out = d / "out"
        for suffix in ("map.json", "config.json", "viz.html"):
            (out / f"dfg.{suffix}").symlink_to(f"dfg.fabric.{suffix}")
        ran = subprocess.run([sys.executable, str(d / "check.py"), case, str(out)],
                             capture_output=True, text=True)
        check = "pass" if ran.returncode == 0 else "fail"
    return Outcome(case, not expect, run.returncode, label, check, first)


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("cases", nargs="*", help="case names (default: every case)")
    ap.add_argument("--mirror", type=Path, default=MIRROR, help=f"the mirror (default {MIRROR})")
    args = ap.parse_args()
    mirror = _git_dir(args.mirror)
    listing = _git(mirror, "ls-tree", "-r", "--name-only", "HEAD", "tests/unit").split()
    by_case: dict[str, set[str]] = {}
    for path in listing:
        parts = path.split("/")
        if len(parts) == 4:
            by_case.setdefault(parts[2], set()).add(parts[3])
    cases = sorted(c for c, f in by_case.items() if "dfg.mlir" in f)
    if args.cases:
        cases = [c for c in cases if c in args.cases]
    built = [c for c in cases if "fabric.mlir" not in by_case[c]]
    runnable = [c for c in cases if "fabric.mlir" in by_case[c]]
    outcomes = []
    with tempfile.TemporaryDirectory() as tmp:
        print(f"{'case':44s} {'LOOM':7s} {'ours':4s} {'as LOOM':7s} {'label':5s} {'check':5s}  "
              "our first error line")
        print("-" * 130)
        for k, case in enumerate(runnable, 1):
            print(f"[{k}/{len(runnable)}] {case}", file=sys.stderr, flush=True)
            o = run_case(mirror, case, by_case[case], Path(tmp))
            outcomes.append(o)
            print(f"{o.case:44s} {'maps' if o.loom_maps else 'refuses':7s} {o.status:<4d} "
                  f"{'yes' if o.as_loom else 'NO':7s} {o.label:5s} {o.check:5s}  "
                  f"{o.line[-70:]}", flush=True)
    print("-" * 130)
    same = sum(o.as_loom for o in outcomes)
    checks = [o for o in outcomes if o.check != "-"]
    labels = [o for o in outcomes if o.label != "-"]
    print(f"{same} of {len(outcomes)} cases behave as in LOOM; check.py passes on "
          f"{sum(o.check == 'pass' for o in checks)} of {len(checks)} run; the constraint "
          f"LOOM names matches on {sum(o.label == 'same' for o in labels)} of {len(labels)}; "
          f"tracebacks: {sum('TRACEBACK' in o.line for o in outcomes)}; "
          f"{len(built)} more cases have their ADG from LOOM's C++ builder (not run)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
