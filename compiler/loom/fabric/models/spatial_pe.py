"""spatial_pe: the active function unit (opcode) sees, on FU input k, the PE
input its mux field selects; its outputs leave on the PE outputs their demux
fields select, or drain (discard). A PE input that a discarding mux selects
is consumed and dropped; a PE input nothing selects is never consumed. A
disabled PE consumes and produces nothing.

The function unit's semantics are its model (function_unit.py); values are
LSB-aligned in the PE's lanes (truncated to the FU port, zero-extended back).

Spec: docs/fabric/spatial_pe.md
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from loom.fabric.config_layout import mux_field, pe_mux
from loom.fabric.models import Streams
from loom.fabric.models.function_unit import FuModel
from loom.golden.actor import drive_actor

def _in(k: int, part: str) -> str:
    return mux_field(pe_mux("in", k), part)


def _out(r: int, part: str) -> str:
    return mux_field(pe_mux("out", r), part)


def _to_fu(x: int, width: int) -> int | None:
    return None if width == 0 else x & ((1 << width) - 1)


def spatial_pe(fields: Mapping[str, int], inputs: Sequence[Sequence[int]], n_out: int,
               fus: Sequence[FuModel]) -> Streams:
    n_in = len(inputs)
    none = Streams([[] for _ in range(n_out)], [0] * n_in)
    if not fields.get("enable", 0):
        return none
    fu = fus[fields.get("opcode", 0)]
    consumed = [0] * n_in
    fu_inputs: list[list[int | None]] = []
    for k, width in enumerate(fu.in_widths):
        if fields.get(_in(k, "disconnect"), 0) or fields.get(_in(k, "discard"), 0):
            fu_inputs.append([])
            continue
        src = fields.get(_in(k, "sel"), 0)
        fu_inputs.append([_to_fu(x, width) for x in inputs[src]])
    payload = {k: v for k, v in fields.items() if k.startswith("fu.")}
    outs, taken = drive_actor(fu.actor(payload), fu_inputs)
    for k in range(len(fu.in_widths)):
        if fu_inputs[k]:
            consumed[fields.get(_in(k, "sel"), 0)] = taken[k]
    # a discarding mux field drains the PE input it selects
    k = 0
    while _in(k, "discard") in fields or _in(k, "sel") in fields or k < len(fu.in_widths):
        if fields.get(_in(k, "discard"), 0) and not fields.get(_in(k, "disconnect"), 0):
            src = fields.get(_in(k, "sel"), 0)
            consumed[src] = len(inputs[src])
        k += 1
    outputs: list[list[int]] = [[] for _ in range(n_out)]
    for r, stream in enumerate(outs):
        if fields.get(_out(r, "discard"), 0) or fields.get(_out(r, "disconnect"), 0):
            continue
        outputs[fields.get(_out(r, "sel"), 0)] = [0 if x is None else int(x) for x in stream]
    return Streams(outputs, consumed)

