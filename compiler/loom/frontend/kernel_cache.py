"""A kernel compiled once for many test runs: a mutation campaign
(loom.mutation.campaign) runs the same tests once a mutant, each run in a
fresh process, and the front end (clang, the import, the lift to SCF) is
most of a lowering test's time while no mutant of the lowering or the
golden model can change what it makes.

The tests' `compiled` fixture (tests/conftest.py) takes a kernel from the
folder named by the environment variable KERNEL_CACHE_ENV when it is set;
the campaign sets it. An entry is keyed by the kernel's name and the
digest of its C file and header, and copied into the run's own folder (a
test writes its DFG beside the SCF, and two workers' tests must not share
that file)."""

from __future__ import annotations

import hashlib
import os
import pickle
import shutil
import tempfile
from dataclasses import fields, replace
from pathlib import Path

from loom.frontend.driver import Artifacts, compile_kernel

KERNEL_CACHE_ENV = "LOOM_KERNEL_CACHE"
ENTRY = "artifacts.pickle"


def cached_compile(kernel: Path, out_dir: Path, cache: Path) -> Artifacts:
    """compile_kernel(kernel, None, [], [], out_dir), its artifacts copied from
    `cache` when an earlier run left them there (and left there otherwise)."""
    entry = cache / _key(kernel)
    if not (entry / ENTRY).is_file():
        arts = compile_kernel(kernel, None, [], [], out_dir)
        _store(arts, entry)
        return arts
    shutil.copytree(entry, out_dir, dirs_exist_ok=True, ignore=shutil.ignore_patterns(ENTRY))
    return _relocated(pickle.loads((entry / ENTRY).read_bytes()), out_dir)


def _key(kernel: Path) -> str:
    digest = hashlib.sha256()
    for part in sorted(kernel.parent.glob(f"{kernel.stem}.[ch]")):
        digest.update(part.name.encode() + b"\0" + part.read_bytes())
    return f"{kernel.stem}-{digest.hexdigest()[:16]}"


def _store(arts: Artifacts, entry: Path) -> None:
    """Copy `arts`' folder into `entry` at once: another worker may store the
    same kernel meanwhile, and the first one in stays."""
    entry.parent.mkdir(parents=True, exist_ok=True)
    staging = Path(tempfile.mkdtemp(prefix=f".{entry.name}-", dir=entry.parent))
    shutil.copytree(arts.out_dir, staging, dirs_exist_ok=True)
    (staging / ENTRY).write_bytes(pickle.dumps(_relocated(arts, entry)))
    try:
        os.rename(staging, entry)
    except OSError:   # stored by another worker first
        shutil.rmtree(staging, ignore_errors=True)


def _relocated(arts: Artifacts, folder: Path) -> Artifacts:
    """`arts` with every path in `folder` instead of its own."""
    moved = {f.name: folder / getattr(arts, f.name).name for f in fields(arts)
             if isinstance(getattr(arts, f.name), Path) and f.name != "out_dir"}
    return replace(arts, out_dir=folder, **moved)


__all__ = ["KERNEL_CACHE_ENV", "cached_compile"]
