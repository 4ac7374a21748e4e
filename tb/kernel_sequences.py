"""Sequences of an exported kernel's invocations, on its register model.

InvocationSeq runs one invocation as a driver would (Vitis HLS's
ap_ctrl_hs): write the arguments, set ap_start, wait for ap_done by polling
CTRL or on the interrupt (GIE and IER.ap_done, then ISR cleared by writing
1), read the results. It checks the protocol on the way (ap_idle, ap_start
cleared, ap_done cleared on read, the interrupt cleared by ISR) and reports
the cycles from the ap_start write to ap_done as the host saw it.
BackToBackSeq runs the job's invocations in order, alternating polling and
interrupt.
"""

from __future__ import annotations

from cocotb.triggers import First, RisingEdge, Timer
from pyuvm import uvm_sequence



def masks(job: dict) -> tuple[int, int, int, int]:
    """CTRL's ap_start, ap_done, ap_idle and ISR's (and IER's) ap_done, as
    masks, from the job's bit positions (loom.export.register_map's)."""
    b = job["bits"]
    return (1 << b["CTRL.ap_start"], 1 << b["CTRL.ap_done"], 1 << b["CTRL.ap_idle"],
            1 << b["ISR.ap_done"])


class Timeout(Exception):
    """The invocation did not finish: `status` says how (deadlock or timeout)."""

    def __init__(self, status: str):
        super().__init__(status)
        self.status = status


class InvocationSeq(uvm_sequence):
    def __init__(self, name, env, k: int, args: list[dict], by_interrupt: bool):
        super().__init__(name)
        self.env, self.k, self.args, self.by_interrupt = env, k, args, by_interrupt
        self.cycles = 0

    async def body(self) -> None:
        env, regs, k = self.env, self.env.regs, self.k
        start, done, idle, _ = masks(env.job)
        for a in self.args:
            await regs.write_value(a["registers"], a["value"])
        await regs.write("GIE", int(self.by_interrupt))
        await regs.write("IER", (1 << env.job["bits"]["IER.ap_done"]) if self.by_interrupt else 0)
        began = env.clock.now
        await regs.write("CTRL", start)
        if self.by_interrupt:
            ctrl = await self._wait_interrupt()
        else:
            ctrl = await self._poll()
        self.cycles = env.clock.now - began
        problems = env.scoreboard.problems
        if not ctrl & done or not ctrl & idle or ctrl & start:
            problems.append(f"invocation {k}: CTRL is {ctrl:#x} when done "
                            "(expected ap_done and ap_idle set, ap_start clear)")
        if await regs.read("CTRL") & done:
            problems.append(f"invocation {k}: ap_done stays set after CTRL was read "
                            "(clear on read)")
        env.scoreboard.write_results([await regs.read_value(r["registers"])
                                      for r in env.job["results"]])

    async def _poll(self) -> int:
        env = self.env
        done = masks(env.job)[1]
        began = env.clock.now
        while not (ctrl := await env.regs.read("CTRL")) & done:
            if env.deadlock is not None and int(env.deadlock.value):
                raise Timeout("deadlock")
            if env.clock.now - began > env.job["max_cycles"]:
                raise Timeout("timeout")
        return ctrl

    async def _wait_interrupt(self) -> int:
        env, regs = self.env, self.env.regs
        isr_done = masks(env.job)[3]
        interrupt, limit = RisingEdge(env.dut.interrupt), Timer(
            env.job["max_cycles"] * env.period_ns, unit="ns")
        watch = [RisingEdge(env.deadlock)] if env.deadlock is not None else []
        # the interrupt is a level: a short invocation (a loop of no trip)
        # may raise it while the write of ap_start still waits for its
        # response, before this wait begins, and then no edge comes
        if not int(env.dut.interrupt.value):
            fired = await First(interrupt, *watch, limit)
            if fired is not interrupt:
                raise Timeout("timeout" if fired is limit else "deadlock")
        ctrl = await regs.read("CTRL")
        if not await regs.read("ISR") & isr_done:
            env.scoreboard.problems.append(f"invocation {self.k}: interrupt without "
                                           "ISR.ap_done")
        await regs.write("ISR", isr_done)   # toggle on write: clears it
        if await regs.read("ISR") & isr_done or int(env.dut.interrupt.value):
            env.scoreboard.problems.append(f"invocation {self.k}: ISR.ap_done or the "
                                           "interrupt stays set after writing 1 to ISR bit 0")
        return ctrl


class BackToBackSeq(uvm_sequence):
    """Every invocation of the job in order: even ones polled, odd ones by interrupt."""

    def __init__(self, name, env):
        super().__init__(name)
        self.env = env
        self.cycles: list[int] = []

    async def body(self) -> None:
        if not await self.env.regs.read("CTRL") & masks(self.env.job)[2]:
            self.env.scoreboard.problems.append("CTRL: ap_idle is not set after reset")
        for k, args in enumerate(self.env.job["invocations"]):
            seq = InvocationSeq(f"invocation{k}", self.env, k, args, by_interrupt=k % 2 == 1)
            await seq.start(self.env.axil.seqr)
            self.cycles.append(seq.cycles)
