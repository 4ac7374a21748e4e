"""A request/response memory model for the extmemory bridge's master port.

Request beats (`<p>_req_valid/ready`; a read `_re`, `_raddr` and a write
`_we`, `_waddr`, `_wdata`, as a simple dual-port memory takes them) are
accepted under seeded random backpressure and take effect in order at
acceptance, a beat's read before its write; each beat gets one response
(`<p>_resp_valid/ready/_data`) after a seeded random latency, in beat order.
Read data is that of the element at acceptance time.
When the bridge has a `<p>_idle` output, it is checked every cycle: high
exactly when no request waits at the port and no response is outstanding.
"""

from __future__ import annotations

import random
from collections import deque
from typing import Any


class MemoryAgent:
    def __init__(self, dut: Any, prefix: str, contents: list[int], rng: random.Random,
                 latency: tuple[int, int] = (1, 6), req_ready_prob: float = 1.0):
        self.mem = list(contents)
        self.rng, self.latency, self.p = rng, latency, req_ready_prob
        g = lambda s: getattr(dut, f"{prefix}_{s}")  # noqa: E731
        self.req_valid, self.req_ready = g("req_valid"), g("req_ready")
        self.req_re, self.req_raddr = g("req_re"), g("req_raddr")
        self.req_we, self.req_waddr, self.req_wdata = g("req_we"), g("req_waddr"), g("req_wdata")
        self.resp_valid, self.resp_ready, self.resp_data = g("resp_valid"), g("resp_ready"), g("resp_data")
        self.pending: deque[tuple[int, int]] = deque()   # (due cycle, data)
        self.offering = False
        self.errors: list[str] = []
        self.requests = 0
        self.max_in_flight = 0   # requests waiting at the port or answered later
        self.idle = getattr(dut, f"{prefix}_idle", None)   # a bridge status wire, if any
        self.req_ready.value = 0
        self.resp_valid.value = 0

    def drive(self, cycle: int) -> None:
        self.req_ready.value = 1 if self.p >= 1.0 or self.rng.random() < self.p else 0
        if not self.offering:
            due = bool(self.pending) and self.pending[0][0] <= cycle
            if due:
                self.resp_data.value = self.pending[0][1]
                self.offering = True
            self.resp_valid.value = int(due)

    def sample(self, cycle: int) -> None:
        in_flight = len(self.pending) + int(self.req_valid.value)
        self.max_in_flight = max(self.max_in_flight, in_flight)
        if self.idle is not None and int(self.idle.value) != (in_flight == 0) \
                and len(self.errors) < 10:
            self.errors.append(f"cycle {cycle}: idle is {int(self.idle.value)} with "
                               f"{in_flight} request(s) in flight")
        if self.offering and int(self.resp_ready.value):
            self.pending.popleft()
            self.offering = False
        if int(self.req_valid.value) and int(self.req_ready.value):
            self.requests += 1
            data = 0
            if int(self.req_re.value):
                addr = self._address(cycle, "read", self.req_raddr)
                data = 0 if addr is None else self.mem[addr]
            if int(self.req_we.value):
                addr = self._address(cycle, "write", self.req_waddr)
                if addr is not None:
                    self.mem[addr] = int(self.req_wdata.value)
            lo, hi = self.latency
            last = self.pending[-1][0] if self.pending else 0
            self.pending.append((max(cycle + self.rng.randint(lo, hi), last), data))

    def _address(self, cycle: int, kind: str, signal: Any) -> int | None:
        addr = int(signal.value)
        if addr < len(self.mem):
            return addr
        self.errors.append(f"cycle {cycle}: {kind} address {addr} outside {len(self.mem)} elements")
        return None
