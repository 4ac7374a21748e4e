"""`loom mutate`: seed faults in the RTL templates, or in a mapped kernel's
fabric configuration, and count what the checks catch (issue 36;
loom.mutation.campaign and loom.mutation.config_judge say how each is
judged).

    loom mutate [--template T ... | --config K@A ... | --python AREA ...] [--operator OP ...]
                [--sample N [--seed S]] [--list] [--equivalent FILE] [--survivors FILE] [-j N]
                [--timeout S] [--budget S] [-o DIR]

writes DIR/mutants.jsonl (default gen/mutate) and prints a table by
operator and by template (or config target, or Python module). Run from
the repository's root (the templates, modules and their tests are read
there).
"""

from __future__ import annotations

import argparse
import random
from pathlib import Path

from loom.diagnostics import Location, LoomError
from loom.mutation.campaign import Verdict, reviewed, run_campaign, table
from loom.mutation.template_mutants import OPERATORS, Mutant, template_mutants
from loom.progress import Progress


def select(root: Path, templates: list[str], operators: tuple[str, ...]) -> list[Mutant]:
    """The mutants of the named templates (all of templates/ when none), by `operators`."""
    folder = root / "templates"
    if not folder.is_dir():
        raise LoomError("no templates/ here: run loom mutate from the repository's root",
                        Location(str(root)))
    names = templates or sorted(p.name for p in folder.glob("*.sv.j2"))
    out: list[Mutant] = []
    for name in names:
        file = name if name.endswith(".sv.j2") else f"{name}.sv.j2"
        path = folder / file
        if not path.is_file():
            raise LoomError(f"no template '{file}' in templates/", Location(str(path)))
        out += template_mutants(file, path.read_text(), operators)
    return out


def sample(mutants: list[Mutant], n: int | None, seed: int) -> list[Mutant]:
    """`n` mutants drawn with `seed` (the same on every run), in their order; all when None."""
    if n is None or n >= len(mutants):
        return mutants
    picked = set(random.Random(seed).sample(range(len(mutants)), n))
    return [m for k, m in enumerate(mutants) if k in picked]


def mutate_main(args: argparse.Namespace) -> int:
    if args.configs:
        return _config_main(args)
    root = Path.cwd()   # the repository whose templates and tests the campaign reads
    judges: dict[str, str] = {}
    if args.areas:
        mutants = _python_mutants(root, args, judges)
    else:
        operators = tuple(args.operators or OPERATORS)
        mutants = sample(select(root, args.templates, operators), args.sample, args.seed)
    if args.list:
        for m in mutants:
            print(f"{m.id}  {m.original!r} -> {m.replacement!r}")
        print(f"{len(mutants)} mutant(s)")
        return 0
    out = Path(args.out_dir or "gen/mutate") / "mutants.jsonl"
    progress = Progress(enabled=args.progress)
    verdicts = run_campaign(root, mutants, out, jobs=args.jobs, timeout=args.timeout,
                            budget=args.budget, tick=progress.update,
                            equivalent=reviewed(_path(args.equivalent)),
                            judge=(lambda m: judges[m.id]) if judges else None,
                            survivors=reviewed(_path(args.survivors)))
    progress.clear()
    return _report(verdicts, len(mutants), out)


def _python_mutants(root: Path, args: argparse.Namespace, judges: dict[str, str]
                    ) -> list[Mutant]:
    """The sampled mutants of each --python area (`--sample N`: N an area),
    each one's judge (its area's tests) into `judges`."""
    from loom.mutation.python_mutants import AREAS, PYTHON_OPERATORS, area_mutants

    operators = tuple(args.operators or PYTHON_OPERATORS)
    out: list[Mutant] = []
    for area in dict.fromkeys(args.areas):
        picked = sample(area_mutants(root, area, operators), args.sample, args.seed)
        judges.update((m.id, " ".join(AREAS[area].judge)) for m in picked)
        out += picked
    return out


def _config_main(args: argparse.Namespace) -> int:
    """The config area: each K@A mapped and its fabric built (as `loom sim`),
    then its config mutants judged by a run under each stall seed."""
    from loom.inputs import KernelSource
    from loom.mapper.kernel_map import MapRequest
    from loom.mutation.config_judge import run_config_campaign
    from loom.mutation.config_mutants import CONFIG_OPERATORS, config_mutants
    from loom.sim import fabric_flow

    operators = tuple(args.operators or CONFIG_OPERATORS)
    out = Path(args.out_dir or "gen/mutate") / "mutants.jsonl"
    equivalent = reviewed(_path(args.equivalent))
    progress = Progress(enabled=args.progress)
    verdicts, total = [], 0
    for target in args.configs:
        kernel, at, adg = target.partition("@")
        if not (kernel and at and adg):
            raise LoomError(f"--config {target!r}: expected KERNEL@ADG (e.g. fir@chess-8x8-ext2)")
        source = KernelSource(kernel, out_dir=out.parent / Path(kernel).stem)
        s = fabric_flow.setup(MapRequest(source, adg))
        made = config_mutants(f"{s.name}@{adg}", s.rtl.layout, s.rtl.layout.decode(s.words),
                              operators)
        mutants = sample(made, args.sample, args.seed)
        total += len(mutants)
        if args.list:
            for m in mutants:
                print(f"{m.id}  {m.original} -> {m.replacement}"
                      + (f"  (equivalent: {m.equivalent})" if m.equivalent else ""))
            continue
        verdicts += run_config_campaign(s, mutants, out, budget=args.budget,
                                        tick=progress.update, equivalent=equivalent,
                                        survivors=reviewed(_path(args.survivors)))
    progress.clear()
    if args.list:
        print(f"{total} mutant(s)")
        return 0
    return _report(verdicts, total, out)


def _path(name: str | None) -> Path | None:
    return Path(name) if name else None


def _report(verdicts: list[Verdict], total: int, out: Path) -> int:
    """The tables by operator and by template (or config target), and what is left."""
    print(table(verdicts, "operator"))
    print()
    print(table(verdicts, "template"))
    left = total - len(verdicts)
    unexplained = [v.id for v in verdicts if v.verdict == "survived" and not v.reason]
    if unexplained:
        print(f"\n{len(unexplained)} survivor(s) without a reviewed reason (--survivors):")
        print("\n".join(f"  {i}" for i in unexplained))
    print(f"\n{len(verdicts)} of {total} mutant(s) judged"
          + (f", {left} left by the time budget (run again to go on)" if left else "")
          + f"; verdicts in {out}")
    return 0
