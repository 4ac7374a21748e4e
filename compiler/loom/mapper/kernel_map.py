"""Map a kernel onto an ADG: compile it for the ADG, place and route it,
write LOOM's map and config artifacts (the library behind `loom map` and
`loom sim --adg`).

The ADG is a .fabric.mlir file, a preset name (written beside the artifacts
first) or `auto`: the presets in `loom adg --list` order, the first the
kernel maps onto; a preset that lacks a resource every mapping needs
(precheck.py) is skipped without building or placing, and when no preset
fits, the error names the largest preset's blocking constraint. The kernel
is compiled for the ADG: its joins are legalized to the ADG's largest join
fan-in (seed 003), and its memory accesses get one index each (a fabric
memory has one address port per lane: lowering/flat_memrefs.py; a
.dfg.mlir is taken as it is). A kernel that does not fit raises one line
naming the constraint (LOOM's Cn label), the op or edge and its C line, and
a fix; the partial map is still written.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

from xdsl.ir import Operation

from loom.diagnostics import Location, LoomError
from loom.fabric.adg_file import Adg, load_adg
from loom.fabric.adg_view import AdgView, adg_view
from loom.frontend.driver import resolve_kernel
from loom.inputs import Inputs, KernelSource
from loom.mapper.artifacts import Written, write_artifacts, write_snapshot
from loom.mapper.checks import check
from loom.mapper.diagnosis import diagnose
from loom.mapper.kernel_compile import compile_for
from loom.mapper.mapping import ROUNDS, Mapping, map_dfg
from loom.mapper.preset_fit import fit_presets
from loom.mapper.snapshots import (Checkpoint, SnapshotPolicy, Snapshots, no_checkpoint,
                                   snapshot_stem)
from loom.progress import Progress, Tick

SNAPSHOT_DIR = "mapper-snapshots"
"""Where the snapshots go, beside the artifacts (LOOM's name)."""

@dataclass(frozen=True)
class MapRequest:
    """What to map onto what, and how hard to try."""

    source: KernelSource
    adg: str
    """A .fabric.mlir file, a preset name or `auto`."""
    seed: int = 0
    """The placement seed."""
    rounds: int = ROUNDS
    """Routing rounds at most."""
    progress: bool | None = None
    """A status line: None on a terminal only."""
    snapshots: SnapshotPolicy = SnapshotPolicy()
    """Periodic snapshots of the search (off by default; not with `auto`)."""


@dataclass
class MappedKernel:
    """A kernel compiled for an ADG, placed and routed, its artifacts written."""

    target: Adg
    mapping: Mapping
    func: Operation
    """The handshake.func that was mapped (joins legalized for the ADG)."""
    inputs: Inputs
    written: Written

    @property
    def stem(self) -> str:
        return f"{self.inputs.name}.{self.target.name}"


def _ticker(progress: Progress, adg: str) -> Tick:
    return lambda text: progress.update(f"map on {adg}: {text}")


def _auto(req: MapRequest, out_dir: Path, progress: Progress,
          need_bundle: bool) -> tuple[Adg, Mapping, Operation, Inputs]:
    fit = fit_presets([req.source], req.seed, req.rounds, progress, need_bundle)
    if fit.name is not None and fit.builder is not None:
        # the chosen ADG's file and viz sidecar beside the artifacts; the view of
        # the module written, which names the sidecar (viz.html draws by it)
        module, path, _ = fit.builder.write_module(out_dir, fit.name)
        (placed,) = fit.placed
        return (Adg(fit.name, path, adg_view(module)), placed.mapping, placed.compiled.func,
                placed.compiled.inputs)
    # presets come smallest first: the last one tried is the largest
    last = fit.passed_over[-1] if fit.passed_over else None
    blocking = LoomError("no preset") if last is None else \
        _diagnosis(*last.failed, last.preset, last.dfg) if last.failed else last.reason
    raise LoomError(f"auto: the kernel maps onto no preset (see loom adg --list); on the "
                    f"largest: {blocking.message}", blocking.loc or Location(req.source.kernel))


def _diagnosis(m: Mapping, view: AdgView, adg: str, dfg: str) -> LoomError:
    """Why a mapping failed (diagnosed only for the preset reported: a C1 fix
    hint builds presets)."""
    violations = check(m, view)
    return diagnose(m, violations, adg, dfg) if violations else LoomError(
        f"{adg}: mapping failed", Location(dfg))


def _snapshots(policy: SnapshotPolicy, target: Adg, out_dir: Path, stem: str,
               progress: Progress) -> Checkpoint:
    """The mapper's checkpoint: snapshots into out_dir/mapper-snapshots under
    LOOM's names, each announced in one line (as LOOM's `mapper snapshot`)."""
    if not policy.enabled:
        return no_checkpoint
    where = out_dir / SNAPSHOT_DIR

    def emit(m, trigger: str, ordinal: int) -> None:
        page = write_snapshot(m, target.view, where, snapshot_stem(stem, ordinal, trigger, ordinal),
                              target.path)
        progress.clear()
        print(f"map: snapshot {ordinal} ({trigger}) {page}", flush=True)
    return Snapshots(policy, emit).checkpoint


def map_kernel(req: MapRequest, need_bundle: bool = False) -> MappedKernel:
    """Compile, map and write the artifacts; a kernel that does not fit raises
    the one-line diagnosis (LoomError). `need_bundle`: a sim bundle must be
    found (loom sim)."""
    if req.rounds < 1:
        raise LoomError(f"routing rounds (--rounds, --map-rounds) must be at least 1, "
                        f"not {req.rounds}")
    if req.snapshots.enabled and req.adg == "auto":
        raise LoomError("mapper snapshots (--snapshot-interval-*) need one ADG, not --adg auto")
    resolve_kernel(req.source.kernel)   # a wrong name is refused before an ADG is built
    # placement and routing of a large kernel take minutes: a status line
    progress = Progress(enabled=req.progress)
    try:
        if req.adg == "auto":
            out_dir = req.source.out_dir or Path("gen") / Path(req.source.kernel).stem
            target, m, func, inputs = _auto(req, out_dir, progress, need_bundle)
        else:
            target = load_adg(req.adg, req.source.out_dir or Path("gen") / Path(req.adg).name)
            try:
                target.view.check_supported()
            except LoomError as err:
                raise LoomError(err.message, Location(str(target.path))) from err
            func, inputs = compile_for(req.source, target.view.max_join_fanin, need_bundle)
            m = map_dfg(func.regions[0].block, target.view, req.seed, req.rounds,
                        _ticker(progress, target.name),
                        _snapshots(req.snapshots, target, inputs.out_dir,
                                   f"{inputs.name}.{target.name}", progress))
    finally:
        progress.clear()
    if req.adg == "auto":
        print(f"adg: auto chose {target.name}")
    written = write_artifacts(m, target.view, inputs.out_dir, f"{inputs.name}.{target.name}",
                              target.path)
    if written.violations:
        raise diagnose(m, written.violations, target.name, str(inputs.dfg))
    return MappedKernel(target, m, func, inputs, written)


__all__ = ["MapRequest", "MappedKernel", "map_kernel"]
