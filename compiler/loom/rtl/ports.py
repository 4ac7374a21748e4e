"""Handshake ports of an RTL unit and their SystemVerilog declarations.

A port is one channel, or an N-ary group of channels packed into buses
(design.md section 5): channel `x` is `x_data`/`x_valid`/`x_ready`, plus one
`x_<name>` bus per downstream extra signal (seed 004). A control channel
(width 0) has no data port at all.
"""

from __future__ import annotations

from dataclasses import dataclass

Extras = tuple[tuple[str, int], ...]


@dataclass(frozen=True)
class Port:
    name: str
    direction: str          # "in" | "out": direction of the data flow
    width: int              # data bits per channel; 0 = control channel
    count: int | None = None  # None: one channel; k: k channels packed LSB-first
    extras: Extras = ()     # downstream extra signals, composed above the data
    plain: bool = False     # one wire `name` of max(width, 1) bits, no handshake
                            # (extmemory's mem_idle, a configurable unit's mode)

    @property
    def n(self) -> int:
        return 1 if self.count is None else self.count

    @property
    def extra_width(self) -> int:
        return sum(w for _, w in self.extras)

    @property
    def bus_width(self) -> int:
        """Data plus extras: the width of the composed bus inside the unit."""
        return self.width + self.extra_width

    def channel_names(self) -> list[str]:
        """One name per channel: `x` for a scalar port, `x0`, `x1`, ... for N-ary."""
        if self.count is None:
            return [self.name]
        return [f"{self.name}{i}" for i in range(self.count)]

    def signals(self) -> list[tuple[str, str, int]]:
        """(direction, signal name, total bits) of every wire of the port."""
        fwd = "input" if self.direction == "in" else "output"
        bwd = "output" if self.direction == "in" else "input"
        if self.plain:
            return [(fwd, self.name, max(self.width, 1))]
        sigs = []
        if self.width:
            sigs.append((fwd, f"{self.name}_data", self.width * self.n))
        for ename, ew in self.extras:
            sigs.append((fwd, f"{self.name}_{ename}", ew * self.n))
        sigs.append((fwd, f"{self.name}_valid", self.n))
        sigs.append((bwd, f"{self.name}_ready", self.n))
        return sigs


def _range(bits: int, force: bool) -> str:
    return f"[{bits - 1}:0] " if bits > 1 or force else ""


def port_declarations(ports: tuple[Port, ...], clocked: bool) -> str:
    """The ANSI port list of a module, one declaration per line."""
    lines = []
    if clocked:
        lines += ["input  logic clk", "input  logic rst"]
    for p in ports:
        for direction, name, bits in p.signals():
            # data and extras always have a range ([0:0] for one bit); N-ary
            # valid/ready are buses even with one channel, so that indexing
            # in the template body stays uniform.
            force = not p.plain and (p.count is not None or not name.endswith(("_valid", "_ready")))
            pad = "input " if direction == "input" else "output"
            lines.append(f"{pad} logic {_range(bits, force)}{name}")
    return ",\n".join("  " + line for line in lines)


def compose_assigns(port: Port, bus: str) -> list[str]:
    """Wires composing (inputs) or decomposing (outputs) a port's data and
    extras into/out of `bus`: data in the low bits, then each extra in order
    (the golden Compose packing)."""
    if port.bus_width == 0:
        return []
    dw = port.bus_width
    lines = [f"logic [{dw * port.n - 1}:0] {bus};"]
    for i in range(port.n):
        parts = []   # MSB first for a concatenation
        for ename, ew in reversed(port.extras):
            parts.append(_slice(f"{port.name}_{ename}", i, ew, port.count is not None))
        if port.width:
            parts.append(_slice(f"{port.name}_data", i, port.width, port.count is not None))
        cat = parts[0] if len(parts) == 1 else "{" + ", ".join(parts) + "}"
        lhs = _slice(bus, i, dw, port.count is not None)
        if port.direction == "in":
            lines.append(f"assign {lhs} = {cat};")
        else:
            lines.append(f"assign {cat} = {lhs};")
    return lines


def _slice(sig: str, i: int, w: int, nary: bool) -> str:
    if not nary:
        return sig
    return f"{sig}[{i * w + w - 1}:{i * w}]" if w > 1 else f"{sig}[{i * w}]"
