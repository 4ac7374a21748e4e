"""LOOM's own fabric files (tests/unit/*/fabric.mlir) through our fabric dialect.

Valid files must parse, verify and round-trip (print, parse again, same
text). A `*-invalid` case must be rejected with the message its
expect-fail.txt names, unless that message comes from a later LOOM stage
(mapper, config generation, command line): such a fabric is valid for the
dialect and must round-trip like the others. The files are read from the
LOOM mirror (see data/loom_fabric/README.md for why they are not copied).
"""

from __future__ import annotations

import os
import subprocess
from dataclasses import dataclass
from pathlib import Path

import pytest

from loom.diagnostics import LoomError
from loom.ir import parse, print_module, verify_module

MIRROR = Path(os.environ.get("LOOM_MIRROR", "/work/.mirror/PolyArch+loom/repo"))

LATER_STAGE = {
    "Routing failed": "mapper (routing)",
    "mapping failed": "mapper",
    "failed to place DFG node": "mapper (placement)",
    "Temporal function_unit config conflict": "config generation",
    "snapshot_interval_seconds and snapshot_interval_rounds cannot both be enabled":
        "mapper command-line options",
}
"""expect-fail messages that LOOM raises after the fabric verifier, by stage."""


@dataclass(frozen=True)
class Case:
    name: str
    text: str
    expect_fail: str | None


def _git(*args: str) -> str:
    return subprocess.run(["git", "-C", str(MIRROR), *args], check=True,
                          capture_output=True, text=True).stdout


def _cases() -> list[Case]:
    if not (MIRROR / "HEAD").exists():
        return []
    paths = _git("ls-tree", "-r", "--name-only", "HEAD", "tests/unit").split()
    cases = []
    for path in sorted(p for p in paths if p.endswith("/fabric.mlir")):
        folder = path.rsplit("/", 1)[0]
        fail = f"{folder}/expect-fail.txt"
        expect = _git("show", f"HEAD:{fail}").strip() if fail in paths else None
        cases.append(Case(folder.rsplit("/", 1)[1], _git("show", f"HEAD:{path}"), expect))
    return cases


CASES = _cases()


def _later_stage(message: str | None) -> str | None:
    if message is None:
        return None
    return next((stage for m, stage in LATER_STAGE.items() if m in message), None)


def _load(text: str, name: str) -> str:
    parsed = parse(text, name)
    verify_module(parsed.module, name, parsed.op_positions)
    return print_module(parsed.module)


@pytest.mark.skipif(not CASES, reason=f"LOOM mirror not found at {MIRROR} (set LOOM_MIRROR)")
@pytest.mark.parametrize("case", CASES, ids=[c.name for c in CASES])
def test_loom_fabric_file(case: Case) -> None:
    name = f"{case.name}/fabric.mlir"
    if case.expect_fail is not None and _later_stage(case.expect_fail) is None:
        with pytest.raises(LoomError) as info:
            _load(case.text, name)
        assert case.expect_fail in info.value.message
        assert info.value.loc is not None and info.value.loc.file == name and info.value.loc.line
        return
    printed = _load(case.text, name)
    assert _load(printed, "printed.mlir") == printed


@pytest.mark.skipif(not CASES, reason=f"LOOM mirror not found at {MIRROR} (set LOOM_MIRROR)")
def test_loom_fabric_suite_is_complete() -> None:
    # The mirror at 795a1be holds 101 fabric files: 61 round-trip (10 of them fail
    # later in LOOM, at mapping or config time), 40 are rejected by the dialect.
    rejected = [c for c in CASES if c.expect_fail and _later_stage(c.expect_fail) is None]
    assert len(CASES) >= 101 and len(rejected) >= 40
