"""The pyuvm environment of an exported kernel (the kit integrators reuse).

    AxiKernelEnv
      axil        AxiLiteAgent on s_axi_control (tb/axi_lite_agent.py)
      regs        ControlRegs, the register model on axil's sequencer
      memory      AxiMemoryAgent: an AxiRam per m_axi_<array>
      scoreboard  KernelScoreboard: results and memories against the bundle
      config      a fabric's AxiStreamSource on s_axis_config (none for a kernel top)

The job (loom.export.sim writes it; ConfigDB key "job") names the register
offsets, the arrays with their base addresses and contents, each
invocation's argument values, the result registers, the bundle and the
stall seed. With a seed, every AXI channel of both sides pauses for the
job's share of cycles, from seeded generators.
"""

from __future__ import annotations

import random
from collections.abc import Iterator

import cocotb
from cocotb.triggers import RisingEdge
from cocotbext.axi import AxiStreamBus, AxiStreamFrame, AxiStreamSource
from pyuvm import ConfigDB, uvm_env

from tb.axi_lite_agent import AxiLiteAdapter, AxiLiteAgent
from tb.axi_memory_agent import AxiMemoryAgent
from tb.control_regs import ControlRegs
from tb.kernel_scoreboard import KernelScoreboard

PERIOD_NS = 10


def pauses(rng: random.Random, busy: float) -> Iterator[bool]:
    """A seeded pause generator: pause this cycle with probability `busy`."""
    while True:
        yield rng.random() < busy


class Cycles:
    """Counts clock cycles from the end of reset."""

    def __init__(self, clk) -> None:
        self.clk, self.now = clk, 0

    async def run(self) -> None:
        while True:
            await RisingEdge(self.clk)
            self.now += 1


class AxiKernelEnv(uvm_env):
    def build_phase(self) -> None:
        self.job = ConfigDB().get(self, "", "job")
        self.dut = dut = cocotb.top
        self.period_ns = PERIOD_NS
        self.clock = Cycles(dut.ap_clk)
        # the kernel top's watchdog (no transfer on any channel for 20,000
        # cycles); a fabric has none: its invocations end by the job's timeout
        try:
            self.deadlock = dut.u_kernel.loom_deadlock
        except AttributeError:
            self.deadlock = None
        self.config = None
        if self.job.get("config_words"):
            self.config = AxiStreamSource(AxiStreamBus.from_prefix(dut, "s_axis_config"),
                                          dut.ap_clk, dut.ap_rst_n, reset_active_level=False)
        self.axil = AxiLiteAgent("axil", self, dut, "s_axi_control", dut.ap_clk, dut.ap_rst_n)
        self.memory = AxiMemoryAgent("memory", self, dut, self.job["arrays"], dut.ap_clk,
                                     dut.ap_rst_n)
        self.scoreboard = KernelScoreboard(
            "scoreboard", self, self.job["bundle"], self.job["result_widths"],
            {a["name"]: a["index"] for a in self.job["arrays"]})
        self.regs = ControlRegs("regs", self.job["registers"])

    def connect_phase(self) -> None:
        self.regs.attach(self.axil.seqr, AxiLiteAdapter())

    async def configure(self) -> None:
        """A fabric's configuration words on s_axis_config, one frame (TLAST
        on the last word), before the first invocation."""
        if self.config is not None:
            words = self.job["config_words"]
            await self.config.send(AxiStreamFrame(b"".join(w.to_bytes(4, "little")
                                                             for w in words)))
            await self.config.wait()

    def end_of_elaboration_phase(self) -> None:
        if self.job["busy"]:
            rng = random.Random(self.job["seed"])
            config = [self.config] if self.config is not None else []
            for ch in self.memory.channels() + self.axil.channels() + config:
                ch.set_pause_generator(pauses(random.Random(rng.random()), self.job["busy"]))
