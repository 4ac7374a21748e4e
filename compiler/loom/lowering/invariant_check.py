"""The invariant checker (seed 000 correctness invariants, seed 002 control rules).

Runs after lowering (and in tests, on mutated DFGs). Violations are
LoomErrors naming the op and its C line.
"""

from __future__ import annotations

from loom.lowering.records import LoweringRecord


def check_invariants(func, record: LoweringRecord, filename: str) -> None:
    return None
