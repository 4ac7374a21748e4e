"""The preset grammar's limits (presets.MESH_MAX, TRACKS_MAX, MEMORIES_MAX,
LANES_MAX, the bridge fan-in): a name past them is refused in one line
before anything is built (issue 29: `loom adg chess-99x99-ext99` gave no
answer in two minutes), and every name in use stays within them."""

import re
import time
from pathlib import Path

import pytest

import loom.fabric.presets as presets_module
from loom.cli import main
from loom.diagnostics import LoomError
from loom.fabric.presets import (INPUT_SLOTS_MAX, LANES_MAX, MEMORIES_MAX, MESH_MAX, TRACKS_MAX,
                                 parse_preset, preset, presets)

BENCH_README = Path(__file__).resolve().parents[2] / "bench" / "README.md"

# (name, what the one-line message says of it)
PAST = [
    ("chess-99x99-ext99", f"at most {MESH_MAX} rows and {MESH_MAX} columns (99x99)"),
    (f"chess-{MESH_MAX + 1}x2", f"({MESH_MAX + 1}x2)"),
    (f"chess-2x{MESH_MAX + 1}", f"(2x{MESH_MAX + 1})"),
    ("chess-" + "9" * 5000 + "x2", "at most 32 rows"),   # int() of 5000 digits raises
    (f"chess-2x2-t{TRACKS_MAX + 1}", f"at most {TRACKS_MAX} tracks (-t{TRACKS_MAX + 1})"),
    ("chess-2x2-t1000000000000", "(-t1000000000000)"),
    (f"chess-2x2-ext{MEMORIES_MAX + 1}", f"at most {MEMORIES_MAX} memories of a kind (-ext65)"),
    (f"chess-2x2-mem{MEMORIES_MAX + 1}", "(-mem65)"),
    ("chess-2x2-ext99999999999", "(-ext99999999999)"),
    (f"chess-2x2-ext1x{LANES_MAX + 1}", f"at most {LANES_MAX} load lanes and {LANES_MAX} "
                                         f"store lanes (-ext1x{LANES_MAX + 1})"),
    (f"chess-2x2-ext1x1s{LANES_MAX + 1}", f"(-ext1x1s{LANES_MAX + 1})"),
    ("chess-2x2-ext1-mem2x2s999999", "(-mem2x2s999999)"),
    ("chess-2x2-ext2x2-b33", "a bridge switch takes 2 to 32 lanes (-b33)"),
    ("chess-2x2-ext2x2-b" + "9" * 50, "a bridge switch takes 2 to 32 lanes"),
    ("chess-0x2", "must be at least 1"),
    (f"chess-2x2-d{MESH_MAX + 1}", f"dividers every 1 to {MESH_MAX} rows and columns (-d33)"),
    ("chess-2x2-ext1-d0-f", "(-d0)"),
    (f"chess-2x2-m{MESH_MAX + 1}", f"multipliers every 1 to {MESH_MAX} rows (-m33)"),
    ("chess-2x2-ext1-m0-f", "(-m0)"),
    ("chess-2x2-ext1-f0", "a PE input fifo has 1 to 64 slots (-f0)"),
    ("chess-2x2-ext1-f65", "(-f65)"),
]


@pytest.mark.parametrize("name,says", PAST, ids=[n[:40] for n, _ in PAST])
def test_a_name_past_the_limits_is_refused_before_anything_is_built(name, says, monkeypatch):
    def never(*_):
        raise AssertionError("built")
    monkeypatch.setattr(presets_module, "build_chess", never)
    t0 = time.perf_counter()
    with pytest.raises(LoomError) as exc:
        preset(name)
    assert time.perf_counter() - t0 < 1
    message = exc.value.message
    assert message.startswith(f"ADG preset '{name}': ") and "\n" not in message
    assert says in message


def test_the_largest_names_within_the_limits_parse():
    top = (f"chess-{MESH_MAX}x{MESH_MAX}-t{TRACKS_MAX}-ext{MEMORIES_MAX}x{LANES_MAX}s{LANES_MAX}"
           f"-mem{MEMORIES_MAX}x{LANES_MAX}s{LANES_MAX}-ring-b2-d{MESH_MAX}-m{MESH_MAX}"
           f"-f{INPUT_SLOTS_MAX}")
    p = parse_preset(top)
    assert (p.rows, p.cols, p.tracks, p.ext.count, p.on_chip.store_lanes, p.divider_every,
            p.name) == (MESH_MAX, MESH_MAX, TRACKS_MAX, MEMORIES_MAX, LANES_MAX, MESH_MAX, top)
    assert parse_preset("chess-1x1").rows == 1


def test_every_named_preset_and_every_name_of_the_bench_notes_is_within_the_limits():
    for p in presets():
        assert parse_preset(p.name) == p
    used = set(re.findall(r"chess-\d+x\d+[\w-]*", BENCH_README.read_text()))
    assert any(n.startswith("chess-24x24") for n in used)
    for name in used:
        parse_preset(name.rstrip("-"))


def test_tracks_max_is_the_switch_port_limit():
    """One more track than TRACKS_MAX: a switch inside the mesh has more than 32 ports."""
    preset(f"chess-2x2-t{TRACKS_MAX}")
    with pytest.raises(LoomError, match=r"36 input ports \(a switch has 1..32\)"):
        presets_module.build_chess(presets_module.ChessPreset(2, 2, tracks=TRACKS_MAX + 1))


@pytest.mark.parametrize("argv,name", [
    (["adg", "chess-99x99-ext99"], "chess-99x99-ext99"),
    (["map", "vecadd", "--adg", "chess-99x99"], "chess-99x99"),
    (["sim", "vecadd", "--adg", "chess-99x99"], "chess-99x99"),
    (["rtl", "--adg", "chess-99x99"], "chess-99x99"),
], ids=lambda v: v[0] if isinstance(v, list) else "")
def test_each_command_refuses_a_preset_past_the_limits_in_one_line(argv, name, tmp_path, capsys):
    t0 = time.perf_counter()
    assert main([*argv, "-o", str(tmp_path)]) == 2
    assert time.perf_counter() - t0 < 30
    err = capsys.readouterr().err
    assert err == (f"loom: error: ADG preset '{name}': a mesh has at most {MESH_MAX} rows and "
                   f"{MESH_MAX} columns (99x99)\n"), err
