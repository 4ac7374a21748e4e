"""Periodic mapper snapshots (mapper/snapshots.py; LOOM's
--mapper-snapshot-interval-rounds / -seconds, docs/spec-cli.md and
spec-mapper-output.md): when they are due, their names, the refusals, and
LOOM's two cases (mapper-snapshot-round with its check.py,
mapper-snapshot-invalid refused)."""

import pytest

from loom.diagnostics import LoomError
from loom.mapper.snapshots import SnapshotPolicy, Snapshots, label, snapshot_stem
from tests.lowering.test_dfg_input import needs_mirror
from tests.mapper.loom_cases import loom_args, map_case, run_check


def _emitted(policy: SnapshotPolicy, times: list[float]) -> list[tuple[str, int]]:
    """Checkpoints at `times` (seconds from the start): the (trigger, ordinal) emitted."""
    clock = iter([0.0, *times])
    got: list[tuple[str, int]] = []
    snaps = Snapshots(policy, lambda m, trigger, k: got.append((trigger, k)),
                      clock=lambda: next(clock))
    for k in range(len(times)):
        snaps.checkpoint(f"round-{k + 1}", None)
    return got


def test_every_nth_round():
    got = _emitted(SnapshotPolicy(rounds=3), [0.0] * 7)
    assert got == [("round-3", 1), ("round-6", 2)]


def test_seconds_at_the_first_checkpoint_past_each_multiple():
    # interval 2 s: due at 2, 4, 6 ...; a checkpoint at 7.5 covers 6 (one
    # snapshot), the next is due at 8
    got = _emitted(SnapshotPolicy(seconds=2.0), [0.5, 1.9, 2.0, 3.0, 7.5, 7.9, 8.1])
    assert got == [("round-3", 1), ("round-5", 2), ("round-7", 3)]


def test_off_by_default():
    assert not SnapshotPolicy().enabled
    assert _emitted(SnapshotPolicy(), [0.0, 10.0, 100.0]) == []


@pytest.mark.parametrize("kw, says", [
    (dict(rounds=1, seconds=1.0), "cannot both be enabled"),
    (dict(rounds=0), "--snapshot-interval-rounds must be -1 (off) or greater than 0"),
    (dict(seconds=-2.0), "--snapshot-interval-seconds must be -1"),
])
def test_refusals(kw, says):
    with pytest.raises(LoomError) as exc:
        SnapshotPolicy(**kw)
    assert says in exc.value.message and "\n" not in exc.value.message


def test_names_follow_loom():
    # LOOM's sanitizeSnapshotLabel: lowercase, other runs one dash, none trailing
    assert label("Local Repair/Update!") == "local-repair-update"
    assert snapshot_stem("dfg.fabric", 12, "route-round", 12) == \
        "dfg.fabric.snapshot-0012.route-round.mapper-0012"


@needs_mirror
def test_loom_case_snapshot_round(tmp_path):
    args = loom_args("mapper-snapshot-round")
    assert args == ["--mapper-snapshot-interval-rounds", "1"]
    assert map_case("mapper-snapshot-round", tmp_path, tuple(args)) == 0
    run_check("mapper-snapshot-round", tmp_path)
    names = sorted(p.name for p in (tmp_path / "mapper-snapshots").iterdir())
    assert names[:2] == ["dfg.fabric.snapshot-0001.route-round.mapper-0001.map.json",
                         "dfg.fabric.snapshot-0001.route-round.mapper-0001.viz.html"]


@needs_mirror
def test_loom_case_snapshot_invalid_is_refused(tmp_path, capsys):
    args = loom_args("mapper-snapshot-invalid")
    assert map_case("mapper-snapshot-invalid", tmp_path, tuple(args)) == 2
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 1 and "cannot both be enabled" in err[0]
