"""temporal_sw: a token's routes are those of the first valid route-table
slot holding its tag (`slot<s>.valid/.tag/.route.o<o>.i<i>`); it reaches
every routed output; a token with no slot or no route stops its input's
stream (it waits forever). Outputs fed by one input each (no merging: the
order of merged streams depends on timing).

Spec: docs/fabric/temporal_sw.md
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from loom.fabric.config_layout import route_field, slot_field
from loom.fabric.models import Streams


def temporal_sw(fields: Mapping[str, int], inputs: Sequence[Sequence[int]], n_out: int,
                slots: int, value_bits: int) -> Streams:
    outputs: list[list[int]] = [[] for _ in range(n_out)]
    sources: dict[int, int] = {}
    consumed = []
    for i, stream in enumerate(inputs):
        taken = 0
        for x in stream:
            tag = x >> value_bits
            slot = next((s for s in range(slots) if fields.get(slot_field(s, "valid"), 0)
                         and fields.get(slot_field(s, "tag"), 0) == tag), None)
            outs = [] if slot is None else [
                o for o in range(n_out) if fields.get(slot_field(slot, route_field(o, i)), 0)]
            if not outs:
                break
            for o in outs:
                if sources.setdefault(o, i) != i:
                    raise ValueError(f"output {o} merges inputs {sources[o]} and {i}")
                outputs[o].append(x)
            taken += 1
        consumed.append(taken)
    return Streams(outputs, consumed)
