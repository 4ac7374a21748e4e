"""Which ADG wire each routed out->in step uses.

The flattened ADG expands a PE's ports (LOOM's ADGFlattener): PE input j
becomes an edge from its producer to every unit input, PE output r an edge
from every unit output. Where one PE feeds another directly, a step
between two unit ports is then carried by several edges, one per PE
output/input pair wired between them, and a port path alone does not say
which. The wire is chosen here, once for the whole mapping: each PE output
index carries one unit output and each PE input index feeds one unit input
(LOOM's C8 and the PE contract), steps in port order, the first free wire
first. A step with no free wire keeps the first, and C8 reports the clash.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from loom.mapper.adg_graph import AdgEdge

if TYPE_CHECKING:   # mapping.py reads the wires once per mapping (Mapping.wires)
    from loom.mapper.mapping import Mapping


def step_wires(m: Mapping) -> dict[tuple[int, int], AdgEdge]:
    """(output port, input port) of every routed step -> its wire; read it
    as `Mapping.wires`, which chooses them once."""
    choices: dict[tuple[int, int], list[AdgEdge]] = {}
    for e in m.adg.edges:
        choices.setdefault((e.src, e.dst), []).append(e)
    steps = sorted({(a, b) for path in m.paths if path and path[0] != path[-1]
                    for a, b in zip(path[0::2], path[1::2])})
    first_unit: dict[str, int] = {}
    for n in m.adg.nodes:
        if n.pe:
            first_unit.setdefault(n.pe, n.id)

    def pe_key(port: int) -> int:
        """The PE of a unit port as a number (its first unit's node id)."""
        node = m.adg.nodes[m.adg.ports[port].node]
        return first_unit[node.pe] if node.pe else node.id

    out_owner: dict[tuple[int, int], int] = {}  # (producing PE, PE output) -> unit port
    in_owner: dict[tuple[int, int], int] = {}   # (consuming PE, PE input) -> unit port
    chosen: dict[tuple[int, int], AdgEdge] = {}
    for a, b in steps:
        options = choices.get((a, b), [])
        if not options:
            continue
        src_pe, dst_pe = pe_key(a), pe_key(b)

        def free(w: AdgEdge) -> bool:
            return (w.pe_output_index < 0 or out_owner.get((src_pe, w.pe_output_index), a) == a) \
                and (w.pe_input_index < 0 or in_owner.get((dst_pe, w.pe_input_index), b) == b)

        wire = next((w for w in options if free(w)), options[0])
        if wire.pe_output_index >= 0:
            out_owner.setdefault((src_pe, wire.pe_output_index), a)
        if wire.pe_input_index >= 0:
            in_owner.setdefault((dst_pe, wire.pe_input_index), b)
        chosen[(a, b)] = wire
    return chosen


__all__ = ["step_wires"]
