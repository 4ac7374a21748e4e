"""spatial_sw: each output repeats the stream of its one routed input; an
input routed to several outputs is broadcast to all of them; an input with
no route is never consumed.

Spec: docs/fabric/spatial_sw.md
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from loom.fabric.config_layout import route_field
from loom.fabric.models import Streams


def routes(fields: Mapping[str, int], n_in: int, n_out: int) -> list[list[int]]:
    """Per output, the inputs routed to it (field `route.o<o>.i<i>`)."""
    return [[i for i in range(n_in) if fields.get(route_field(o, i), 0)]
            for o in range(n_out)]


def spatial_sw(fields: Mapping[str, int], inputs: Sequence[Sequence[int]],
               n_out: int) -> Streams:
    table = routes(fields, len(inputs), n_out)
    for o, srcs in enumerate(table):
        if len(srcs) > 1:
            raise ValueError(f"output {o} has {len(srcs)} sources; a legal route has one")
    outputs = [list(inputs[srcs[0]]) if srcs else [] for srcs in table]
    routed = {i for srcs in table for i in srcs}
    return Streams(outputs, [len(s) if i in routed else 0 for i, s in enumerate(inputs)])
