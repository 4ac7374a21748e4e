"""Every numeric argument of every `loom` command has a range: a value outside
it is argparse's one line `loom CMD: error: argument --X: ...`, exit status
2, before any work starts (issue 29: `loom fuzz --count -1` ended in an
IndexError traceback). No test here compiles a kernel or runs Verilator."""

import argparse
import subprocess
import sys

import pytest

from loom.cli import (ADG_GRAMMAR, ADG_LIMITS, COUNT_MAX, JOBS_MAX, MAX_JOIN_FANIN, SEED_MAX,
                      build_parser, main)

BIG = "9" * 40
"""More digits than any range takes (int() of thousands of digits would raise)."""

# (command line, the argument the error names): out of range, not a number, huge
BAD = [
    # compile, run, rtl, sim share the C flags
    *((f"{cmd} vecadd --max-join-fanin {v}".split(), "--max-join-fanin")
      for cmd in ("compile", "run", "rtl", "sim") for v in ("1", "0", "-1", "65", "x", BIG)),
    *((f"run vecadd --max-steps {v}".split(), "--max-steps") for v in ("0", "-5", "1.5", BIG)),
    *((f"sim vecadd --seed {v}".split(), "--seed")
      for v in ("-1", str(SEED_MAX + 1), "one", BIG)),
    *((f"sim vecadd --adg chess-2x2 --map-seed {v}".split(), "--map-seed")
      for v in ("-1", str(SEED_MAX + 1), "x")),
    *((f"sim vecadd --adg chess-2x2 --map-rounds {v}".split(), "--map-rounds")
      for v in ("0", "-1", "", "2.0")),
    *((f"fuzz --count {v}".split(), "--count")
      for v in ("-1", "0", str(COUNT_MAX + 1), "1e3", "ten", BIG)),
    *((f"fuzz --first-seed {v}".split(), "--first-seed") for v in ("-1", str(SEED_MAX + 1), "x")),
    *((f"fuzz {flag} {v}".split(), "-j/--jobs")
      for flag in ("-j", "--jobs") for v in ("0", "-2", str(JOBS_MAX + 1), "all")),
    *((f"regress -j {v}".split(), "-j/--jobs") for v in ("0", "-1", str(JOBS_MAX + 1), "x")),
    *((["regress", "--seeds", v], "--seeds")
      for v in ("5-1", "-1", "x", "1,,2", ",", "", "1-2-3", f"0-{SEED_MAX + 1}",
                f"1-{COUNT_MAX + 1}", f"1-{COUNT_MAX},{COUNT_MAX + 1}-{COUNT_MAX + 2}", BIG)),
    *((["regress", "--shard", v], "--shard")
      for v in ("0/0", "0/3", "3/2", "-1/2", "1", "1/", "a/b", "", f"1/{BIG}")),
    *((f"map vecadd --adg chess-2x2 --seed {v}".split(), "--seed")
      for v in ("-1", str(SEED_MAX + 1), "x")),
    *((f"map vecadd --adg chess-2x2 --rounds {v}".split(), "--rounds")
      for v in ("0", "-1", "many", BIG)),
    *((f"map vecadd --adg chess-2x2 {flag} {v}".split(), f"{flag}/--mapper-{flag[2:]}")
      for flag in ("--snapshot-interval-rounds",) for v in ("0", "-2", "1.5", "x", BIG)),
    *((f"map vecadd --adg chess-2x2 {flag} {v}".split(), f"{flag}/--mapper-{flag[2:]}")
      for flag in ("--snapshot-interval-seconds",)
      for v in ("0", "-2", "1e7", "nan", "inf", "x")),
]


@pytest.mark.parametrize("argv,argument", BAD, ids=[" ".join(a) for a, _ in BAD])
def test_a_bad_number_is_one_line_and_status_2(argv, argument, capsys):
    with pytest.raises(SystemExit) as exc:
        main(argv)
    assert exc.value.code == 2
    captured = capsys.readouterr()
    err = captured.err
    assert err.count("\n") == 1, err
    assert err.startswith(f"loom {argv[0]}: error: argument {argument}: "), err
    assert "Traceback" not in err and not captured.out


def test_the_first_report_of_issue_29_is_one_line_without_a_traceback():
    proc = subprocess.run([sys.executable, "-m", "loom.cli", "fuzz", "--count", "-1"],
                          capture_output=True, text=True, timeout=60)
    assert proc.returncode == 2
    assert proc.stderr == ("loom fuzz: error: argument --count: must be from 1 to "
                           f"{COUNT_MAX}, not -1\n")
    assert proc.stdout == ""


# (command line, the argument's destination, the value parsed): the ends of each range
GOOD = [
    ("compile vecadd --max-join-fanin 2", "max_join_fanin", 2),
    (f"compile vecadd --max-join-fanin {MAX_JOIN_FANIN}", "max_join_fanin", MAX_JOIN_FANIN),
    ("compile vecadd", "max_join_fanin", MAX_JOIN_FANIN),
    ("run vecadd --max-steps 1", "max_steps", 1),
    ("sim vecadd --seed 0", "seed", 0),
    (f"sim vecadd --seed {SEED_MAX}", "seed", SEED_MAX),
    ("sim vecadd", "seed", 1),
    (f"sim vecadd --adg A --map-seed {SEED_MAX}", "map_seed", SEED_MAX),
    ("sim vecadd --adg A --map-rounds 1", "map_rounds", 1),
    ("fuzz --count 1", "count", 1),
    (f"fuzz --count {COUNT_MAX}", "count", COUNT_MAX),
    ("fuzz --count +7", "count", 7),
    (f"fuzz --first-seed {SEED_MAX}", "first_seed", SEED_MAX),
    ("fuzz -j 1", "jobs", 1),
    (f"fuzz --jobs {JOBS_MAX}", "jobs", JOBS_MAX),
    (f"regress -j {JOBS_MAX}", "jobs", JOBS_MAX),
    ("regress --seeds 1-5,9", "seeds", "1-5,9"),
    (f"regress --seeds 0,{SEED_MAX}", "seeds", f"0,{SEED_MAX}"),
    # overlapping ranges count each seed once
    (f"regress --seeds 1-{COUNT_MAX},50-60", "seeds", f"1-{COUNT_MAX},50-60"),
    ("regress --seeds 3-3", "seeds", "3-3"),
    ("regress --shard 4/4", "shard", "4/4"),
    ("regress", "shard", "1/1"),
    ("map vecadd --adg A --seed 0", "seed", 0),
    ("map vecadd --adg A --rounds 1", "rounds", 1),
    ("map vecadd --adg A --snapshot-interval-rounds 1", "snapshot_rounds", 1),
    ("map vecadd --adg A --mapper-snapshot-interval-rounds -1", "snapshot_rounds", -1),
    ("map vecadd --adg A", "snapshot_rounds", -1),
    ("map vecadd --adg A --snapshot-interval-seconds 0.25", "snapshot_seconds", 0.25),
    ("map vecadd --adg A --snapshot-interval-seconds 1e6", "snapshot_seconds", 1e6),
    ("map vecadd --adg A --rounds 1000000", "rounds", 1_000_000),
]


@pytest.mark.parametrize("line,dest,value", GOOD, ids=[g[0] for g in GOOD])
def test_the_ends_of_each_range_are_accepted(line, dest, value):
    assert getattr(build_parser().parse_args(line.split()), dest) == value


def _subcommands(parser: argparse.ArgumentParser) -> dict[str, argparse.ArgumentParser]:
    sub = next(a for a in parser._actions if isinstance(a, argparse._SubParsersAction))
    return dict(sub.choices)


def test_no_argument_takes_a_bare_int():
    """A new numeric argument gets a range too (cli.int_range): a bare type=int
    lets -1 through to the command, where it ends in a traceback."""
    bare = [(cmd, a.option_strings) for cmd, p in _subcommands(build_parser()).items()
            for a in p._actions if a.type in (int, float)]
    assert bare == []


@pytest.mark.parametrize("cmd,p", _subcommands(build_parser()).items(),
                         ids=list(_subcommands(build_parser())))
def test_the_help_states_each_numeric_range(cmd, p):
    for a in p._actions:
        if a.type is not None and a.help:
            assert any(word in a.help for word in (" to ", " or more", "<=")), (cmd, a.dest)


def test_the_ranges_follow_the_code_they_guard():
    from loom.fabric.presets import GRAMMAR, LIMITS
    from loom.lowering.legalize import MAX_HARDWARE_JOIN_FANIN
    assert MAX_JOIN_FANIN == MAX_HARDWARE_JOIN_FANIN
    assert (ADG_GRAMMAR, ADG_LIMITS) == (GRAMMAR, LIMITS)
