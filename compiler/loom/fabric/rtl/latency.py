"""The fabric's own buffers: what the fabric RTL puts on a route besides the
function units, and the cycles a token spends in each. The RTL renders them
from these definitions and loom.mapper.throughput counts them, so the model
and the hardware cannot drift apart.

- a spatial PE output leaves through a two-slot buffer (modules.py) unless
  its one consumer is a fabric.fifo (AdgView.output_buffered);
- a link AdgView.link_buffer names gets the same buffer (top.py);
- a fabric.fifo node is its depth's buffer, or no latency when bypassed (its
  slots stay: docs/fabric/fifo.md);
- a store's address and data wait in a latch for the lanes' bridge (a
  memory's result families leave through a two-slot queue that passes a
  result at once when empty: no cycle)
  (templates/fabric_memory_lanes.sv.j2).
Switches, tag ops and a PE's muxes are combinational (0 cycles).
"""

from __future__ import annotations

from functools import cache

from loom.rtl.timing import unit_timing
from loom.rtl.units import unit_spec

OUTPUT_BUFFER_SLOTS = 2
"""The buffer on every PE output: registered valid and ready."""
LINK_BUFFER_SLOTS = 2
"""The buffer on a backward switch link or after a del_tag."""
STORE_LATCH_LATENCY = 1
"""A store lane's address and data registers in front of the bridge."""


@cache
def buffer_latency(slots: int) -> int:
    """Cycles through our buffer unit of `slots` slots (oehb for one, as
    fabric.fifo builds it; the fifo unit above)."""
    spec = unit_spec("oehb", w=1) if slots == 1 else unit_spec("fifo", slots=slots, w=1)
    return max(a.latency for a in unit_timing(spec).arcs)


__all__ = ["LINK_BUFFER_SLOTS", "OUTPUT_BUFFER_SLOTS",
           "STORE_LATCH_LATENCY", "buffer_latency"]
