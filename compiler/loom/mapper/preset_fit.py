"""The smallest preset that maps a set of kernels (`loom map --adg auto` for
one kernel, `loom adg --for K1,K2,...` for several).

Presets are tried in `loom adg --list` order, smallest first. Each kernel is
compiled once per join fan-in the presets offer (kernel_compile.compile_for); a
preset that lacks a resource some kernel's every mapping needs
(precheck.shortfall) is skipped unbuilt; the others are built and each
kernel placed and routed, up to the first that does not fit. The first
preset every kernel maps onto is the fit; every preset passed over keeps
the kernel and the reason that stopped it.
"""

from __future__ import annotations

import time
from collections.abc import Sequence
from dataclasses import dataclass, field

from xdsl.ir import Operation

from loom.diagnostics import Location, LoomError
from loom.fabric.adg_view import AdgView, adg_view
from loom.fabric.builder import AdgBuilder
from loom.fabric.presets import preset, presets
from loom.inputs import Inputs, KernelSource
from loom.mapper.checks import check
from loom.mapper.dfg_graph import DfgGraph, dfg_graph
from loom.mapper.diagnosis import node_location
from loom.mapper.kernel_compile import compile_for
from loom.mapper.mapping import ROUNDS, Mapping, map_dfg
from loom.mapper.precheck import PeDefinitions, builder_capacity, shortfall
from loom.mapper.stats import map_stats
from loom.mapper.throughput import fmt_bound, throughput
from loom.progress import Progress


@dataclass
class Compiled:
    """A kernel compiled for one join fan-in (kernel_compile.compile_for)."""

    func: Operation
    inputs: Inputs
    sw: DfgGraph


@dataclass
class Placed:
    """A kernel mapped onto the fitting preset."""

    source: KernelSource
    compiled: Compiled
    mapping: Mapping
    seconds: float = 0.0
    """Placement and routing (map_dfg) on the fitting preset."""

    def line(self, view: AdgView) -> str:
        """How much of the preset the kernel takes, and its expected II against
        its direct RTL's: `20 ops, 19 of 64 PEs, 1 of 2 memories, expected II 1
        (direct RTL 1)`."""
        stats = map_stats(self.mapping)
        mems = sum(1 for n in self.mapping.sw.nodes if n.kind == "memory")
        model = throughput(self.mapping, view)
        ii = "no model" if model.unavailable else \
            f"expected II {fmt_bound(model.expected_ii)} (direct RTL " \
            f"{fmt_bound(max((lp.direct_ii for lp in model.loops), default=0))})"
        return (f"{stats.ops} ops, {stats.pes} of {len(view.of_kind('spatial_pe', 'temporal_pe'))} "
                f"PEs, "
                f"{mems} of {len(view.of_kind('memory', 'extmemory'))} memories, {ii}")


@dataclass(frozen=True)
class PassedOver:
    """A preset that did not map every kernel: the first kernel it stopped, and why."""

    preset: str
    kernel: str
    dfg: str
    """The kernel's compiled DFG file (where the reason points)."""
    reason: LoomError
    failed: tuple[Mapping, AdgView] | None = None
    """The failed mapping when placement and routing ran (None: skipped unbuilt)."""
    seconds: float = 0.0
    """That placement and routing."""


@dataclass
class PresetFit:
    """The first preset that maps every kernel (None: none does), each
    kernel's mapping there, and the presets passed over before it."""

    name: str | None = None
    builder: AdgBuilder | None = None
    view: AdgView | None = None
    placed: list[Placed] = field(default_factory=list)
    passed_over: list[PassedOver] = field(default_factory=list)


def fit_presets(sources: Sequence[KernelSource], seed: int = 0, rounds: int = ROUNDS,
                progress: Progress | None = None, need_bundle: bool = False,
                names: Sequence[str] | None = None) -> PresetFit:
    """The smallest preset that maps every kernel of `sources` (module
    docstring), among `names` in their order (default: `loom adg --list`)."""
    progress = progress or Progress(enabled=False)
    compiled: dict[tuple[int, int], Compiled] = {}
    parsed = PeDefinitions()
    fit = PresetFit()
    for name in names if names is not None else [p.name for p in presets()]:
        builder = preset(name)
        capacity = builder_capacity(builder, parsed)
        fanin = capacity.max_join_fanin
        for k, source in enumerate(sources):
            if (k, fanin) not in compiled:
                func, inputs = compile_for(source, fanin, need_bundle)
                compiled[(k, fanin)] = Compiled(func, inputs, dfg_graph(func.regions[0].block))
        mine = [compiled[(k, fanin)] for k in range(len(sources))]
        short = next(((c, why) for c in mine
                      if (why := shortfall(c.sw, capacity, name)) is not None), None)
        if short is not None:   # some kernel lacks a resource there: not built
            c, why = short
            dfg = str(c.inputs.dfg)
            fit.passed_over.append(PassedOver(name, c.inputs.name, dfg, LoomError(
                why.message, node_location(why.node, dfg))))
            continue
        view = adg_view(builder.build())
        placed = _map_all(sources, mine, view, name, seed, rounds, progress, fit)
        if placed is not None:
            fit.name, fit.builder, fit.view, fit.placed = name, builder, view, placed
            return fit
    return fit


def _map_all(sources: Sequence[KernelSource], mine: list[Compiled], view: AdgView, name: str,
             seed: int, rounds: int, progress: Progress, fit: PresetFit) -> list[Placed] | None:
    """Each kernel placed and routed on `view`, or None at the first that does
    not fit (recorded in `fit.passed_over`)."""
    placed = []
    for source, c in zip(sources, mine):
        tick = lambda text, k=c.inputs.name: progress.update(f"{k} on {name}: {text}")  # noqa: E731
        start = time.perf_counter()
        m = map_dfg(c.func.regions[0].block, view, seed, rounds, tick)
        seconds = time.perf_counter() - start
        if not m.ok:
            violations = check(m, view)
            line = violations[0].line() if violations else "mapping failed"
            if violations and violations[0].sw_node is not None:
                line += f" ({m.sw.nodes[violations[0].sw_node].op_name})"
            dfg = str(c.inputs.dfg)
            fit.passed_over.append(PassedOver(name, c.inputs.name, dfg,
                                              LoomError(line, Location(dfg)), (m, view), seconds))
            return None
        placed.append(Placed(source, c, m, seconds))
    return placed


__all__ = ["Compiled", "PassedOver", "Placed", "PresetFit", "fit_presets"]
