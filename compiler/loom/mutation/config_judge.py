"""Judging config mutants (loom.mutation.config_mutants): each one's words
streamed into the fabric the kernel was mapped onto (its Verilator build
cached, so a mutant costs one run), checked as `loom sim K --adg A` checks
(loom.sim.fabric_flow.run) under one stall seed.

A mutant is `killed` when the run reports a problem (`killed_by`: the
first, e.g. the first diverging DFG edge, a deadlock, a memory mismatch),
`survived` when it passes. Verdicts go to mutants.jsonl beside the template
mutants' (loom.mutation.campaign.Verdict: `template` holds
`config:<kernel>@<adg>`, `original` and `replacement` the field's values);
a second run skips the ones judged, so a time budget can split a campaign.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Mapping, Sequence
from dataclasses import replace
from pathlib import Path

from loom.mutation.campaign import Recorder, Verdict, judged
from loom.mutation.config_mutants import ConfigMutant
from loom.sim import fabric_flow, profiles
from loom.sim.fabric_flow import FabricSetup


def run_config_campaign(s: FabricSetup, mutants: Sequence[ConfigMutant], out: Path,
                        seed: int = 1, budget: float | None = None,
                        tick: Callable[[str], None] = lambda _: None,
                        equivalent: Mapping[str, str] | None = None) -> list[Verdict]:
    """Judge every mutant not yet in `out` (appending its verdict), starting
    none after `budget` seconds; the verdicts of `mutants` in `out`
    afterwards. A mutant in `equivalent` (id -> reviewed reason) is
    recorded so, not run."""
    mutants = [replace(m, equivalent=m.equivalent or (equivalent or {}).get(m.id, ""))
               for m in mutants]
    done = judged(out)
    todo = [m for m in mutants if m.id not in done]
    values = s.rtl.layout.decode(s.words)
    start, recorder = time.monotonic(), Recorder(out, done, len(todo), tick)
    for m in todo:
        if budget is not None and time.monotonic() - start >= budget:
            break
        recorder.record(judge(s, m, values, seed))
    return [done[m.id] for m in mutants if m.id in done]


def judge(s: FabricSetup, m: ConfigMutant, values: dict[str, dict[str, int]],
          seed: int) -> Verdict:
    """One run of the fabric on `m`'s words (none for an equivalent mutant)."""
    if m.equivalent:
        return Verdict(m.id, f"config:{m.target}", 0, 0, m.operator, f"{m.field}={m.original}",
                       f"{m.field}={m.replacement}", "equivalent", reason=m.equivalent)
    t = time.monotonic()
    words = s.rtl.layout.encode(m.apply(values))
    result = fabric_flow.run(replace(s, words=words), profiles.for_seed(seed))
    return Verdict(m.id, f"config:{m.target}", 0, 0, m.operator, f"{m.field}={m.original}",
                   f"{m.field}={m.replacement}",
                   "survived" if result.passed else "killed",
                   result.problems[0][:200] if result.problems else "",
                   f"loom sim --seed {seed}", round(time.monotonic() - t, 1))


__all__ = ["judge", "run_config_campaign"]
