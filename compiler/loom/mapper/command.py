"""`loom map K --adg A [--seed N] [--rounds N] [--snapshot-interval-rounds N] [-o DIR]`: place and route a
kernel onto an ADG and write LOOM's map and config artifacts,
`DIR/<dfg>.<adg>.*` (the library: loom.mapper.kernel_map).
"""

from __future__ import annotations

import argparse

from loom.inputs import KernelSource
from loom.mapper.kernel_map import MapRequest, map_kernel
from loom.mapper.mapping import ROUNDS
from loom.mapper.snapshots import DISABLED, SnapshotPolicy
from loom.mapper.stats import map_stats


def map_request(args: argparse.Namespace, seed: int, rounds: int | None) -> MapRequest:
    """The request `loom map` (--seed, --rounds) or `loom sim --adg`
    (--map-seed, --map-rounds) parsed."""
    return MapRequest(KernelSource.from_args(args), args.adg, seed,
                      ROUNDS if rounds is None else rounds, getattr(args, "progress", None),
                      SnapshotPolicy(getattr(args, "snapshot_rounds", DISABLED),
                                     getattr(args, "snapshot_seconds", DISABLED)))


def map_main(args: argparse.Namespace) -> int:
    mk = map_kernel(map_request(args, args.seed, args.rounds))
    print(f"map: {mk.inputs.name} on {mk.target.name}: {map_stats(mk.mapping).line()}")
    if mk.mapping.seed != args.seed:   # a near miss mapped again (mapping.LANES)
        print(f"     seed {args.seed} missed narrowly; seed {mk.mapping.seed} fits")
    for line in mk.written.throughput.lines():
        print(f"     {line}")
    print(f"     {mk.written.paths['map.json'].parent}/{mk.stem}.{{map.json,map.txt,"
          "config.json,config.bin,config.h,viz.html}")
    return 0


__all__ = ["map_main", "map_request"]
