"""Buffer placement and sizing for throughput: a small MILP solved by HiGHS.

Modelled on Dynamatic's buffer MILP (Josipovic et al., FPGA 2020), with the
throughput of each loop fixed at its II bound (loom.rtl.timing) instead of
maximized, which keeps every constraint linear:

Per channel c (driver u -> sink v): `o_c` (0/1: a slot with registered
valid, latency 1), `n_c` (slots in all), `r_c` (0/1: ready registered).
The slots become one unit: none; oehb (o, 1 slot); tehb (1 slot); a
transparent FIFO (no o, n >= 2) or a FIFO (o, n >= 2); so r = 1 exactly
when n > o, and a ready cut with o needs n >= 2.

(a) Combinational cycles (design.md section 5): over the channels, an
    order potential for valid (through units whose valid is combinational;
    o_c cuts) and one for ready (r_c cuts); every cycle gets both.
(b) Liveness: every carry and invariant output gets n >= 2, every fork
    output n >= 1 (netlist.liveness_slots; the argument is in netlist.py).
    Room between activations: a channel into a unit that also takes a
    token made from a loop's exit (forward from the exit, through any
    input, entries included: the outer carry of an inner loop's dones, its
    condition and the branch after it; an inner loop entered with the last
    activation's dones) gets n >= 2, so the next activation starts while
    the last one drains, which (c) cannot see (_activation_waits).
(c) Throughput: each unit u fires at potential F_u (time x throughput phi);
    a token on c leaves u at F_u + phi*latency and is consumed at
    F_v + tokens(c) (a carry's b, d and an invariant's d consume iteration
    k's token for their output k+1):
        F_v + tokens >= F_u + phi*(latency + o_c)          (it has arrived)
        F_v + tokens - F_u - phi*latency <= n_c - phi*r_c + hold_u
    (the tokens waiting on c fit in its slots; a slot behind a registered
    ready frees one cycle late; a unit that keeps its output in a register
    holds one). A cycle with T tokens and latency L then needs
    phi*(L + its o's) <= T: the solver places the valid cuts where the
    loop has slack, and sizes every channel for the tokens in flight.
(d) Slack matching follows from (c): the short path of a fork-join pair
    waits phi*(latency difference) for the long one and gets the slots.
(e) Fork outputs get more than their liveness slot only where (c) asks.

A loop's exits (loop_exits: the cond_br output that leaves it, and the
false output of a cond_br on a for loop's after_cond) carry one token per
activation, not one per iteration; like the entries they are cut
from the loop's pace. Arcs along which no token flows (an extmemory
bridge's ready-only arcs) count for (a) only.

phi of a loop's channels is 1/II bound of that loop, and of a stream's
outputs 1/its own II where they are in no loop (a for loop whose body
closes no cycle of channels); a channel outside every loop gets the
smallest phi of the loops it connects to (one loop
runs at the pace of its slowest recurrence; an inner loop connected to a
slower outer one through its exits may get less slack than it could use). Objective: the fewest slot bits (slots x (width + 1)),
(each weighted as 8 bits: the cycle of latency it adds is free in the model
of a channel that waits anyway, but the carry's fast path and the eager
forks turn it into a lost cycle per iteration).

Deterministic: one thread, a fixed seed, and budgets that count work, not
time: the search stops within MIP_GAP of the optimum (every kernel in
kernels/ is proven optimal at the root; random programs can spend minutes
closing the last percent) or after MAX_NODES branch-and-bound nodes, with
the best solution found. The wall-clock cap is a safety net only, and says
so when it fires (its result depends on the machine's speed). When HiGHS
finds no solution (or the target II is infeasible even relaxed), `place`
returns None and the caller falls back to the fixed rules (so does a tree
whose environment lacks highspy).
"""

from __future__ import annotations

import math
import sys
import time
from dataclasses import dataclass, field
from fractions import Fraction

from loom.rtl.netlist import FORK_FAMILIES, Netlist, liveness_slots
from loom.rtl.timing import ChannelGraph, channel_graph, loop_bounds, strongly_connected, unit_timing
from loom.rtl.units import FIFO_KINDS

MIP_GAP = 0.01            # slot bits within 1 % of the optimum
MAX_NODES = 200           # branch-and-bound nodes per solve: the deterministic budget
TIME_LIMIT_S = 300.0      # safety net only (see the module docstring)
RELAX = (Fraction(1), Fraction(5, 4), Fraction(3, 2), Fraction(2))   # II targets tried, x bound
MAX_SLOTS = 64
ACTIVATION_SLOTS = 2   # room for the next activation's token while one waits
O_COST = 8.0        # a registered valid adds a cycle of latency: only where a cycle needs it


@dataclass(frozen=True)
class Choice:
    """The buffer one channel gets."""
    slots: int
    opaque: bool          # registered valid (latency 1)

    def unit(self) -> dict | None:
        if self.slots == 0:
            return None
        if self.slots == 1:
            return dict(family="oehb" if self.opaque else "tehb")
        return dict(family="fifo", slots=self.slots, transparent=not self.opaque)


@dataclass
class Placement:
    choices: dict[int, Choice]          # channel index -> buffer
    ii_targets: list[Fraction]          # per loop, the II the sizing is for
    seconds: float
    status: str
    log: list[str] = field(default_factory=list)


class _Milp:
    """Columns and rows for HiGHS, built in Python lists."""

    def __init__(self) -> None:
        self.lb: list[float] = []
        self.ub: list[float] = []
        self.cost: list[float] = []
        self.integer: list[int] = []
        self.rows: list[tuple[float, float, dict[int, float]]] = []

    def var(self, lb: float, ub: float, cost: float = 0.0, integer: bool = False) -> int:
        self.lb.append(lb)
        self.ub.append(ub)
        self.cost.append(cost)
        if integer:
            self.integer.append(len(self.lb) - 1)
        return len(self.lb) - 1

    def row(self, lb: float, ub: float, coefs: dict[int, float]) -> None:
        self.rows.append((lb, ub, coefs))

    def solve(self, time_limit: float) -> tuple[str, list[float] | None]:
        import highspy
        import numpy as np

        h = highspy.Highs()
        for k, v in (("output_flag", False), ("threads", 1), ("random_seed", 0),
                     ("time_limit", time_limit), ("mip_rel_gap", MIP_GAP),
                     ("mip_max_nodes", MAX_NODES),
                     ("presolve", "on")):
            h.setOptionValue(k, v)
        n = len(self.lb)
        inf = highspy.kHighsInf
        h.addVars(n, np.array(self.lb, dtype=float), np.array(self.ub, dtype=float))
        h.changeColsCost(n, np.arange(n, dtype=np.int32), np.array(self.cost, dtype=float))
        if self.integer:
            idx = np.array(self.integer, dtype=np.int32)
            h.changeColsIntegrality(len(idx), idx,
                                    np.array([highspy.HighsVarType.kInteger] * len(idx)))
        starts, index, value, lo, hi = [], [], [], [], []
        for lb, ub, coefs in self.rows:
            starts.append(len(index))
            for i, c in sorted(coefs.items()):
                index.append(i)
                value.append(c)
            lo.append(-inf if lb == -math.inf else lb)
            hi.append(inf if ub == math.inf else ub)
        h.addRows(len(self.rows), np.array(lo, dtype=float), np.array(hi, dtype=float),
                  len(index), np.array(starts, dtype=np.int32), np.array(index, dtype=np.int32),
                  np.array(value, dtype=float))
        h.run()
        status = h.modelStatusToString(h.getModelStatus())
        if h.getModelStatus() == highspy.HighsModelStatus.kTimeLimit:
            print(f"warning: buffer placement: HiGHS stopped at the {time_limit:.0f} s safety "
                  "limit; the buffers placed depend on this machine's speed", file=sys.stderr)
        info = h.getInfo()
        if info.primal_solution_status != 2:      # no feasible solution
            return status, None
        return status, list(h.getSolution().col_value)


def _add(coefs: dict[int, float], var: int, c: float) -> None:
    coefs[var] = coefs.get(var, 0.0) + c


def _phis(g: ChannelGraph, bounds, exits: set[int], scale: Fraction) -> dict[int, Fraction]:
    """Throughput per channel: a loop's own, else the smallest of the loops
    its weakly connected part (loop entries cut) touches: the ops of one
    loop run at the pace of its slowest recurrence."""
    phi: dict[int, Fraction] = {}
    for b in bounds:
        if b.value == math.inf or b.value <= 0:
            continue
        for ch in b.channels:
            phi[ch] = 1 / (Fraction(b.value) * scale)
    # a stream's own recurrence (the loop's index) paces what it drives
    # even where no cycle of channels closes the loop: a for loop whose
    # accesses the ordering leaves free has no other
    for ch, ii in sorted(g.self_ii.items()):
        driver = g.net.channels[ch].driver
        if driver is not None and driver[0].spec.family == "stream":
            phi.setdefault(ch, 1 / (Fraction(ii) * scale))
    adj: dict[int, list[int]] = {}
    for e in g.flow_edges:
        if e.arc.entry or e.dst in exits:
            continue
        adj.setdefault(e.src, []).append(e.dst)
        adj.setdefault(e.dst, []).append(e.src)
    seen: set[int] = set()
    for start in sorted(adj):
        if start in seen:
            continue
        comp, stack = [], [start]
        seen.add(start)
        while stack:
            v = stack.pop()
            comp.append(v)
            for w in adj[v]:
                if w not in seen:
                    seen.add(w)
                    stack.append(w)
        best = min((phi[c] for c in comp if c in phi), default=None)
        if best is not None:
            for c in comp:
                phi.setdefault(c, best)
    return phi


def loop_exits(g: ChannelGraph, bounds) -> set[int]:
    """The channels that leave a loop through a branch: the output of a
    cond_br outside a loop its other output stays in. They carry one token
    per activation, not one per iteration, so, like the entries, they are
    no part of the loop's pace (slack for them would be per iteration)."""
    loop_of = {ch: k for k, b in enumerate(bounds) for ch in b.channels}
    outs: dict[int, set[int]] = {}
    for e in g.edges:
        if e.inst.spec.family == "cond_br":
            outs.setdefault(id(e.inst), set()).add(e.dst)
    exits: set[int] = set()
    for chans in outs.values():
        for c in chans:
            if any(o in loop_of and loop_of[o] != loop_of.get(c) for o in chans):
                exits.add(c)
    return exits | _after_cond_exits(g)


def _after_cond_exits(g: ChannelGraph) -> set[int]:
    """The false output of every cond_br on a for loop's after_cond (seed
    002: a gate's, through forks and buffers): it passes the loop's last
    token once per activation, even where no cycle of channels closes the
    loop (its accesses free, its index in the stream)."""
    after = {ch.index for ch in g.net.channels
             if ch.driver is not None and ch.driver[0].spec.family == "gate"
             and ch.driver[1] == "after_cond"}
    after = _forward(after, [e for e in g.flow_edges if e.inst.spec.family in FORK_FAMILIES
                             or e.inst.spec.family in FIFO_KINDS])
    on_after = {id(e.inst) for e in g.edges if e.inst.spec.family == "cond_br"
                and e.arc.src[0] == "cond" and e.src in after}
    return {ch.index for ch in g.net.channels if ch.driver is not None
            and id(ch.driver[0]) in on_after and ch.driver[1] == "false_out"}


def place(net: Netlist, time_limit: float = TIME_LIMIT_S) -> Placement | None:
    """Slots per channel for the netlist (no buffers in it yet), or None."""
    try:
        import highspy  # noqa: F401  (a tree set up before it was a dependency)
    except ImportError:
        # a pinned dependency: its absence is a stale environment, said, not hidden
        print("warning: highspy is not installed (run `make setup`); buffers are placed "
              "by the fixed rules, which are correct but slower", file=sys.stderr)
        return None
    t0 = time.perf_counter()
    g = channel_graph(net)
    bounds = loop_bounds(net, g)
    exits = loop_exits(g, bounds)
    log: list[str] = []
    for scale in RELAX:
        left = time_limit - (time.perf_counter() - t0)
        if left <= 0:
            break
        phi = _phis(g, bounds, exits, scale)
        status, choices = _solve(net, g, phi, exits, left)
        log.append(f"II x {scale}: {status}")
        if choices is not None:
            targets = [Fraction(b.value) * scale for b in bounds if b.value != math.inf]
            return Placement(choices, targets, time.perf_counter() - t0, status, log)
    return None


def _solve(net, g: ChannelGraph, phi: dict[int, Fraction], exits: set[int],
           time_limit: float) -> tuple[str, dict[int, Choice] | None]:
    m = _Milp()
    chans = [ch for ch in net.channels if ch.driver is not None]
    waits = _activation_waits(g, exits)
    o, n, r = {}, {}, {}
    for ch in chans:
        bits = ch.width + 1
        o[ch.index] = m.var(0, 1, O_COST, integer=True)
        n[ch.index] = m.var(0, MAX_SLOTS, bits, integer=True)
        r[ch.index] = m.var(0, 1, 0.0, integer=True)
        i = ch.index
        m.row(0, math.inf, {n[i]: 1, o[i]: -1})                 # o <= n
        m.row(0, math.inf, {n[i]: 1, r[i]: -1, o[i]: -1})       # n >= o + r
        m.row(0, math.inf, {r[i]: MAX_SLOTS, n[i]: -1, o[i]: 1})   # n > o -> r
        least = max(liveness_slots(ch), ACTIVATION_SLOTS if i in waits else 0)
        if least:
            m.row(least, math.inf, {n[i]: 1})                    # (b) liveness
    _cycle_cuts(m, g, o, r)
    _throughput(m, net, g, phi, exits, o, n, r)
    status, x = m.solve(time_limit)
    if x is None:
        return status, None
    choices = {}
    for ch in chans:
        slots = int(round(x[n[ch.index]]))
        if slots:
            choices[ch.index] = Choice(slots, bool(round(x[o[ch.index]])))
    return status, choices


def _forward(start: set[int], edges: list) -> set[int]:
    """`start` and every channel reached from it along `edges`."""
    succ: dict[int, list[int]] = {}
    for e in edges:
        succ.setdefault(e.src, []).append(e.dst)
    seen, todo = set(start), list(start)
    while todo:
        for d in succ.get(todo.pop(), []):
            if d not in seen:
                seen.add(d)
                todo.append(d)
    return seen


def _activation_waits(g: ChannelGraph, exits: set[int]) -> set[int]:
    """The channels that meet a token coming out of an inner loop (through
    its exit) at one unit: the outer loop's condition at the carry and the
    branch that collect an inner loop's dones, for one. Such a token comes
    once per activation, after the inner loop's last iteration, which the
    pace of (c) cannot see; with one slot the outer loop's fork would wait
    there for the inner loop to drain before it starts the next activation.
    Late channels: the exits and what units make from them (forward along
    the arcs that carry tokens); a channel into a unit that takes a late
    one, itself not late, waits."""
    late = _forward(exits, [e for e in g.flow_edges if not e.arc.entry])
    # entries included: an inner loop whose entry waits for the last
    # activation's dones (bicg's rows in order) also starts sooner with
    # room on its condition (bicg_acc 1,235 -> 1,206 cycles)
    meet = {id(e.inst) for e in g.flow_edges if e.src in late}
    return {e.src for e in g.flow_edges
            if id(e.inst) in meet and e.src not in late and not e.arc.entry}


def _cycle_cuts(m: _Milp, g: ChannelGraph, o: dict, r: dict) -> None:
    """(a): order potentials over the combinational valid and ready graphs."""
    for kind, cut in (("valid", o), ("ready", r)):
        arcs = []
        for e in g.edges:
            if kind == "valid" and e.arc.valid_comb:
                arcs.append((e.src, e.dst, e.src))       # valid: src's buffer cuts
            if kind == "ready" and e.arc.ready_comb:
                arcs.append((e.dst, e.src, e.dst))       # ready runs back; dst's buffer cuts
        succ: dict[int, list[int]] = {}
        for a, b, _ in arcs:
            succ.setdefault(a, []).append(b)
        nodes = sorted(succ.keys() | {b for _, b, _ in arcs})
        comp_of = {}
        for k, comp in enumerate(strongly_connected(nodes, succ)):
            for v in comp:
                comp_of[v] = (k, len(comp))
        pot: dict[int, int] = {}
        for a, b, c in arcs:
            if comp_of[a][0] != comp_of[b][0]:
                continue
            big = comp_of[a][1]
            for v in (a, b):
                if v not in pot:
                    pot[v] = m.var(0, big - 1)
            coefs = {pot[a]: -1.0, cut[c]: float(big)}
            _add(coefs, pot[b], 1.0)
            m.row(1, math.inf, coefs)                       # pot_b >= pot_a + 1 - big*cut


def _throughput(m: _Milp, net: Netlist, g: ChannelGraph, phi: dict[int, Fraction],
                exits: set[int], o: dict, n: dict, r: dict) -> None:
    """(c), (d): per channel, the potential where its token is produced (A)
    and where it is consumed (C); a unit's arc ties them, a channel bounds
    the wait between them by its slots."""
    timings = {id(inst): unit_timing(inst.spec) for inst in net.instances}
    holds = {ch.index for ch in net.channels if ch.driver is not None
             and (ch.driver[1], ch.driver[2]) in timings[id(ch.driver[0])].holds}
    made: dict[int, int] = {}
    consumed: dict[int, int] = {}

    def pot(table: dict[int, int], i: int) -> int:
        if i not in table:
            table[i] = m.var(-math.inf, math.inf)
        return table[i]

    for e in g.flow_edges:      # A_out = C_in + phi*latency - tokens
        if e.arc.entry or e.dst in exits or e.src not in phi or e.dst not in phi:
            continue
        p = float(phi[e.dst])
        rhs = p * e.arc.latency - e.arc.tokens
        m.row(rhs, rhs, {pot(made, e.dst): 1.0, pot(consumed, e.src): -1.0})
    for ch in net.channels:
        i = ch.index
        if i not in made or i not in consumed:
            continue
        p = float(phi[i])
        a, c = made[i], consumed[i]
        m.row(0, math.inf, {c: 1.0, a: -1.0, o[i]: -p})                 # C >= A + p*o
        m.row(-math.inf, float(i in holds), {c: 1.0, a: -1.0, n[i]: -1.0, r[i]: p})
