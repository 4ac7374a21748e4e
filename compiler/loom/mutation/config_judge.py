"""Judging config mutants (loom.mutation.config_mutants): each one's words
streamed into the fabric the kernel was mapped onto (its Verilator build
cached, so a mutant costs one run), checked as `loom sim K --adg A` checks
(loom.sim.fabric_flow.run) under the regression's stall seeds, one after
the other: the mild one first, the harsh one for a mutant the mild run
did not kill (a fault that only a full or an empty channel shows).

A mutant is `killed` when a run reports a problem (`killed_by`: the
first, e.g. the first diverging DFG edge, a deadlock, a memory mismatch,
a token left in the fabric), `survived` when every run passes, `timeout`
when a run goes past RUN_FACTOR times the unmutated run's cycles under
its seed before any edge diverged (it might have finished, and right,
with more time).

Verdicts go to mutants.jsonl beside the template mutants' (Verdict of
loom.mutation.campaign: `template` holds `config:<kernel>@<adg>`,
`original` and `replacement` the field's values); a second run skips the
ones judged, so a time budget can split a campaign.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Mapping, Sequence
from dataclasses import replace
from pathlib import Path

from loom.diagnostics import LoomError
from loom.mutation.campaign import Recorder, Verdict, judged
from loom.mutation.config_mutants import ConfigMutant
from loom.sim import fabric_flow, profiles
from loom.sim.fabric_flow import FabricSetup


def run_config_campaign(s: FabricSetup, mutants: Sequence[ConfigMutant], out: Path,
                        seeds: Sequence[int] = profiles.STALL_SEEDS, budget: float | None = None,
                        tick: Callable[[str], None] = lambda _: None,
                        equivalent: Mapping[str, str] | None = None,
                        survivors: Mapping[str, str] | None = None) -> list[Verdict]:
    """Judge every mutant not yet in `out` (appending its verdict), starting
    none after `budget` seconds; the verdicts of `mutants` in `out`
    afterwards. A mutant in `equivalent` (id -> reviewed reason) is
    recorded so, not run; a survivor in `survivors` carries its reason."""
    mutants = [replace(m, equivalent=m.equivalent or (equivalent or {}).get(m.id, ""))
               for m in mutants]
    done = judged(out)
    todo = [m for m in mutants if m.id not in done]
    values = s.rtl.layout.decode(s.words)
    start, recorder = time.monotonic(), Recorder(out, done, len(todo), tick, survivors)
    budgets: dict[int, int] = {}

    def cycles(seed: int) -> int:
        if seed not in budgets:
            budgets[seed] = RUN_FACTOR * baseline_cycles(s, seed) + RUN_SLACK
        return budgets[seed]

    for m in todo:
        if budget is not None and time.monotonic() - start >= budget:
            break
        recorder.record(judge(s, m, values, seeds, cycles))
    return [done[m.id] for m in mutants if m.id in done]


RUN_FACTOR, RUN_SLACK = 4, 2000
"""A mutant's run may take RUN_FACTOR times the unmutated run's cycles plus
RUN_SLACK: past that it is a `timeout` (a fault that loops for ever would
otherwise run to the flow's budget of 200 cycles a token, writing a trace
of hundreds of megabytes)."""


def baseline_cycles(s: FabricSetup, seed: int) -> int:
    """The cycles of the unmutated configuration's run, which must pass."""
    result = fabric_flow.run(s, profiles.for_seed(seed))
    if not result.passed:
        raise LoomError(f"{s.name} on {s.mapped.target.name}: the unmutated configuration "
                        f"fails under seed {seed}: {result.problems[0]}")
    return int(result.report["cycles"])


def judge(s: FabricSetup, m: ConfigMutant, values: dict[str, dict[str, int]],
          seeds: Sequence[int], max_cycles: Callable[[int], int | None]) -> Verdict:
    """Runs of the fabric on `m`'s words, a seed after the other until one
    fails (none for an equivalent mutant): killed by its first problem, a
    `timeout` when a run went past `max_cycles(seed)` with no other problem
    than not finishing."""
    if m.equivalent:
        return Verdict(m.id, f"config:{m.target}", 0, 0, m.operator, f"{m.field}={m.original}",
                       f"{m.field}={m.replacement}", "equivalent", reason=m.equivalent)
    t = time.monotonic()
    words = s.rtl.layout.encode(m.apply(values))
    verdict, by = "survived", ""
    for seed in seeds:
        result = fabric_flow.run(replace(s, words=words), profiles.for_seed(seed),
                                 max_cycles(seed))
        # past the short budget the run might still have finished, and right:
        # only a divergence already seen kills it
        ran_out = result.report["sim_status"] == "timeout" and not any(
            p.startswith("first divergence") for p in result.problems)
        if ran_out or not result.passed:
            verdict = "timeout" if ran_out else "killed"
            by = "" if ran_out else f"seed {seed}: {result.problems[0]}"[:200]
            break
    return Verdict(m.id, f"config:{m.target}", 0, 0, m.operator, f"{m.field}={m.original}",
                   f"{m.field}={m.replacement}", verdict, by,
                   "loom sim " + " ".join(f"--seed {k}" for k in seeds),
                   round(time.monotonic() - t, 1))


__all__ = ["judge", "run_config_campaign"]
