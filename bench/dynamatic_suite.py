"""Dynamatic's own integration kernels: our ideal cycles against its FPGA20 cycles.

EPFL Dynamatic's integration tests (integration-test/<kernel>/<kernel>.c and
<kernel>.h) at the commit its performance report was published at (default
a1d6b1195, see /work/shared/anchors/README.md) are extracted from a Dynamatic
git directory into OUT/src/ (`git archive COMMIT integration-test`). The
kernel files are unchanged; their `#include "dynamatic/Integration.h"` finds
OUT/include/dynamatic/Integration.h (`loom sim -I OUT/include`), one line
that makes `CALL_KERNEL(k, ...)` a plain call. Every kernel with a figure in
the anchors TSV (column cycles_fpga20; with --all every kernel) runs the
whole flow, one at a time under `--lock FILE` (flock) when given:

    loom sim OUT/src/integration-test/K/K.c -I OUT/include --ideal -o OUT/run/K

(the ideal profile: inputs never idle, outputs always ready, memory ready
every cycle, every response exactly one cycle after its request; checked
channel by channel like any run), then once more with `--seed S` in place
of `--ideal` for each `--seed S` given (random stalls and memory latency);
the output of all of them goes to OUT/log/K.log. Integer kernels only by
default: a kernel is float when its .c or .h has the word `float` or
`double` (`--kind float` or `--kind all` runs those). Columns:

  status   pass (every run passed); fail (a mismatch, deadlock or failing
           golden run: exit 1, or any other exit status, of any run);
           refused (exit 2: the flow does not take the C, with its one-line
           `file:line: error:` message, paths relative to
           OUT/src/integration-test)
  cycles   cycles of our ideal run (reset to the last token, as `loom sim`
           prints them), also on a fail when the run got that far
  seeds    the stall seeds run and passed (`-` when none was asked for)
  fpga20   Dynamatic's simulated cycles with FPGA20 buffer placement
           (performance.md at a1d6b1195, 5 ns clock); `-` without a figure
  ratio    cycles / fpga20 (below 1.00: fewer cycles than Dynamatic)
  reason   why a kernel is not a pass (first line of it)

Then a summary: kernels with a figure (and how many are float and left
out), passes, the geometric mean of the ratio over the passes, how many are at
or below 1.00 and which are above 1.25. Rows sorted by kernel name. Progress,
one line per kernel with its seconds, goes to stderr. Exit status 0 once the
table is printed, whatever the kernels did.

    tools/run python bench/dynamatic_suite.py [KERNEL ...] [--kind int|float|all]
        [--all] [--seed S ...] [--dynamatic GITDIR] [--commit a1d6b1195]
        [--anchors TSV] [--out gen/bench/dynamatic] [--lock /work/helpers/cpu.lock]
        [--ordering analysis|seed|lsq]
"""

from __future__ import annotations

import argparse
import math
import re
import shutil
import subprocess
import sys
import time
from dataclasses import dataclass
from pathlib import Path

from loom.ordering_modes import ORDERINGS
from loom.sim.runner import file_lock

ROOT = Path(__file__).resolve().parents[1]
DYNAMATIC = Path("/work/.mirror/EPFL-LAP+dynamatic/repo")
COMMIT = "a1d6b1195"
ANCHORS = ROOT.parent / "shared" / "anchors" / "dynamatic-fpga20-cycles.tsv"
WORK = ROOT / "gen" / "bench" / "dynamatic"
TESTS = "integration-test"
INTEGRATION_H = "#define CALL_KERNEL(k, ...) k(__VA_ARGS__)\n"
FLOAT_WORD = re.compile(r"\b(float|double)\b")
VERDICT = re.compile(r"^(PASS|FAIL): (\S+?):? (?:(?:ideal|seed \d+): (\d+) cycles)?")
SLOW = 1.25


@dataclass(frozen=True)
class Kernel:
    name: str
    source: Path        # integration-test/<name>/<name>.c
    is_float: bool


@dataclass
class Row:
    name: str
    status: str         # pass, fail or refused
    cycles: int | None
    fpga20: int | None
    reason: str
    seconds: float
    seeds: tuple[int, ...] = ()
    """The stall seeds that passed."""

    @property
    def ratio(self) -> float | None:
        return self.cycles / self.fpga20 if self.cycles is not None and self.fpga20 else None


class BenchInputError(Exception):
    """A missing or unreadable input: one line, exit status 2."""


def _log(msg: str) -> None:
    print(msg, file=sys.stderr, flush=True)


def read_anchors(path: Path) -> dict[str, int]:
    """kernel -> cycles_fpga20 of the anchors TSV (`#` lines are comments)."""
    figures: dict[str, int] = {}
    if not path.is_file():
        raise BenchInputError(f"{path}: error: no anchors file (--anchors)")
    for line in path.read_text().splitlines():
        fields = line.split("\t")
        if not line.strip() or line.startswith("#") or len(fields) < 2:
            continue
        figures[fields[0].strip()] = int(fields[1])
    return figures


def extract(gitdir: Path, commit: str, out: Path) -> Path:
    """integration-test/ at `commit` into OUT/src/ (a fresh copy); its path."""
    src = out / "src"
    shutil.rmtree(src / TESTS, ignore_errors=True)
    src.mkdir(parents=True, exist_ok=True)
    got = subprocess.run(["git", "--git-dir", str(gitdir), "archive", commit, TESTS],
                         capture_output=True)
    if got.returncode != 0:
        why = got.stderr.decode(errors="replace").strip().splitlines()
        raise BenchInputError(f"{gitdir}: error: cannot take {TESTS}/ at {commit} "
                              f"(--dynamatic, --commit): {why[-1] if why else 'git failed'}")
    archive = got.stdout
    subprocess.run(["tar", "-x", "-C", str(src)], input=archive, check=True)
    return src / TESTS


def write_header(out: Path) -> Path:
    """OUT/include/dynamatic/Integration.h (CALL_KERNEL as a plain call); the include dir."""
    include = out / "include"
    header = include / "dynamatic" / "Integration.h"
    header.parent.mkdir(parents=True, exist_ok=True)
    header.write_text(INTEGRATION_H)
    return include


def find_kernels(tests: Path) -> dict[str, Kernel]:
    """Each directory <k>/ holding <k>.c, with whether <k>.c or <k>.h uses floating point."""
    kernels = {}
    for d in sorted(p for p in tests.iterdir() if p.is_dir()):
        c = d / f"{d.name}.c"
        if not c.is_file():
            continue
        h = d / f"{d.name}.h"
        text = c.read_text(errors="replace") + (h.read_text(errors="replace") if h.is_file() else "")
        kernels[d.name] = Kernel(d.name, c, bool(FLOAT_WORD.search(text)))
    return kernels


def _last_line(text: str) -> str:
    return next((ln.strip() for ln in reversed(text.splitlines()) if ln.strip()), "")


def parse_run(code: int, stdout: str, stderr: str, tests: Path) -> tuple[str, int | None, str]:
    """(status, cycles, reason) from `loom sim`'s exit status and output."""
    cycles, reason = None, ""
    lines = stdout.splitlines()
    for i, line in enumerate(lines):
        m = VERDICT.match(line)
        if m:
            cycles = int(m.group(3)) if m.group(3) else None
            if m.group(1) == "FAIL":
                rest = [ln.strip() for ln in lines[i + 1:] if ln.strip()
                        and not ln.strip().startswith("report ")]
                reason = rest[0] if rest else line
    if code == 0 and cycles is not None:
        return "pass", cycles, ""
    if code == 2:
        errors = [ln for ln in stderr.splitlines() if ": error:" in ln]
        reason = errors[-1] if errors else _last_line(stderr)
        return "refused", None, reason.replace(f"{tests}/", "")
    if not reason:
        reason = f"exit {code}: {_last_line(stderr) or 'no verdict line'}"
    return "fail", cycles, reason


def _sim(k: Kernel, profile: list[str], include: Path, out: Path, lock: Path | None,
         ordering: str | None) -> tuple[list[str], subprocess.CompletedProcess]:
    cmd = [sys.executable, "-m", "loom.cli", "sim", str(k.source), "-I", str(include),
           *profile, "-o", str(out / "run" / k.name)]
    if ordering is not None:
        cmd += ["--ordering", ordering]
    with file_lock(lock):
        proc = subprocess.run(cmd, check=False, capture_output=True, text=True, cwd=ROOT)
    return cmd, proc


def run_kernel(k: Kernel, fpga20: int | None, include: Path, out: Path, tests: Path,
               lock: Path | None, ordering: str | None = None,
               seeds: tuple[int, ...] = ()) -> Row:
    """The ideal run, then one run per stall seed while they pass."""
    t = time.perf_counter()
    log = out / "log" / f"{k.name}.log"
    log.parent.mkdir(parents=True, exist_ok=True)
    text, passed = "", []
    cycles = None
    status, reason = "pass", ""
    for seed in (None, *seeds):
        profile = ["--ideal"] if seed is None else ["--seed", str(seed)]
        cmd, proc = _sim(k, profile, include, out, lock, ordering)
        text += f"$ {' '.join(cmd)}\n{proc.stdout}{proc.stderr}exit {proc.returncode}\n"
        status, got, reason = parse_run(proc.returncode, proc.stdout, proc.stderr, tests)
        if seed is None:
            cycles = got
        if status != "pass":
            reason = reason if seed is None else f"seed {seed}: {reason}"
            break
        if seed is not None:
            passed.append(seed)
    log.write_text(text)
    seconds = time.perf_counter() - t
    _log(f"dynamatic: {k.name}: {status}"
         + (f", {cycles} cycles" if cycles is not None else "")
         + (f" (FPGA20 {fpga20})" if fpga20 else "")
         + (f", seeds {','.join(map(str, passed))}" if passed else "")
         + f", {seconds:.0f} s")
    return Row(k.name, status, cycles, fpga20, reason, seconds, tuple(passed))


KINDS = ("int", "float", "all")


def select(kernels: dict[str, Kernel], figures: dict[str, int], names: list[str],
           kind: str, every: bool) -> list[Kernel]:
    """The kernels to run, sorted: of `kind`, with a figure unless `every`, in `names` if any."""
    def of_kind(k: Kernel) -> bool:
        return kind == "all" or k.is_float == (kind == "float")

    for n in names:
        why = ("no such kernel directory" if n not in kernels else
               "no FPGA20 figure (pass --all)" if n not in figures and not every else
               f"not of kind {kind} (--kind)" if not of_kind(kernels[n]) else "")
        if why:
            _log(f"dynamatic: {n}: skipped: {why}")
    return [k for n, k in sorted(kernels.items())
            if (every or n in figures) and of_kind(k) and (not names or n in names)]


def _fmt(v: object, width: int) -> str:
    return f"{'-' if v is None else v:>{width}}"


def print_table(rows: list[Row]) -> None:
    print(f"{'kernel':20} {'status':8} {'cycles':>8} {'seeds':>6} {'fpga20':>8} {'ratio':>6}"
          "  reason")
    print("-" * 85)
    for r in rows:
        ratio = f"{r.ratio:.2f}" if r.ratio is not None else None
        seeds = ",".join(map(str, r.seeds)) or None
        print(f"{r.name:20} {r.status:8} {_fmt(r.cycles, 8)} {_fmt(seeds, 6)} "
              f"{_fmt(r.fpga20, 8)} {_fmt(ratio, 6)}  {r.reason}".rstrip())
    print("-" * 85)


def print_summary(rows: list[Row], kernels: dict[str, Kernel], figures: dict[str, int],
                  commit: str) -> None:
    figured = [k for n, k in kernels.items() if n in figures]
    floats = sum(k.is_float for k in figured)
    missing = sorted(set(figures) - set(kernels))
    print(f"kernels at {commit}: {len(kernels)} ({sum(k.is_float for k in kernels.values())} "
          f"float); with an FPGA20 figure: {len(figured)} ({len(figured) - floats} integer, "
          f"{floats} float); run here: {len(rows)}"
          + (f"; figures without a kernel: {', '.join(missing)}" if missing else ""))
    print(f"pass {sum(r.status == 'pass' for r in rows)}, "
          f"fail {sum(r.status == 'fail' for r in rows)}, "
          f"refused {sum(r.status == 'refused' for r in rows)}")
    passed = [r for r in rows if r.status == "pass" and r.ratio]
    if not passed:
        return
    geo = math.exp(sum(math.log(r.ratio) for r in passed if r.ratio) / len(passed))
    slow = [f"{r.name} {r.ratio:.2f}" for r in passed if r.ratio and r.ratio > SLOW]
    print(f"geometric mean of cycles / fpga20 over the {len(passed)} passes with a figure: "
          f"{geo:.3f}")
    print(f"at or below 1.00: {sum(1 for r in passed if r.ratio and r.ratio <= 1.0)} "
          f"of {len(passed)}")
    print(f"above {SLOW:.2f}: {', '.join(slow) if slow else 'none'}")


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("kernels", nargs="*", help="kernel names (default: every one with a figure)")
    ap.add_argument("--dynamatic", type=Path, default=DYNAMATIC,
                    help=f"a Dynamatic git directory (default {DYNAMATIC})")
    ap.add_argument("--commit", default=COMMIT, help=f"the commit to take (default {COMMIT})")
    ap.add_argument("--anchors", type=Path, default=ANCHORS,
                    help=f"the FPGA20 cycles TSV (default {ANCHORS})")
    ap.add_argument("--out", type=Path, default=WORK, help=f"work directory (default {WORK})")
    ap.add_argument("--lock", type=Path, help="flock this file around each kernel's loom sim")
    ap.add_argument("--ordering", choices=ORDERINGS, default=None,
                    help="the memory ordering of every run (default: loom sim's)")
    ap.add_argument("--kind", choices=KINDS, default="int",
                    help="integer kernels, float ones (a .c or .h that says float or "
                         "double) or all (default: int)")
    ap.add_argument("--all", dest="every", action="store_true",
                    help="also the kernels without an FPGA20 figure")
    ap.add_argument("--seed", dest="seeds", type=int, action="append", default=[],
                    help="after the ideal run, run `loom sim --seed S` too (repeatable)")
    args = ap.parse_args(argv)
    out = args.out.resolve()
    try:
        figures = read_anchors(args.anchors)
        tests = extract(args.dynamatic, args.commit, out)
    except BenchInputError as e:
        print(e, file=sys.stderr)
        return 2
    include = write_header(out)
    kernels = find_kernels(tests)
    todo = select(kernels, figures, args.kernels, args.kind, args.every)
    _log(f"dynamatic: {len(todo)} kernels from {args.dynamatic} at {args.commit} into {out}")
    rows = [run_kernel(k, figures.get(k.name), include, out, tests, args.lock, args.ordering,
                       tuple(args.seeds)) for k in todo]
    print_table(rows)
    print_summary(rows, kernels, figures, args.commit)
    return 0


if __name__ == "__main__":
    sys.exit(main())
