"""Per-loop stream lengths from the golden traces (seed 002's N + 1 / N shapes).

The lowering names each loop's streams `<loop>_raw_will_continue` and
`<loop>_after_cond` (loop = for0, while1, ...). Per activation the raw
stream has N + 1 events (N trues, one false) and the body N.
"""

from __future__ import annotations

from dataclasses import dataclass

from loom.golden.graph import Graph

RAW_SUFFIX = "_raw_will_continue"


@dataclass
class LoopStreams:
    loop: str
    where: str
    activations: int      # terminating falses on the raw stream
    raw: int              # raw_will_continue events: sum of (N + 1)
    body: int             # body iterations: sum of N

    def line(self) -> str:
        return (f"loop {self.loop}{self.where}: {self.activations} activation(s), "
                f"raw_will_continue {self.raw} (N+1), body {self.body} (N)")


def loop_streams(graph: Graph) -> list[LoopStreams]:
    """From a traced run's graph (a summary-mode run has folded its traces away)."""
    out = []
    for name, ch in graph.channels.items():
        if not name.endswith(RAW_SUFFIX):
            continue
        loop = name[: -len(RAW_SUFFIX)]
        if ch.summary.count:
            raise ValueError(f"loop_streams needs a traced golden run ('{name}' is folded)")
        falses = sum(1 for v in ch.trace if not v)
        where = f" ({ch.producer.loc})" if ch.producer is not None and ch.producer.loc else ""
        out.append(LoopStreams(loop, where, falses, len(ch.trace), len(ch.trace) - falses))
    return out


def activations(graph: Graph) -> dict[str, list[int]]:
    """Loop -> the iterations N of each of its activations, in order (the
    trues before each false of its raw stream; a traced run's graph)."""
    out: dict[str, list[int]] = {}
    for name, ch in graph.channels.items():
        if not name.endswith(RAW_SUFFIX):
            continue
        if ch.summary.count:
            raise ValueError(f"activations needs a traced golden run ('{name}' is folded)")
        counts, n = [], 0
        for v in ch.trace:
            if v:
                n += 1
            else:
                counts.append(n)
                n = 0
        out[name[: -len(RAW_SUFFIX)]] = counts
    return out


def innermost_loop(graph: Graph) -> LoopStreams | None:
    """The loop whose body ran most often: in every nest, its innermost loop."""
    return max((lp for lp in loop_streams(graph) if lp.body), key=lambda lp: lp.body,
               default=None)
