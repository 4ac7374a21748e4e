"""The scoreboard of an exported kernel: results and memories against the bundle.

The expectations are the sim bundle's (the native C run's, or a user's);
the comparison is loom.bundle.compare, the one every LOOM flow uses (bit
patterns of each width, any NaN equal to any NaN). The per-channel check of
the kernel inside the shell against the golden model runs after the
simulation (loom.export.sim), from the kernel top's LOOM_SIM summaries.
"""

from __future__ import annotations

from pyuvm import uvm_scoreboard

from loom.bundle import Outcome, compare, load_bundle


class KernelScoreboard(uvm_scoreboard):
    def __init__(self, name, parent, bundle_path: str, result_widths: list[int],
                 array_index: dict[str, int]):
        super().__init__(name, parent)
        self.bundle = load_bundle(bundle_path)
        self.widths, self.array_index = result_widths, array_index
        self.results: list[list[int]] = []
        self.memories: dict[str, list[int]] | None = None
        self.problems: list[str] = []    # protocol findings of the sequences

    def write_results(self, values: list[int]) -> None:
        """One invocation's results, in order."""
        self.results.append(values)

    def write_memories(self, memories: dict[str, list[int]]) -> None:
        self.memories = memories

    def mismatches(self) -> list[str]:
        """Differences from the bundle's expectations; an array with no master
        (the kernel never touches it) keeps the bundle's contents."""
        memories = {r.memref_arg_index: r.values for r in self.bundle.memory_regions}
        for name, values in (self.memories or {}).items():
            memories[self.array_index[name]] = values
        outcome = Outcome(results=self.results, memories=memories, result_widths=self.widths)
        return compare(self.bundle, outcome, memories=self.memories is not None)
