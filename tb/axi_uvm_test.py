"""The pyuvm test of an exported kernel (loom sim --iface axi runs it).

Clock and reset, then BackToBackSeq over every invocation of the job
($LOOM_AXI_JOB); the outcome (status, results, memories, the scoreboard's
mismatches and protocol findings, cycles, the AXI counts) goes to
$LOOM_SIM_STATUS as JSON for loom.export.sim.
"""

from __future__ import annotations

import json
import os

import cocotb
import pyuvm
from cocotb.clock import Clock
from cocotb.triggers import ClockCycles
from pyuvm import ConfigDB, uvm_test

from tb.axi_kit_env import PERIOD_NS, AxiKernelEnv
from tb.kernel_sequences import BackToBackSeq, Timeout

RESET_CYCLES = 4


@pyuvm.test()
class AxiKernelTest(uvm_test):
    def build_phase(self) -> None:
        with open(os.environ["LOOM_AXI_JOB"]) as f:
            ConfigDB().set(None, "*", "job", json.load(f))
        self.env = AxiKernelEnv("env", self)

    async def run_phase(self) -> None:
        self.raise_objection()
        env, dut = self.env, cocotb.top
        Clock(dut.ap_clk, PERIOD_NS, unit="ns").start(start_high=False)
        dut.ap_rst_n.value = 0
        await ClockCycles(dut.ap_clk, RESET_CYCLES)
        dut.ap_rst_n.value = 1
        cocotb.start_soon(env.clock.run())
        await env.configure()
        seq = BackToBackSeq("invocations", env)
        status = "finished"
        try:
            await seq.start(env.axil.seqr)
        except Timeout as t:
            status = t.status
        board = env.scoreboard
        if status == "finished":
            board.write_memories(env.memory.dump())
        with open(os.environ["LOOM_SIM_STATUS"], "w") as f:
            json.dump({"status": status, "cycles": seq.cycles,
                       "problems": board.problems + env.memory.problems,
                       "mismatches": board.mismatches(), "results": board.results,
                       "axi": env.memory.counts}, f)
        self.drop_objection()
