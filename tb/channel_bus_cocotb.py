"""tb.handshake's Driver and Monitor used as cocotb-bus components on their
own clock (no tb.bench.Bench loop): `await driver.send(token)` for each
token of the plan on one channel, a Monitor with the clock on another, the
output always ready. Writes the tokens received to $LOOM_UNIT_RESULTS.
"""

from __future__ import annotations

import json
import os
import random

import cocotb
from cocotb.clock import Clock
from cocotb.triggers import ClockCycles

from tb.handshake import ChannelPins, Driver, Monitor


@cocotb.test()
async def bus_components(dut) -> None:
    with open(os.environ["LOOM_UNIT_PLAN"]) as f:
        plan = json.load(f)
    Clock(dut.clk, 10, unit="ns").start()
    w = plan["width"]
    driver = Driver(ChannelPins(dut, plan["input"], w), [], random.Random(0), clock=dut.clk)
    monitor = Monitor(ChannelPins(dut, plan["output"], w), clock=dut.clk)
    getattr(dut, f"{plan['output']}_ready").value = 1
    dut.rst.value = 1
    await ClockCycles(dut.clk, 3)
    dut.rst.value = 0
    for token in plan["tokens"]:
        await driver.send(token)
    await ClockCycles(dut.clk, 10)
    with open(os.environ["LOOM_UNIT_RESULTS"], "w") as f:
        json.dump({"received": [v for _, v in monitor.transfers],
                   "queue": list(monitor._recvQ)}, f)
