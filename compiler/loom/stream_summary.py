"""Per-channel stream summaries: what the RTL and the golden model compare first.

A channel's summary is its token count and an order-sensitive digest: the
sum mod 2^64 of term(value, k) over its tokens k = 0, 1, ..., where term is
splitmix64's finalizer of value xor k * 2^64/phi (a control token's value is
0). The kernel top's LOOM_SIM block (templates/kernel_top.sv.j2, loom_term)
keeps the same sums in SystemVerilog, so a run that matches needs no trace:
memory and time stay flat in the token count. Equal streams always give equal
summaries; a difference in any token changes the digest except with
probability about 2^-64. Only when summaries differ (or a run does not
finish) is the run repeated with every transfer recorded, to report the first
divergence from the traces (loom.sim.compare).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np

PHI64 = np.uint64(0x9E3779B97F4A7C15)
MIX1 = np.uint64(0xBF58476D1CE4E5B9)
MIX2 = np.uint64(0x94D049BB133111EB)
M64 = (1 << 64) - 1


@dataclass(frozen=True)
class StreamSummary:
    count: int
    digest: int


@dataclass(frozen=True)
class RtlSummary:
    """One channel's summary in an RTL run, with the cycle of its last transfer."""
    count: int
    digest: int
    last_cycle: int

    @property
    def stream(self) -> StreamSummary:
        return StreamSummary(self.count, self.digest)


def summarize(values: Sequence[Any]) -> StreamSummary:
    """The summary of one channel's golden stream (unsigned values, None: control)."""
    return fold(StreamSummary(0, 0), values)


def fold(summary: StreamSummary, chunk: Sequence[Any]) -> StreamSummary:
    """`summary` of a stream's first tokens extended by the next ones, `chunk`:
    a chunk's token k is token summary.count + k of the whole stream, so folding
    a stream chunk by chunk gives its summarize()."""
    n = len(chunk)
    if n == 0:
        return summary
    v = _values(chunk)
    with np.errstate(over="ignore"):
        k = np.arange(summary.count, summary.count + n, dtype=np.uint64)
        z = v ^ (k * PHI64)
        z = (z ^ (z >> np.uint64(30))) * MIX1
        z = (z ^ (z >> np.uint64(27))) * MIX2
        z ^= z >> np.uint64(31)
        digest = (summary.digest + int(np.sum(z, dtype=np.uint64))) & M64
    return StreamSummary(summary.count + n, digest)


def _values(chunk: Sequence[Any]) -> np.ndarray:
    """The chunk as uint64, control tokens (None) as 0. A channel carries either
    values or control tokens, so the common cases convert in one C loop."""
    n = len(chunk)
    if chunk[0] is None and chunk.count(None) == n:
        return np.zeros(n, dtype=np.uint64)
    try:
        return np.fromiter(chunk, dtype=np.uint64, count=n)
    except TypeError:   # a mixed chunk (none in a real run): token by token
        return np.fromiter((0 if x is None else x for x in chunk), dtype=np.uint64, count=n)


def read_summary(path: Path) -> dict[int, RtlSummary]:
    """The +loom_summary file: one line "<channel> <count> <digest> <last cycle>"."""
    out: dict[int, RtlSummary] = {}
    if not path.exists():
        return out
    for line in path.read_text().splitlines():
        fields = line.split()
        if len(fields) == 4:
            ident, count, digest, last = (int(f) for f in fields)
            out[ident] = RtlSummary(count, digest, last)
    return out


def differing_channels(rtl: dict[int, RtlSummary],
                       golden: dict[int, StreamSummary]) -> list[int]:
    """Channel ids whose RTL stream is not the golden one (a missing summary differs)."""
    return [i for i, want in golden.items()
            if i not in rtl or rtl[i].stream != want]
