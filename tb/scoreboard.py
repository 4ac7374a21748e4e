"""Compares observed channel streams with expected (golden) ones.

Pure Python, no cocotb: usable on results read back from a simulation. The
report names the first divergence: the channel, the token index, expected
vs got, and the cycle of the offending transfer.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

Observed = list[tuple[int, Any]]   # (cycle, value) per transfer


def fmt(value: Any) -> str:
    if value is None:
        return "token"
    if isinstance(value, (tuple, list)):
        return "(" + ", ".join(fmt(v) for v in value) + ")"
    return hex(value) if isinstance(value, int) and value > 9 else str(value)


@dataclass(frozen=True)
class Divergence:
    channel: str
    index: int
    cycle: int | None      # cycle of the offending transfer (None: a token never came)
    message: str

    def __str__(self) -> str:
        return self.message


def first_divergence(channel: str, expected: list[Any], got: Observed,
                     prefix_only: bool = False) -> Divergence | None:
    """The first difference between `expected` and the observed values.

    With `prefix_only`, extra observed tokens past the expected ones are fine
    (an endless producer such as a source)."""
    for i, (cycle, value) in enumerate(got):
        if i >= len(expected):
            if prefix_only:
                return None
            return Divergence(channel, i, cycle,
                              f"{channel}: extra token {i} = {fmt(value)} at cycle {cycle} "
                              f"(expected only {len(expected)})")
        if _norm(value) != _norm(expected[i]):
            return Divergence(channel, i, cycle,
                              f"{channel}: token {i}: expected {fmt(expected[i])}, "
                              f"got {fmt(value)} at cycle {cycle}")
    if len(got) < len(expected):
        i = len(got)
        last = f", last transfer at cycle {got[-1][0]}" if got else ""
        return Divergence(channel, i, None,
                          f"{channel}: missing tokens from index {i}: expected "
                          f"{len(expected)}, got {len(got)} (next expected "
                          f"{fmt(expected[i])}{last})")
    return None


def _norm(v: Any) -> Any:
    return tuple(v) if isinstance(v, list) else v


@dataclass
class Scoreboard:
    """Collects expected and observed streams of several channels."""

    expected: dict[str, list[Any]] = field(default_factory=dict)
    observed: dict[str, Observed] = field(default_factory=dict)
    prefix_only: set[str] = field(default_factory=set)

    def expect(self, channel: str, values: list[Any], prefix_only: bool = False) -> None:
        self.expected[channel] = list(values)
        if prefix_only:
            self.prefix_only.add(channel)

    def observe(self, channel: str, got: Observed) -> None:
        self.observed[channel] = list(got)

    def divergences(self) -> list[Divergence]:
        out = []
        for ch, exp in self.expected.items():
            d = first_divergence(ch, exp, self.observed.get(ch, []), ch in self.prefix_only)
            if d:
                out.append(d)
        # earliest cycle first; a missing token (no cycle) after any wrong value
        out.sort(key=lambda d: (d.cycle is None, d.cycle or 0, d.channel))
        return out

    def report(self) -> str | None:
        """None when every channel matches, else the first divergence (and a count)."""
        ds = self.divergences()
        if not ds:
            return None
        more = f" (+{len(ds) - 1} more channel(s) diverge)" if len(ds) > 1 else ""
        return str(ds[0]) + more
