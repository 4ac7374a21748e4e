"""The cocotb side of the unit tests: executes a plan written by tb.unit_runner.

The plan (JSON, path in LOOM_UNIT_PLAN) lists episodes; each episode resets
the DUT, drives token lists on the input channels with seeded idle cycles,
applies seeded backpressure on the outputs, runs memory agents, and records
every channel's transfers and protocol violations into LOOM_UNIT_RESULTS.
Comparison with the golden streams happens on the pytest side.
"""

from __future__ import annotations

import json
import os
import random
from typing import Any

import cocotb
from cocotb.triggers import RisingEdge

from tb.bench import Bench
from tb.handshake import Backpressure, ChannelPins, Driver, Monitor, ProtocolChecker
from tb.memory_agent import MemoryAgent


def _tokens(raw: list[Any]) -> list[Any]:
    return [tuple(t) if isinstance(t, list) else t for t in raw]


async def _episode(bench: Bench, dut: Any, ep: dict[str, Any]) -> dict[str, Any]:
    await RisingEdge(bench.clk)        # leave the read-only phase before writing
    bench.clear()
    monitors: dict[str, Monitor] = {}
    checkers: list[ProtocolChecker] = []
    drivers: list[tuple[Driver, int]] = []
    expects: list[tuple[Monitor, int]] = []

    def watch(pins: ChannelPins, *extra: Any, valid_may_drop: bool = False) -> Monitor:
        mon, chk = Monitor(pins), ProtocolChecker(pins, valid_may_drop=valid_may_drop)
        monitors[pins.name] = mon
        checkers.append(chk)
        bench.attach(pins, *extra, mon, chk)
        return mon

    def gate(conds: list[list[Any]]):
        # resolved at call time: the monitors of outputs are made after the drivers
        return lambda: all(monitors[c].count >= k for c, k in conds)

    for d in ep["drivers"]:
        pins = ChannelPins(dut, d["channel"], d["width"], d.get("extras", []))
        gates = None
        if d.get("gates"):
            gates = [None if g is None else gate(g) for g in d["gates"]]
        drv = Driver(pins, _tokens(d["tokens"]), random.Random(d["seed"]), d["idle"], gates)
        drivers.append((drv, d.get("consume", len(d["tokens"]))))
        watch(pins, drv)
    for r in ep["receivers"]:
        pins = ChannelPins(dut, r["channel"], r["width"], r.get("extras", []))
        bp = Backpressure(pins, random.Random(r["seed"]), r["ready"])
        mon = watch(pins, bp, valid_may_drop=r.get("valid_may_drop", False))
        if r.get("expect") is not None:
            expects.append((mon, r["expect"]))
    agents = []
    for m in ep.get("memories", []):
        agent = MemoryAgent(dut, m["prefix"], m["contents"], random.Random(m["seed"]),
                            tuple(m["latency"]), m["req_ready"])
        agents.append((m["prefix"], agent))
        bench.add_agent(agent)

    await bench.reset()
    start = bench.cycle

    def finished() -> bool:
        return (all(drv.sent >= n for drv, n in drivers)
                and all(mon.count >= n for mon, n in expects))

    def progress() -> int:
        return sum(m.count for m in monitors.values())

    ok = await bench.run(finished, ep["max_cycles"], ep.get("drain", 20), progress,
                         ep.get("patience", 2000))
    return {
        "name": ep["name"],
        "start_cycle": start,
        "cycles": bench.cycle - start,
        "timeout": not ok,
        "stuck": bench.stuck() if not ok else [],
        "transfers": {name: m.transfers for name, m in monitors.items()},
        "violations": [v for c in checkers for v in c.violations],
        "memories": {prefix: a.mem for prefix, a in agents},
        "memory_in_flight": {prefix: a.max_in_flight for prefix, a in agents},
        "memory_errors": [e for _, a in agents for e in a.errors],
    }


@cocotb.test()
async def run_plan(dut: Any) -> None:
    with open(os.environ["LOOM_UNIT_PLAN"]) as f:
        plan = json.load(f)
    bench = Bench(dut)
    results = [await _episode(bench, dut, ep) for ep in plan["episodes"]]
    with open(os.environ["LOOM_UNIT_RESULTS"], "w") as f:
        json.dump({"episodes": results}, f)
