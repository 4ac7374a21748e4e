"""Diagnostics: the one-line `file:line[:col]: error: ...` messages of the tool.

`LoomError` is bad input (exit status 2). A design that is wrong (mismatch,
deadlock, leftover token) is not an exception but a failed result (exit 1).
"""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class Location:
    file: str
    line: int | None = None
    col: int | None = None

    def __str__(self) -> str:
        parts = [self.file]
        if self.line is not None:
            parts.append(str(self.line))
            if self.col is not None:
                parts.append(str(self.col))
        return ":".join(parts)


class LoomError(Exception):
    """Bad input or usage; reported as one line, exit status 2."""

    exit_status = 2

    def __init__(self, message: str, loc: Location | None = None):
        super().__init__(message)
        self.message = message
        self.loc = loc

    def format(self) -> str:
        where = f"{self.loc}: " if self.loc else "loom: "
        return f"{where}error: {self.message}"


class ToolFailure(LoomError):
    """An external tool failed on what we generated (a Verilator build, a
    simulator crash): the design or the flow is wrong, so exit status 1."""

    exit_status = 1


class NotBuiltError(LoomError):
    """A command or stage of design.md section 7 that does not exist yet."""


def counted(n: int, one: str, many: str) -> str:
    """`n` and the noun a message needs for it: "1 PE", "2 PEs"."""
    return f"{n} {one if n == 1 else many}"
