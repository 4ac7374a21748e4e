"""temporal_pe: instruction slots share the PE's function units in time. A
token entering on PE input i belongs to the first valid slot whose `tag`
equals its own; it fills every operand k of that slot whose input mux
selects i (not discarding, not disconnected, not read from a register). A
token whose slot takes nothing from i, or whose tag no slot holds, stops its
input for good; so does a token whose operands are still full.

A slot fires its unit (`opcode`) once each required operand holds a token
(a buffered one, or the front of register `operand<k>.reg` when `is_reg`);
the unit's results leave on the PE output their demux selects, tagged
`result<k>.tag`, or drain (discard), or enter register `result<k>.reg`
(a FIFO of `reg_fifo_depth`; while it is full the result waits in the
unit's output register and the unit fires for no other slot).
Operand buffers are one token per slot and operand, or, when shared, one
FIFO of rows per slot holding `operand_buffer_size` rows over all slots
(operand k's n-th token fills the slot's n-th row).

Timing-free: a PE output's tokens of one tag come in the order the model
gives; tokens of different tags interleave as arbitration has it (compare
per tag). Each register must have one writing and one reading slot, and a
slot that writes a register must not share its unit with one that reads
it (else whether the unit waits on a full register depends on timing).

Spec: docs/fabric/temporal_pe.md
"""

from __future__ import annotations

from collections import deque
from collections.abc import Mapping, Sequence

from loom.fabric.adg_view import TemporalPeShape
from loom.fabric.models import Streams, low_bits
from loom.fabric.models.function_unit import FuModel
from loom.golden.actor import drive_actor


def insn_field(s: int, name: str) -> str:
    """Field `name` of instruction slot `s` (config_layout's temporal_pe names)."""
    return f"insn{s}.{name}"


class _Slot:
    """One instruction slot's decoded fields."""

    def __init__(self, fields: Mapping[str, int], s: int, fu: FuModel | None, n_fu: int):
        def get(name: str) -> int:
            return fields.get(insn_field(s, name), 0)

        self.valid = bool(get("valid")) and fu is not None
        self.tag, self.opcode = get("tag"), get("opcode")
        self.fu = fu
        n = len(fu.in_widths) if fu else 0
        self.reg = {k: get(f"operand{k}.reg") for k in range(n) if get(f"operand{k}.is_reg")}
        self.ingress = {k: get(f"in{k}.sel") for k in range(n) if k not in self.reg
                        and not get(f"in{k}.discard") and not get(f"in{k}.disconnect")}
        m = len(fu.out_widths) if fu else 0
        self.results = []
        for k in range(m):
            if get(f"result{k}.is_reg"):
                self.results.append(("reg", get(f"result{k}.reg")))
            elif get(f"out{k}.discard"):
                self.results.append(("drop", 0))
            elif get(f"out{k}.disconnect"):
                self.results.append(("stall", 0))
            else:
                self.results.append(("out", (get(f"out{k}.sel"), get(f"result{k}.tag"))))

    def takes(self, i: int) -> list[int]:
        """The operands a token from PE input i fills."""
        return [k for k, src in self.ingress.items() if src == i]


def _payload(fields: Mapping[str, int], j: int) -> dict[str, int]:
    """Unit j's payload (`fu<j>.<op>.<part>`) in the names FuModel reads (`fu.<op>.<part>`)."""
    prefix = f"fu{j}."
    return {"fu." + k[len(prefix):]: v for k, v in fields.items() if k.startswith(prefix)}


class _Buffers:
    """Operand buffers: one row per slot (`shared` False, capacity 1), or a
    FIFO of rows per slot sharing `size` rows."""

    def __init__(self, slots: int, shared: bool, size: int):
        self.rows: list[deque[dict[int, int]]] = [deque() for _ in range(slots)]
        self.shared, self.size = shared, size

    def _used(self) -> int:
        return sum(len(r) for r in self.rows)

    def _row_for(self, s: int, k: int) -> int | None:
        """The row operand k's next token fills (len: a new one), or None: no room."""
        rows = self.rows[s]
        n = next((n for n, row in enumerate(rows) if k not in row), len(rows))
        if not self.shared:
            return n if n == 0 else None
        return n if n < len(rows) or self._used() < self.size else None

    def can_take(self, s: int, ks: list[int]) -> bool:
        return all(self._row_for(s, k) is not None for k in ks)

    def put(self, s: int, ks: list[int], value: int) -> None:
        for k in ks:
            n = self._row_for(s, k)
            assert n is not None
            if n == len(self.rows[s]):
                self.rows[s].append({})
            self.rows[s][n][k] = value

    def front(self, s: int) -> dict[int, int]:
        return self.rows[s][0] if self.rows[s] else {}

    def pop(self, s: int) -> None:
        self.rows[s].popleft()


def temporal_pe(fields: Mapping[str, int], inputs: Sequence[Sequence[int]],
                shape: TemporalPeShape, fus: Sequence[FuModel]) -> Streams:
    v = shape.value_bits
    slots = [_Slot(fields, s, fus[o] if (o := fields.get(insn_field(s, "opcode"), 0)) < len(fus)
                   else None, len(fus)) for s in range(shape.slots)]
    actors = [fu.actor(_payload(fields, j)) for j, fu in enumerate(fus)]
    queues = [deque(stream) for stream in inputs]
    bufs = _Buffers(shape.slots, shape.shared, shape.buffer_size)
    regs: list[deque[int]] = [deque() for _ in range(shape.registers)]
    outputs: list[list[int]] = [[] for _ in range(shape.n_out)]
    held: list[deque[tuple[int, int]]] = [deque() for _ in fus]
    """Per unit, results waiting in its output registers for register room:
    the unit fires again only once they are in (its registers hold one
    firing's results)."""

    def slot_of(token: int) -> _Slot | None:
        return next((s for s in slots if s.valid and s.tag == token >> v), None)

    def enter(i: int) -> bool:
        if not queues[i]:
            return False
        slot = slot_of(queues[i][0])
        ks = slot.takes(i) if slot else []
        if not ks or not bufs.can_take(slots.index(slot), ks):
            return False
        bufs.put(slots.index(slot), ks, low_bits(queues[i].popleft(), v))
        return True

    def fire(n: int, slot: _Slot) -> bool:
        assert slot.fu is not None
        if not slot.ingress and not slot.reg:
            return False   # the unit is offered nothing
        row = bufs.front(n)
        if any(k not in row for k in slot.ingress) or any(
                not regs[r] for r in slot.reg.values()):
            return False
        if held[slot.opcode]:
            return False   # the unit still holds a result for a full register
        if any(kind == "stall" for kind, _ in slot.results):
            return False   # its first result would hold the unit for good
        operands = []
        for k, width in enumerate(slot.fu.in_widths):
            value = regs[slot.reg[k]][0] if k in slot.reg else row.get(k)
            operands.append([] if value is None else [None if width == 0 else low_bits(value,
                                                                                     width)])
        outs, taken = drive_actor(actors[slot.opcode], operands)
        if not any(taken):
            return False   # the unit waits for an operand no field offers
        if slot.ingress:
            bufs.pop(n)
        for r in set(slot.reg.values()):
            regs[r].popleft()
        for (kind, where), stream in zip(slot.results, outs):
            for x in stream:
                value = low_bits(0 if x is None else int(x), v)
                if kind == "reg":
                    held[slot.opcode].append((where, value))   # type: ignore[arg-type]
                elif kind == "out":
                    o, tag = where   # type: ignore[misc]
                    outputs[o].append(tag << v | value)
        push(slot.opcode)
        return True

    def push(j: int) -> bool:
        """Unit j's held results enter their registers while they have room."""
        moved = False
        while held[j] and len(regs[held[j][0][0]]) < shape.reg_depth:
            r, value = held[j].popleft()
            regs[r].append(value)
            moved = True
        return moved

    consumed = [0] * shape.n_in
    progress = True
    while progress:
        progress = False
        for j in range(len(fus)):
            progress |= push(j)
        for i in range(shape.n_in):
            while enter(i):
                consumed[i] += 1
                progress = True
        for n, slot in enumerate(slots):
            while slot.valid and fire(n, slot):
                progress = True
    return Streams(outputs, consumed)
