"""The external LLVM tools of the front end (design.md section 1).

LLVM 22 is the primary toolchain and 19 the fallback; `LOOM_LLVM=19`
forces one version (the fallback test uses it). Every tool failure becomes a
one-line `LoomError` carrying the tool's first error line.
"""

from __future__ import annotations

import os
import shlex
import shutil
import signal
import subprocess
import tempfile
from dataclasses import dataclass
from pathlib import Path

from loom.diagnostics import LoomError, ToolFailure

VERSIONS = (22, 19)
ENV_VERSION = "LOOM_LLVM"


@dataclass(frozen=True)
class Toolchain:
    version: int
    clang: str
    mlir_opt: str
    mlir_translate: str


def _find(tool: str, version: int) -> str | None:
    for candidate in (f"{tool}-{version}", f"/usr/lib/llvm-{version}/bin/{tool}"):
        found = shutil.which(candidate)
        if found:
            return found
    return None


def toolchain_for(version: int) -> Toolchain | None:
    """The tools of one LLVM version, or None when any of them is missing."""
    paths = [_find(t, version) for t in ("clang", "mlir-opt", "mlir-translate")]
    if any(p is None for p in paths):
        return None
    clang, opt, translate = paths
    assert clang and opt and translate
    return Toolchain(version, clang, opt, translate)


def find_toolchain() -> Toolchain:
    """The newest installed supported toolchain (or the one $LOOM_LLVM names)."""
    forced = os.environ.get(ENV_VERSION)
    if forced:
        if not forced.isdigit() or int(forced) not in VERSIONS:
            raise LoomError(f"{ENV_VERSION}={forced} is not one of "
                            f"{', '.join(map(str, VERSIONS))}")
        versions: tuple[int, ...] = (int(forced),)
    else:
        versions = VERSIONS
    for version in versions:
        tc = toolchain_for(version)
        if tc is not None:
            return tc
    names = " or ".join(f"clang-{v}/mlir-opt-{v}/mlir-translate-{v}" for v in versions)
    raise LoomError(f"the LLVM tools are not installed (need {names}; run make setup)")


def first_error_line(stderr: str) -> str:
    """The line of a tool's stderr that says what went wrong."""
    lines = [ln.strip() for ln in stderr.splitlines() if ln.strip()]
    for ln in lines:
        if "error:" in ln:
            return ln
    return lines[0] if lines else "failed without a message"


def run_tool(cmd: list[str], *, what: str, stdin: str | None = None,
             cwd: Path | None = None, env: dict[str, str] | None = None) -> str:
    """Run a tool; its stdout, or a LoomError naming its first error line."""
    try:
        proc = subprocess.run(cmd, input=stdin, capture_output=True, text=True,
                              cwd=cwd, env=env, check=False)
    except OSError as exc:
        raise LoomError(f"cannot run {cmd[0]}: {exc.strerror}") from None
    if _crashed(proc):
        raise ToolCrash(cmd, what, proc.returncode, stdin)
    if proc.returncode != 0:
        line = first_error_line(proc.stderr)
        if _is_located(line):
            # clang's own `file:line:col: error: ...`: pass it on as is.
            raise ToolError(line)
        raise LoomError(f"{what} failed: {line}")
    return proc.stdout


def _crashed(proc: subprocess.CompletedProcess) -> bool:
    # LLVM tools print this banner on an assertion failure or a signal.
    return proc.returncode < 0 or "PLEASE submit a bug report" in proc.stderr


def _is_located(line: str) -> bool:
    head = line.split(": error:", 1)[0]
    parts = head.rsplit(":", 2)
    return len(parts) == 3 and parts[1].isdigit() and parts[2].isdigit()


class ToolError(LoomError):
    """A tool's own located error line, printed verbatim."""

    def __init__(self, line: str):
        super().__init__(line)
        self.line = line

    def format(self) -> str:
        return self.line


class ToolCrash(ToolFailure):
    """A tool we call crashed: a bug in that tool (or in what we fed it), not in
    the user's code. The message names the tool, the step and a reproducer."""

    def __init__(self, cmd: list[str], what: str, returncode: int, stdin: str | None):
        super().__init__(f"{Path(cmd[0]).name} crashed ({_how(returncode)}) during {what}; "
                         "this is a bug in that tool, not in your code; to reproduce it "
                         f"for an upstream report: {_reproducer(cmd, stdin)}")


def _how(returncode: int) -> str:
    if returncode >= 0:
        return f"exit {returncode}"
    try:
        return f"signal {signal.Signals(-returncode).name}"
    except ValueError:
        return f"signal {-returncode}"


def _reproducer(cmd: list[str], stdin: str | None) -> str:
    """The command line, with what it read from stdin kept in a file."""
    if stdin is None:
        return shlex.join(cmd)
    fd, path = tempfile.mkstemp(prefix="loom-crash-", suffix=".input")
    with open(fd, "w") as f:
        f.write(stdin)
    if "-" in cmd:
        return shlex.join([path if a == "-" else a for a in cmd])
    return f"{shlex.join(cmd)} < {path}"
