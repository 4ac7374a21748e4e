"""The cocotb test of an exported kernel's AXI shell (loom.export.sim runs it).

The host side is cocotbext-axi's AxiLiteMaster on s_axi_control; each array
argument's memory is an AxiRam on its m_axi_<name> master, filled from the
sim bundle. A job file ($LOOM_AXI_JOB, written by loom.export.sim) gives the
register offsets, the arrays' base addresses and contents, the arguments of
each invocation and the stall seed; seed 0 runs without pauses, any other
seed puts seeded random pauses on every AXI channel of both sides. Each
invocation is programmed, started, and waited for by polling CTRL (even
invocations) or on the interrupt line (odd ones); the test then reads the
results and, after the last, the memories, and writes them with the cycle
counts to $LOOM_SIM_STATUS. The comparison happens in loom.export.sim.
"""

from __future__ import annotations

import json
import os
import random
from collections.abc import Iterator

import cocotb
from cocotb.clock import Clock
from cocotb.triggers import ClockCycles, First, RisingEdge, Timer
from cocotbext.axi import AxiBus, AxiLiteBus, AxiLiteMaster, AxiRam

PERIOD_NS = 10
RESET_CYCLES = 4
AP_START, AP_DONE, AP_IDLE, AP_READY = 1, 2, 4, 8
RAM_BYTES = 1 << 48   # a sparse memory; the arrays sit above 4 GiB (loom.export.sim)


def pauses(rng: random.Random, busy: float) -> Iterator[bool]:
    """A seeded pause generator: pause this cycle with probability `busy`."""
    while True:
        yield rng.random() < busy


def _stall(channels: list, rng: random.Random, busy: float) -> None:
    for ch in channels:
        ch.set_pause_generator(pauses(random.Random(rng.random()), busy))


class ChannelStats:
    """Per AXI4 master: transfers on AR and AW, and cycles a request waited
    for the memory (xVALID && !xREADY): how much of the run the memory set."""

    def __init__(self, dut, name: str) -> None:
        self.pins = {ch: (getattr(dut, f"m_axi_{name}_{ch.upper()}VALID"),
                          getattr(dut, f"m_axi_{name}_{ch.upper()}READY")) for ch in ("ar", "aw", "r", "b")}
        self.counts = {f"{ch}_{k}": 0 for ch in self.pins for k in ("fire", "wait")}

    async def run(self, clk) -> None:
        while True:
            await RisingEdge(clk)
            for ch, (valid, ready) in self.pins.items():
                if int(valid.value):
                    self.counts[f"{ch}_{'fire' if int(ready.value) else 'wait'}"] += 1


class Cycles:
    """Counts clock cycles from reset's end."""

    def __init__(self, clk) -> None:
        self.clk, self.now = clk, 0

    async def run(self) -> None:
        while True:
            await RisingEdge(self.clk)
            self.now += 1


async def _write_value(host: AxiLiteMaster, offset: int, words: int, value: int) -> None:
    for k in range(words):
        await host.write_dword(offset + 4 * k, (value >> (32 * k)) & 0xFFFF_FFFF)


async def _read_value(host: AxiLiteMaster, offset: int, words: int) -> int:
    value = 0
    for k in range(words):
        value |= await host.read_dword(offset + 4 * k) << (32 * k)
    return value


@cocotb.test()
async def axi_kernel(dut) -> None:
    with open(os.environ["LOOM_AXI_JOB"]) as f:
        job = json.load(f)
    regs = job["registers"]
    rng = random.Random(job["seed"])
    Clock(dut.ap_clk, PERIOD_NS, unit="ns").start(start_high=False)
    host = AxiLiteMaster(AxiLiteBus.from_prefix(dut, "s_axi_control"), dut.ap_clk,
                         dut.ap_rst_n, reset_active_level=False)
    rams = {}
    stats: dict[str, ChannelStats] = {}
    for a in job["arrays"]:
        ram = AxiRam(AxiBus.from_prefix(dut, f"m_axi_{a['name']}"), dut.ap_clk, dut.ap_rst_n,
                     reset_active_level=False, size=RAM_BYTES)
        size = a["elem_bytes"]
        mask = (1 << (8 * size)) - 1
        ram.write(a["base"], b"".join((v & mask).to_bytes(size, "little") for v in a["values"]))
        rams[a["name"]] = ram
        stats[a["name"]] = ChannelStats(dut, a["name"])
        if job["seed"]:
            _stall([ram.write_if.aw_channel, ram.write_if.w_channel, ram.write_if.b_channel,
                    ram.read_if.ar_channel, ram.read_if.r_channel], rng, job["busy"])
    if job["seed"]:
        _stall([host.write_if.aw_channel, host.write_if.w_channel, host.write_if.b_channel,
                host.read_if.ar_channel, host.read_if.r_channel], rng, job["busy"])
    dut.ap_rst_n.value = 0
    await ClockCycles(dut.ap_clk, RESET_CYCLES)
    dut.ap_rst_n.value = 1
    clock = Cycles(dut.ap_clk)
    cocotb.start_soon(clock.run())
    for st in stats.values():
        cocotb.start_soon(st.run(dut.ap_clk))

    problems: list[str] = []
    results: list[list[int]] = []
    cycles: list[int] = []
    status = "finished"
    limit = Timer(job["max_cycles"] * PERIOD_NS, unit="ns")
    # the kernel top's watchdog: no transfer on any channel for 20,000 cycles
    deadlock = dut.u_kernel.loom_deadlock
    if not await host.read_dword(regs["CTRL"]) & AP_IDLE:
        problems.append("CTRL: ap_idle is not set after reset")
    for k, args in enumerate(job["invocations"]):
        for a in args:
            await _write_value(host, a["offset"], a["words"], a["value"])
        by_interrupt = k % 2 == 1
        await host.write_dword(regs["GIE"], int(by_interrupt))
        await host.write_dword(regs["IER"], int(by_interrupt))
        began = clock.now
        await host.write_dword(regs["CTRL"], AP_START)
        if by_interrupt:
            interrupt = RisingEdge(dut.interrupt)
            fired = await First(interrupt, RisingEdge(deadlock), limit)
            if fired is not interrupt:
                status = "timeout" if fired is limit else "deadlock"
                break
            ctrl = await host.read_dword(regs["CTRL"])
            isr = await host.read_dword(regs["ISR"])
            if not isr & 1:
                problems.append(f"invocation {k}: interrupt without ISR.ap_done")
            await host.write_dword(regs["ISR"], 1)   # toggle on write: clears it
            if await host.read_dword(regs["ISR"]) & 1 or int(dut.interrupt.value):
                problems.append(f"invocation {k}: ISR.ap_done or the interrupt stays set "
                                "after writing 1 to ISR bit 0")
        else:
            while not (ctrl := await host.read_dword(regs["CTRL"])) & AP_DONE:
                if int(deadlock.value) or clock.now - began > job["max_cycles"]:
                    status = "deadlock" if int(deadlock.value) else "timeout"
                    break
            if status != "finished":
                break
        cycles.append(clock.now - began)
        if not ctrl & AP_DONE or not ctrl & AP_IDLE or ctrl & AP_START:
            problems.append(f"invocation {k}: CTRL is {ctrl:#x} when done "
                            "(expected ap_done and ap_idle set, ap_start clear)")
        if await host.read_dword(regs["CTRL"]) & AP_DONE:
            problems.append(f"invocation {k}: ap_done stays set after CTRL was read "
                            "(clear on read)")
        results.append([await _read_value(host, r["offset"], r["words"]) for r in job["results"]])
    memories = {}
    if status == "finished":
        for a in job["arrays"]:
            size = a["elem_bytes"]
            data = rams[a["name"]].read(a["base"], size * len(a["values"]))
            memories[a["name"]] = [int.from_bytes(data[i:i + size], "little")
                                   for i in range(0, len(data), size)]
    with open(os.environ["LOOM_SIM_STATUS"], "w") as f:
        json.dump({"status": status, "results": results, "memories": memories,
                   "cycles": cycles, "problems": problems,
                   "axi": {name: st.counts for name, st in stats.items()}}, f)
