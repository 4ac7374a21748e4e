"""What `loom map` prints of a mapping (mapper/stats.py): the switches and the
busiest switch are the mesh's, where routing chose; a memory's bridge
switches (fixed paths, bridges.py) are not counted. The reference is the
preset's size: a 4x4 chess mesh has 5 x 5 switches."""

from __future__ import annotations

import re
from pathlib import Path

from loom.cli import main

KERNELS = Path(__file__).resolve().parents[2] / "kernels"


def test_the_counted_switches_are_the_meshs(tmp_path, capsys):
    # -b2: three load lanes per extmemory make bridge trees of 1:2 switches;
    # each bridge switch passes one lane (1/1 outputs), which outranked every
    # mesh switch before bridges were left out
    assert main(["map", str(KERNELS / "prefix_sum.c"), "--adg", "chess-4x4-ext2x3-b2",
                 "-o", str(tmp_path)]) == 0
    line = next(s for s in capsys.readouterr().out.splitlines() if s.startswith("map: "))
    m = re.search(r"(\d+) switches, \d+ hops, busiest switch (\S+) (\d+)/(\d+) outputs", line)
    assert m, line
    assert 0 < int(m[1]) <= 25
    assert re.fullmatch(r"sw_[0-4]_[0-4]", m[2]), line
    assert 0 < int(m[3]) <= int(m[4])
