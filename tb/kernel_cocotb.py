"""The cocotb test of a kernel top (run by loom.sim.runner through cocotb's runner).

Python is out of the per-cycle loop: the clock runs in the GPI, stalls and
memories live in SystemVerilog (tb_<name>), and this test only resets the
design and waits for `finished`, `deadlock` or the cycle limit. It writes the
outcome to $LOOM_SIM_STATUS as JSON; the comparison happens in loom.sim.
"""

from __future__ import annotations

import json
import os

import cocotb
from cocotb.clock import Clock
from cocotb.triggers import ClockCycles, First, RisingEdge, Timer

PERIOD_NS = 10
RESET_CYCLES = 4


@cocotb.test()
async def kernel(dut) -> None:
    max_cycles = int(os.environ.get("LOOM_MAX_CYCLES", "5000000"))
    Clock(dut.clk, PERIOD_NS, unit="ns", impl="gpi").start(start_high=False)
    dut.rst.value = 1
    await ClockCycles(dut.clk, RESET_CYCLES)
    dut.rst.value = 0
    finished, deadlock = RisingEdge(dut.finished), RisingEdge(dut.deadlock)
    fired = await First(finished, deadlock, Timer(max_cycles * PERIOD_NS, unit="ns"))
    status = "finished" if fired is finished else "deadlock" if fired is deadlock else "timeout"
    mem_error = int(dut.mem_error.value)
    with open(os.environ["LOOM_SIM_STATUS"], "w") as f:
        json.dump({"status": status, "mem_error": mem_error}, f)
