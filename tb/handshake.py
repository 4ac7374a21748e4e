"""cocotb components for valid/ready channels, driven from one clock loop.

A channel `x` is the signals `x_valid`, `x_ready`, optionally `x_data` and
one `x_<name>` per downstream extra signal. Its value is None for a control
channel, an int for a data channel, and a tuple (data, extra, ...) when extra
signals ride along (the golden model's convention).

Every component has two hooks called by `tb.bench.Bench` once per cycle:
`drive(cycle)` right after the rising edge (may write signals) and
`sample(cycle, probe)` in the read-only phase, when the cycle's values have
settled (a transfer is `valid && ready` there). One clock loop for all
components keeps the Python cost per cycle low.

Driver and Monitor are also cocotb-bus's BusDriver and BusMonitor on the
channel's signals (one implementation for the unit tests and for anyone
who drives a kernel's valid/ready ports with cocotb-bus): given a clock,
`await driver.send(token)` offers one token and a monitor records
transfers on its own coroutine; without one, the Bench's loop runs them.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any

from cocotb.triggers import ReadOnly, RisingEdge
from cocotb_bus.drivers import BusDriver
from cocotb_bus.monitors import BusMonitor


class ChannelPins:
    """Handles of one channel's signals on the DUT."""

    def __init__(self, dut: Any, prefix: str, width: int,
                 extras: Sequence[tuple[str, int]] = ()):
        self.dut, self.name = dut, prefix
        self.optional = (["data"] if width else []) + [n for n, _ in extras]
        self.valid = getattr(dut, f"{prefix}_valid")
        self.ready = getattr(dut, f"{prefix}_ready")
        self.data = getattr(dut, f"{prefix}_data") if width else None
        self.extras = [getattr(dut, f"{prefix}_{n}") for n, _ in extras]
        self.width = width

    def read(self) -> Any:
        if self.data is None and not self.extras:
            return None
        fields = [int(self.data.value)] if self.data is not None else []
        fields += [int(e.value) for e in self.extras]
        return tuple(fields) if self.extras else fields[0]

    def write(self, value: Any) -> None:
        if self.data is None and not self.extras:
            return
        fields = value if self.extras else (value,)
        handles = ([self.data] if self.data is not None else []) + self.extras
        for h, v in zip(handles, fields):
            h.value = v


@dataclass
class Probe:
    """What one channel did in one cycle."""

    valid: bool
    ready: bool
    value: Any = None   # read only while valid

    @property
    def fire(self) -> bool:
        return self.valid and self.ready


def probe(pins: ChannelPins) -> Probe:
    valid = bool(int(pins.valid.value))
    ready = bool(int(pins.ready.value))
    return Probe(valid, ready, pins.read() if valid else None)


class Monitor(BusMonitor):
    """Records every transfer of a channel as (cycle, value); each is also
    received as a cocotb-bus transaction (callbacks, wait_for_recv)."""

    _signals = ["valid", "ready"]

    def __init__(self, pins: ChannelPins, clock: Any = None):
        self._optional_signals = pins.optional
        self.pins = pins
        self.transfers: list[tuple[int, Any]] = []
        self._cycle = 0
        super().__init__(pins.dut, pins.name, clock)

    async def _monitor_recv(self) -> None:
        if self.clock is None:
            return   # sampled by tb.bench.Bench's loop
        while True:
            await RisingEdge(self.clock)
            await ReadOnly()
            self._cycle += 1
            self.sample(self._cycle, probe(self.pins))

    def drive(self, cycle: int) -> None:
        pass

    def sample(self, cycle: int, p: Probe) -> None:
        if p.fire:
            self.transfers.append((cycle, p.value))
            self._recv(p.value)

    @property
    def count(self) -> int:
        return len(self.transfers)


@dataclass
class ProtocolChecker:
    """Valid, once raised, stays high with stable data until the transfer."""

    pins: ChannelPins
    valid_may_drop: bool = False    # lazy-fork outputs: only data stability applies
    violations: list[str] = field(default_factory=list)
    _stalled: Probe | None = None   # last cycle's probe if it was valid && !ready

    def drive(self, cycle: int) -> None:
        pass

    def sample(self, cycle: int, p: Probe) -> None:
        held = self._stalled
        if held is not None and len(self.violations) < 10:
            if not p.valid:
                if not self.valid_may_drop:
                    self.violations.append(
                        f"{self.pins.name}: valid dropped at cycle {cycle} without a transfer")
            elif p.value != held.value:
                self.violations.append(
                    f"{self.pins.name}: data changed from {held.value!r} to {p.value!r} "
                    f"at cycle {cycle} while the token was not taken")
        if p.valid:
            self._stalled = None if p.ready else p
        elif not self.valid_may_drop:
            self._stalled = None


class Driver(BusDriver):
    """Offers a list of tokens on an input channel, with seeded idle cycles.

    Before each token it stays idle with probability `idle`. A token may wait
    for a condition (`gates[i]`, e.g. "the output has seen k tokens"), so a
    test can keep mutually exclusive inputs exclusive or order memory
    accesses the way the ctrl-done network would.
    """

    _signals = ["valid", "ready"]

    def __init__(self, pins: ChannelPins, tokens: Sequence[Any], rng: random.Random,
                 idle: float = 0.0, gates: Sequence[Callable[[], bool] | None] | None = None,
                 clock: Any = None):
        self._optional_signals = pins.optional
        super().__init__(pins.dut, pins.name, clock)
        self.pins, self.tokens, self.rng, self.idle = pins, list(tokens), rng, idle
        self.gates = list(gates) if gates is not None else [None] * len(self.tokens)
        self.sent = 0
        self.offering = False
        self._valid_out = None
        pins.valid.value = 0

    @property
    def done(self) -> bool:
        return self.sent >= len(self.tokens)

    def drive(self, cycle: int) -> None:
        if self.offering:
            return   # hold valid and data until the transfer
        go = (self.sent < len(self.tokens)
              and (self.gates[self.sent] is None or self.gates[self.sent]())
              and (self.idle <= 0.0 or self.rng.random() >= self.idle))
        if go:
            self.pins.write(self.tokens[self.sent])
            self.offering = True
        if go != self._valid_out:
            self.pins.valid.value = int(go)
            self._valid_out = go

    def sample(self, cycle: int, p: Probe) -> None:
        if self.offering and p.ready:
            self.sent += 1
            self.offering = False

    async def _driver_send(self, transaction: Any, sync: bool = True, **kwargs: Any) -> None:
        """cocotb-bus's send(): offer one token and hold it until it is taken
        (a driver made with a clock, outside the Bench's loop)."""
        if sync:
            await RisingEdge(self.clock)
        self.pins.write(transaction)
        self.bus.valid.value = 1
        await ReadOnly()
        while not int(self.bus.ready.value):
            await RisingEdge(self.clock)
            await ReadOnly()
        await RisingEdge(self.clock)
        self.bus.valid.value = 0


class Backpressure:
    """Drives an output channel's ready: high with probability `ready_prob`
    each cycle, or from a fixed pattern when one is given."""

    def __init__(self, pins: ChannelPins, rng: random.Random, ready_prob: float = 1.0,
                 pattern: Sequence[int] | None = None):
        self.pins, self.rng, self.p = pins, rng, ready_prob
        self.pattern = list(pattern) if pattern else None
        self._out: int | None = None

    def drive(self, cycle: int) -> None:
        if self.pattern:
            r = self.pattern[cycle % len(self.pattern)]
        else:
            r = 1 if self.p >= 1.0 or self.rng.random() < self.p else 0
        if r != self._out:
            self.pins.ready.value = r
            self._out = r

    def sample(self, cycle: int, p: Probe) -> None:
        pass
