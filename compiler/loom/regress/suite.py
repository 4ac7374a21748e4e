"""The regression suite: one test per (kernel, stall seed) of the plan.

Run through `loom regress` (or `pytest -p loom.regress.plugin` on this file);
loom/regress/plugin.py parametrizes `case` and shards the runs.
"""

from __future__ import annotations

import pytest

from loom.regress.plan import Case
from loom.regress.plugin import record_properties
from loom.regress.runner import PASS, KernelCache, run_case


def test_run(case: Case, loom_kernels: KernelCache, request: pytest.FixtureRequest) -> None:
    record = run_case(case, loom_kernels)
    request.node.user_properties.extend(record_properties(record))
    assert record.status == PASS, f"{record.status}: " + "\n".join(record.problems)
