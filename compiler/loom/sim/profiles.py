"""Run profiles: the stall and memory settings of every simulation, in one place.

A stall seed names a profile (`loom sim --seed S`, the regression, the fuzz
campaign all take theirs from here):
  seed 1        mild: inputs idle 30 %, outputs ready 70 %, memory ready 70 %,
                response latency random in 1..4
  any other S   harsh with S's random stream: inputs idle 70 %, outputs ready
                25 %, memory ready 30 %, latency random in 1..9
The regression and the fuzz campaign run STALL_SEEDS (mild and harsh).

IDEAL (`loom sim --ideal`) measures throughput: inputs never idle, outputs
always ready, memory ready every cycle and every response exactly one cycle
after its request. rtl/loom_mem_model.sv draws a latency of
1 + (r mod max_latency), so max_latency 1 is a fixed latency of 1 and the run
does not depend on the seed.
"""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class RunSettings:
    """The stall and memory plusargs of one run (loom.sim.harness.run_plusargs)."""
    seed: int
    in_idle_pct: int       # % of cycles an input channel holds its next token back
    out_ready_pct: int     # % of cycles an output channel is ready
    mem_ready_pct: int     # % of cycles a memory accepts a request
    mem_max_latency: int   # response latency drawn in 1..max (1: always exactly 1)
    watchdog: int = 20000
    drain: int = 64
    label: str = ""        # names the run (directory, report); default seed<S>

    @property
    def name(self) -> str:
        return self.label or f"seed{self.seed}"


MILD_SEED = 1
HARSH_SEED = 2
STALL_SEEDS = (MILD_SEED, HARSH_SEED)


def mild(seed: int = MILD_SEED) -> RunSettings:
    return RunSettings(seed=seed, in_idle_pct=30, out_ready_pct=70, mem_ready_pct=70,
                       mem_max_latency=4)


def harsh(seed: int = HARSH_SEED) -> RunSettings:
    # long input gaps, rare output ready, slow memory with latency up to 9
    return RunSettings(seed=seed, in_idle_pct=70, out_ready_pct=25, mem_ready_pct=30,
                       mem_max_latency=9)


def for_seed(seed: int) -> RunSettings:
    """The settings of stall seed `seed` (the rule in the module docstring)."""
    return mild(seed) if seed == MILD_SEED else harsh(seed)


IDEAL = RunSettings(seed=1, in_idle_pct=0, out_ready_pct=100, mem_ready_pct=100,
                    mem_max_latency=1, label="ideal")

SEED_RULE = ("seed 1 is mild (inputs idle 30%, outputs and memory ready 70%, memory "
             "latency 1..4); every other seed is harsh (inputs idle 70%, outputs ready "
             "25%, memory ready 30%, latency 1..9) with that seed's random stream")
