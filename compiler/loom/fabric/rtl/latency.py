"""The fabric's own buffers: what the fabric RTL puts on a route besides the
function units, and the cycles a token spends in each. The RTL renders them
from these definitions and loom.mapper.throughput counts them, so the model
and the hardware cannot drift apart.

- a spatial PE output leaves through a two-slot buffer (modules.py) unless
  its one consumer is a fabric.fifo (AdgView.output_buffered);
- a link AdgView.link_buffer names gets the same buffer (top.py);
- a fabric.fifo node is its depth's buffer, or no latency when bypassed (its
  slots stay: docs/fabric/fifo.md);
Switches, tag ops and a PE's muxes are combinational (0 cycles), and so
is a memory's lane side (templates/fabric_memory_lanes.sv.j2): a result
family's two-slot queue passes a result at once when empty, and a store
lane's address and data that come together pass its pairing registers at
once.
"""

from __future__ import annotations

from functools import cache

from loom.rtl.timing import unit_timing
from loom.rtl.units import unit_spec

OUTPUT_BUFFER_SLOTS = 2
"""The buffer on every PE output: registered valid and ready."""
LINK_BUFFER_SLOTS = 2
"""The buffer on a backward switch link or after a del_tag."""


@cache
def buffer_latency(slots: int) -> int:
    """Cycles through our buffer unit of `slots` slots (oehb for one, as
    fabric.fifo builds it; the fifo unit above)."""
    spec = unit_spec("oehb", w=1) if slots == 1 else unit_spec("fifo", slots=slots, w=1)
    return max(a.latency for a in unit_timing(spec).arcs)


__all__ = ["LINK_BUFFER_SLOTS", "OUTPUT_BUFFER_SLOTS", "buffer_latency"]
