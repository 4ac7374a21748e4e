"""The clock loop that drives and samples all tb components once per cycle."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, Protocol

from cocotb.clock import Clock
from cocotb.triggers import ReadOnly, RisingEdge

from tb.handshake import ChannelPins, Probe, probe


class ChannelComponent(Protocol):
    def drive(self, cycle: int) -> None: ...
    def sample(self, cycle: int, p: Probe) -> None: ...


class Agent(Protocol):
    """A component that samples its own signals (e.g. a memory model)."""

    def drive(self, cycle: int) -> None: ...
    def sample(self, cycle: int) -> None: ...


class Bench:
    def __init__(self, dut: Any, period_ns: int = 10):
        self.dut = dut
        self.clk = dut.clk
        self.cycle = 0
        self.channels: dict[str, tuple[ChannelPins, list[ChannelComponent]]] = {}
        self.agents: list[Agent] = []
        Clock(self.clk, period_ns, unit="ns", impl="gpi").start()

    def attach(self, pins: ChannelPins, *components: ChannelComponent) -> None:
        entry = self.channels.setdefault(pins.name, (pins, []))
        entry[1].extend(components)

    def add_agent(self, agent: Agent) -> None:
        self.agents.append(agent)

    def clear(self) -> None:
        self.channels.clear()
        self.agents.clear()

    async def reset(self, cycles: int = 2) -> None:
        self.dut.rst.value = 1
        for _ in range(cycles):
            await RisingEdge(self.clk)
        self.dut.rst.value = 0

    async def run(self, until: Callable[[], bool], max_cycles: int, drain: int = 0,
                  progress: Callable[[], int] | None = None, patience: int = 2000) -> bool:
        """Runs cycles until `until()` holds, then `drain` more. False on a
        timeout: `max_cycles` in all, or `patience` cycles in which
        `progress()` (e.g. the number of transfers so far) did not move."""
        left = None
        last, last_cycle = None, 0
        for i in range(max_cycles):
            if progress is not None and i % 64 == 0:
                now = progress()
                if now != last:
                    last, last_cycle = now, i
                elif i - last_cycle > patience:
                    return False
            await RisingEdge(self.clk)
            self.cycle += 1
            c = self.cycle
            for _pins, comps in self.channels.values():
                for comp in comps:
                    comp.drive(c)
            for agent in self.agents:
                agent.drive(c)
            await ReadOnly()
            for pins, comps in self.channels.values():
                p = probe(pins)
                for comp in comps:
                    comp.sample(c, p)
            for agent in self.agents:
                agent.sample(c)
            if left is None and until():
                left = drain
            if left is not None:
                if left == 0:
                    return True
                left -= 1
        return False

    def stuck(self) -> list[str]:
        """Channels currently offering a token nobody takes (for timeouts)."""
        out = []
        for name, (pins, _) in self.channels.items():
            if int(pins.valid.value) and not int(pins.ready.value):
                out.append(name)
        return out
