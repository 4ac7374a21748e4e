"""The control registers of an exported kernel: Vitis HLS's ap_ctrl_hs map.

The layout integrators know from Vitis HLS's `s_axi_control` (its generated
driver headers document it the same way):

    0x00 CTRL  bit 0 ap_start (R/W; the block clears it when it has taken
               the invocation's inputs, unless auto_restart is set)
               bit 1 ap_done (R, clear on read)   bit 2 ap_idle (R)
               bit 3 ap_ready (R, clear on read)  bit 7 auto_restart (R/W)
               bit 9 interrupt (R: the interrupt line)
    0x04 GIE   bit 0 global interrupt enable
    0x08 IER   bit 0 ap_done, bit 1 ap_ready interrupt enable
    0x0C ISR   bit 0 ap_done, bit 1 ap_ready status (R, toggle on write)
    0x10 ...   the arguments in declaration order: a scalar of up to 32
               bits takes a data word and one reserved word; a 64-bit value
               (an array's base address, a 64-bit scalar) a low word, a high
               word and one reserved word; then the results the same way.

Vitis HLS puts `ap_return` before the arguments; here the results follow
them (issue 34's map), so an argument's offset does not depend on whether
the function returns a value. Every consumer (the SystemRDL, the shell,
the C driver, the README, the tests) reads this model.
"""

from __future__ import annotations

from dataclasses import dataclass

from loom.diagnostics import LoomError, Location

ARGS_BASE = 0x10
WORD = 4
CONTROL_NAMES = ("CTRL", "GIE", "IER", "ISR")
# Vitis HLS's access names: COH clear on handshake (the block clears it),
# COR clear on read, TOW toggle on write; "r/we" a result the block writes.
ACCESSES = ("rw", "rw/coh", "r", "r/cor", "rw/tow", "r/we")


@dataclass(frozen=True)
class Field:
    name: str
    lsb: int
    width: int
    access: str        # ACCESSES
    doc: str


@dataclass(frozen=True)
class Register:
    name: str
    offset: int
    fields: tuple[Field, ...]
    doc: str


@dataclass(frozen=True)
class Value:
    """One argument or result of the kernel as the host sees it."""

    name: str           # the C name (argN / ap_return when none is known)
    index: int          # argument or result position
    width: int          # bits: a scalar's width, 64 for an array's base address
    is_array: bool
    c_type: str         # the driver's C type of the register value
    offset: int         # of its first data word
    words: int          # data words (1 or 2); one reserved word follows

    @property
    def registers(self) -> tuple[str, ...]:
        if self.words == 1:
            return (self.name,)
        return (f"{self.name}_lo", f"{self.name}_hi")

    @property
    def word_offsets(self) -> tuple[tuple[str, int], ...]:
        """(register, byte offset) of each data word, low word first."""
        return tuple((name, self.offset + WORD * k) for k, name in enumerate(self.registers))


@dataclass(frozen=True)
class Param:
    """What the register map needs of one function argument."""

    name: str
    width: int          # scalar bits, or the element's bits of an array
    is_array: bool
    is_float: bool = False
    elements: int = 0   # an array's element count


@dataclass(frozen=True)
class RegisterMap:
    kernel: str
    control: tuple[Register, ...]
    args: tuple[Value, ...]
    results: tuple[Value, ...]

    @property
    def values(self) -> tuple[Value, ...]:
        return self.args + self.results

    @property
    def end(self) -> int:
        """The byte after the last register (reserved words after it do not count)."""
        return max([ARGS_BASE] + [v.offset + v.words * WORD for v in self.values])

    @property
    def addr_bits(self) -> int:
        """Bits of an AXI4-Lite address into the map, as PeakRDL-regblock sizes them."""
        return (self.end - 1).bit_length()

    def value(self, name: str) -> Value:
        return next(v for v in self.values if v.name == name)

    def offsets(self) -> dict[str, int]:
        """Every register's byte offset by name: control, arguments, results."""
        out = {r.name: r.offset for r in self.control}
        for v in self.values:
            out |= dict(v.word_offsets)
        return out

    def bit(self, register: str, field: str) -> int:
        """The position of a control register's field (`bit("CTRL", "ap_done")`)."""
        reg = next(r for r in self.control if r.name == register)
        return next(f.lsb for f in reg.fields if f.name == field)


def _control() -> tuple[Register, ...]:
    return (
        Register("CTRL", 0x00, (
            Field("ap_start", 0, 1, "rw/coh", "start an invocation; cleared by the block when it "
                  "has taken the inputs (kept with auto_restart)"),
            Field("ap_done", 1, 1, "r/cor", "the invocation finished: results valid, memory "
                  "written; cleared when read"),
            Field("ap_idle", 2, 1, "r", "no invocation in progress"),
            Field("ap_ready", 3, 1, "r/cor", "the inputs were taken; cleared when read"),
            Field("auto_restart", 7, 1, "rw", "start again after each ap_done"),
            Field("interrupt", 9, 1, "r", "the interrupt line"),
        ), "control signals"),
        Register("GIE", 0x04, (Field("enable", 0, 1, "rw", "global interrupt enable"),),
                 "global interrupt enable"),
        Register("IER", 0x08, (
            Field("ap_done", 0, 1, "rw", "interrupt on ap_done"),
            Field("ap_ready", 1, 1, "rw", "interrupt on ap_ready"),
        ), "IP interrupt enable"),
        Register("ISR", 0x0C, (
            Field("ap_done", 0, 1, "rw/tow", "ap_done interrupt pending; write 1 to toggle"),
            Field("ap_ready", 1, 1, "rw/tow", "ap_ready interrupt pending; write 1 to toggle"),
        ), "IP interrupt status"),
    )


def _c_type(width: int, is_float: bool) -> str:
    if is_float:
        return "float" if width == 32 else "double"
    return "uint32_t" if width <= 32 else "uint64_t"


def register_map(kernel: str, params: list[Param], results: list[Param],
                 where: Location | None = None) -> RegisterMap:
    """The map of `kernel` with these arguments and results, in order."""
    offset = ARGS_BASE
    values: list[Value] = []
    taken = {n.lower() for n in CONTROL_NAMES}
    for i, p in enumerate(params + results):
        index = i if i < len(params) else i - len(params)
        width = 64 if p.is_array else p.width
        if width > 64:
            raise LoomError(f"'{p.name}' is {width} bits wide; the control registers take "
                            "scalars of up to 64 bits", where)
        words = 1 if width <= 32 else 2
        name = p.name
        if name.lower() in taken:
            raise LoomError(f"the name '{name}' is taken twice in the register map "
                            f"(a control register or another argument)", where)
        taken.add(name.lower())
        c_type = "uint64_t" if p.is_array else _c_type(p.width, p.is_float)
        values.append(Value(name, index, width, p.is_array, c_type, offset, words))
        offset += (words + 1) * WORD
    return RegisterMap(kernel, _control(), tuple(values[:len(params)]),
                       tuple(values[len(params):]))
