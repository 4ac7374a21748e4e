"""`loom regress`: kernels x stall seeds through pytest, with xdist and shards.

The runs are the tests of loom/regress/suite.py; this command checks the
options, then hands them to pytest with the plugin (loom/regress/plugin.py),
pytest-xdist for -j and JUnit XML. Arguments after `--` go to pytest as they are.
Exit status: 0 every run passed (or the shard is empty), 1 a run failed,
2 bad usage.
"""

from __future__ import annotations

import argparse
from pathlib import Path

import pytest

from loom.regress.plan import PROFILES, parse_seeds, parse_shard, plan

SUITE = Path(__file__).resolve().with_name("suite.py")


def pytest_args(args: argparse.Namespace, out: Path) -> list[str]:
    """The pytest command line of a `loom regress` invocation."""
    argv = [str(SUITE), "-p", "loom.regress.plugin", "-p", "no:cacheprovider",
            "--rootdir", str(SUITE.parent), "-o", "addopts=",
            "-o", "junit_family=xunit1",   # xunit1 keeps per-run <properties>
            "-o", "junit_suite_name=loom-regress",
            "--junitxml", str(args.junit or out / "junit.xml"),
            "--loom-profile", args.profile, "--loom-shard", args.shard,
            "--loom-out", str(out), "-rfE"]
    if args.kernels:
        argv += ["--loom-kernels", args.kernels]
    if args.seeds:
        argv += ["--loom-seeds", args.seeds]
    if args.no_rtl:
        argv.append("--loom-no-rtl")
    if args.jobs > 1:
        argv += ["-n", str(args.jobs), "--dist", "loadscope"]
    return argv + [a for a in args.pytest_args if a != "--"]


def regress_main(args: argparse.Namespace) -> int:
    kernels = [k.strip() for k in (args.kernels or "").split(",") if k.strip()]
    cases = plan(PROFILES[args.profile], kernels, parse_seeds(args.seeds) if args.seeds else None)
    shard = parse_shard(args.shard)
    mine = shard.select(cases)
    out = Path(args.out_dir or "gen/regress").resolve()
    print(f"regress: profile {args.profile}, shard {shard}: {len(mine)} of {len(cases)} runs, "
          f"{args.jobs} jobs, {'golden only' if args.no_rtl else 'RTL on Verilator'}, "
          f"into {out}", flush=True)
    if not mine:
        print("regress: nothing to run in this shard")
        return 0
    status = pytest.main(pytest_args(args, out))
    if status == pytest.ExitCode.OK:
        return 0
    if status == pytest.ExitCode.USAGE_ERROR:
        return 2
    if status == pytest.ExitCode.INTERRUPTED:
        return 130
    return 1
