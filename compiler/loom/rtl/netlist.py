"""DFG to netlist: one unit instance per op, one named channel per DFG edge.

Every DFG edge becomes a channel named by loom.dfg_names (the names the
golden traces use). Values nobody consumes (results, and arguments the body
never reads) are discarded: their ready is tied high.

Buffer placement and what it guarantees (liveness)
--------------------------------------------------
loom.rtl.buffer_placement places and sizes the buffers (a HiGHS MILP):
(a) every cycle of the netlist gets a register on valid and one on ready
(design.md section 5); (b) the liveness slots: every output of a
`dataflow.carry` or `dataflow.invariant` gets at least 2 slots and every
fork output at least 1 (`liveness_slots`), as constraints of the solver,
so a slot it needs for throughput anyway is not paid twice; (c) each loop
is sized for the II bound of its recurrences (loom.rtl.timing); (d) the
short path of a reconvergent pair gets the slots that let it wait for the
long one; (e) nothing else gets a slot unless (a), (c) or (d) asks for it.
The placement is checked against (a) and (b) after insertion. When the
solver finds no placement in time, the fixed rules take over: (1) one edge
of every cycle (a DFS back edge) gets a 2-slot FIFO with registered valid
and ready; (2) every carry or invariant output gets a 1-slot buffer;
(3) every fork output gets a 1-slot buffer.

Claim: a DFG of our lowering on which the unbounded golden model finishes
also finishes in RTL, under any stall pattern at the inputs, outputs and
memories. Why: within one loop level every op fires once per iteration (an
inner loop fires as one), so the loop behaves as a marked graph, and a
marked graph with bounded channels is live iff every cycle of it, counting
each channel forward with its tokens and backward with its free slots,
holds a token. Only carry and invariant put a token ahead on a path: both
emit their initial value before they take their first condition. Loops
(forward cycles) hold the carry's initial token. Counted backward, a loop
holds each of its T lead tokens against the 2 slots of that lead's output
(placement (b)): at least T free slots. The other cycles run forward along
one of two paths that leave a fork and meet again, and backward along the
other; the lead's slots ((b), or rule 2) give each lead token its own slot
and the fork output's slot ((b), or rule 3) gives the fork output that
starts the backward path a free slot: every such cycle holds a token. Slots
added to a placement only add capacity, so a live graph stays live.
Without those slots, `fork -> invariant -> cond_br -> carry -> cond_br <- fork`
(a `while` loop's raw condition replaying an invariant into a carry) holds
two initial tokens against too few slots and deadlocks (issue 10).
Outside the argument, and covered by tests instead: the memory interfaces
(whose queues hold every request in flight) and merge (not emitted by the
lowering). `loom fuzz` checks the claim on random programs under two stall
seeds.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from xdsl.dialects.builtin import MemRefType
from xdsl.ir import Operation, SSAValue

from loom.dfg_names import name_dfg
from loom.diagnostics import Location
from loom.dialects import handshake as hs
from loom.dialects.channel_types import data_width
from loom.ir import op_location
from loom.rtl.op_units import OpUnit, op_unit
from loom.rtl.units import FIFO_KINDS, ExternalMemory, UnitSpec, unit_spec

BACK_EDGE_BUFFER = dict(family="fifo", slots=2, transparent=False)
SLOT_BUFFER = dict(family="tehb")


@dataclass(eq=False)
class Channel:
    name: str
    width: int
    index: int                                   # id in the trace file
    driver: tuple["Instance", str, int | None] | None = None   # None: a top input
    sink: tuple["Instance", str, int | None] | None = None     # None: a top output or discarded
    top_output: str | None = None                # the top port it drives, if any
    copy_of: "Channel | None" = None             # a buffer's output: the DFG edge it continues
    value: SSAValue | None = None                # the DFG value it carries (None: a buffer's)

    @property
    def traced(self) -> bool:
        """DFG edges are traced; a buffer's output carries the same tokens."""
        return self.copy_of is None


@dataclass(eq=False)
class Instance:
    name: str
    spec: UnitSpec
    origin: str                                  # the DFG op and its C line
    op: Operation | None = None
    masters: list[str] = field(default_factory=list)   # extmemory: top port prefix


@dataclass
class TopPort:
    name: str
    direction: str       # "in" | "out" (direction of the data)
    width: int
    channel: Channel | None
    arg_index: int | None = None   # inputs: the function argument it carries


@dataclass
class Netlist:
    name: str
    instances: list[Instance] = field(default_factory=list)
    channels: list[Channel] = field(default_factory=list)
    inputs: list[TopPort] = field(default_factory=list)
    outputs: list[TopPort] = field(default_factory=list)
    memories: list[tuple[str, Instance, int]] = field(default_factory=list)  # (prefix, inst, arg)
    buffers: int = 0
    placement: str = ""                          # how the buffers were placed


def _origin(op: Operation, label: str, filename: str) -> str:
    loc = op_location(op) or Location(filename)
    return f"{op.name} '{label}' at {loc}"


def build_netlist(func: hs.FuncOp, filename: str,
                  memory: ExternalMemory = ExternalMemory()) -> Netlist:
    """The kernel's netlist with its buffers placed (module docstring);
    `memory` is what stands behind every master port (an AXI4 master for
    loom.export, the test harness's memory by default)."""
    net, units, channels = _units(func, filename, memory)
    _place_buffers(net, func.body.block, units, channels)
    return net


def unit_netlist(func: hs.FuncOp, filename: str) -> Netlist:
    """One unit per op and one channel per DFG edge, no buffers: what
    loom.rtl.timing bounds and what a fabric mapping routes."""
    return _units(func, filename)[0]


def _units(func: hs.FuncOp, filename: str, memory: ExternalMemory = ExternalMemory()
           ) -> tuple[Netlist, dict[Operation, tuple[Instance, OpUnit]], dict[SSAValue, Channel]]:
    body = func.body.block
    names = name_dfg(body)
    net = Netlist(func.sym_name.data)
    channels: dict[SSAValue, Channel] = {}

    def new_channel(value: SSAValue) -> Channel:
        ch = Channel(names.values[value], data_width(value.type), len(net.channels),
                     value=value)
        net.channels.append(ch)
        channels[value] = ch
        return ch

    for i, arg in enumerate(body.args):
        if isinstance(arg.type, MemRefType):
            continue
        ch = new_channel(arg)
        net.inputs.append(TopPort(ch.name, "in", ch.width, ch, i))
    for op in body.ops:
        for r in op.results:
            new_channel(r)

    units: dict[Operation, tuple[Instance, OpUnit]] = {}
    for op in body.ops:
        label = names.ops[op]
        if isinstance(op, hs.ReturnOp):
            for k, v in enumerate(op.operands):
                port = "done" if k == len(op.operands) - 1 and data_width(v.type) == 0 \
                    else f"result{k}"
                ch = channels[v]
                ch.top_output = port
                net.outputs.append(TopPort(port, "out", ch.width, ch))
            continue
        mapping = op_unit(op, filename)
        if mapping.family in ("extmemory", "lsq"):
            mapping.params.update(memory.params())
        where = op_location(op) or Location(filename)
        spec = unit_spec(mapping.family, loc=where, **mapping.params)
        inst = Instance(f"u_{label}", spec, _origin(op, label, filename), op)
        net.instances.append(inst)
        units[op] = (inst, mapping)
        if isinstance(op, hs.ExternalMemoryOp | hs.LoadStoreQueueOp):
            arg = op.operands[0]
            prefix = names.values[arg]
            inst.masters.append(prefix)
            net.memories.append((prefix, inst, body.args.index(arg)))
        token_operands = [v for v in op.operands if not isinstance(v.type, MemRefType)]
        for v, (port, lane) in zip(token_operands, mapping.ins):
            channels[v].sink = (inst, port, lane)
        for r, (port, lane) in zip(op.results, mapping.outs):
            channels[r].driver = (inst, port, lane)
    return net, units, channels


def _place_buffers(net: Netlist, body, units, channels: dict[SSAValue, Channel]) -> None:
    """The placement for throughput (buffer_placement), or the fixed rules
    when the solver finds nothing in time; net.placement says which."""
    from loom.rtl.buffer_placement import place   # it reads netlists: imported late

    placement = place(net)
    if placement is None:
        _buffer_back_edges(net, body, units, channels)
        _buffer_lead_outputs(net)
        _buffer_fork_outputs(net)
        net.placement = "fixed rules (no placement from the solver in time, or no highspy)"
        return
    for index in sorted(placement.choices):
        choice, ch = placement.choices[index], net.channels[index]
        unit = choice.unit()
        if unit is not None:
            # the slots (b) asks and no more: liveness, not throughput
            bare = not choice.opaque and choice.slots <= liveness_slots(ch)
            _insert_buffer(net, ch, unit, "liveness" if bare else "throughput")
    _check_placement(net)
    targets = ", ".join(str(t) for t in placement.ii_targets) or "none"
    net.placement = (f"HiGHS MILP ({placement.status}, {placement.seconds:.2f} s; "
                     f"loop II targets {targets})")


def _check_placement(net: Netlist) -> None:
    """The solver's placement keeps (a) and (b) of the module doc: liveness
    does not rest on the solver's throughput model."""
    from loom.rtl.timing import combinational_cycles
    cycles = combinational_cycles(net)
    assert not cycles, f"buffer placement left a combinational cycle: {cycles}"
    short = [ch.name for ch in net.channels if _slots_after(ch) < liveness_slots(ch)]
    assert not short, f"buffer placement left liveness slots out on {short}"


LEAD_OPS = ("dataflow.carry", "dataflow.invariant")
FORK_FAMILIES = ("fork", "lazy_fork")
LEAD_SLOTS = 2       # (b): the initial value's slot and one free slot behind it


def liveness_slots(ch: Channel) -> int:
    """The slots (b) of the module doc asks on a channel: 2 behind a lead
    (carry, invariant), 1 behind a fork, else none."""
    driver = ch.driver
    if driver is None:
        return 0
    if driver[0].op is not None and driver[0].op.name in LEAD_OPS:
        return LEAD_SLOTS
    return 1 if driver[0].spec.family in FORK_FAMILIES else 0


def _slots_after(ch: Channel) -> int:
    """Slots of the buffer a channel feeds (0: it feeds no buffer)."""
    if not _is_buffered(ch):
        return 0
    return ch.sink[0].spec.params.get("slots", 1)


def _buffer_lead_outputs(net: Netlist) -> None:
    """One slot on every carry and invariant output (rule 2 of the module doc):
    the room for the initial value they emit before their first condition."""
    for ch in list(net.channels):
        driver = ch.driver
        if driver is None or driver[0].op is None or driver[0].op.name not in LEAD_OPS:
            continue
        if not _is_buffered(ch):
            _insert_buffer(net, ch, SLOT_BUFFER, "lead")


def _is_buffered(ch: Channel) -> bool:
    return ch.sink is not None and ch.sink[0].spec.family in FIFO_KINDS


def _buffer_fork_outputs(net: Netlist) -> None:
    """One slot on every fork output that has no buffer yet.

    An eager fork releases its input only when every output took its copy.
    When one copy is needed to produce the token its sibling waits for (an
    invariant's replay feeds both the next loop condition and a branch on
    that condition), the copy must be able to wait in a slot; with none the
    ring deadlocks, although the unbounded golden model runs.
    """
    for ch in list(net.channels):
        driver = ch.driver
        if driver is None or driver[0].spec.family not in FORK_FAMILIES:
            continue
        if not _is_buffered(ch):
            _insert_buffer(net, ch, SLOT_BUFFER, "slot")


def _buffer_back_edges(net: Netlist, body, units, channels: dict[SSAValue, Channel]) -> None:
    """Insert a registered 2-slot FIFO on one edge of every cycle (DFS back edges)."""
    succ: dict[Operation, list[tuple[SSAValue, Operation]]] = {op: [] for op in units}
    for op in units:
        for r in op.results:
            for use in r.uses:
                if use.operation in units:
                    succ[op].append((r, use.operation))
    state: dict[Operation, int] = {}          # 1 on the stack, 2 done
    back: list[SSAValue] = []
    for root in units:
        if root in state:
            continue
        stack = [(root, iter(succ[root]))]
        state[root] = 1
        while stack:
            op, it = stack[-1]
            nxt = next(it, None)
            if nxt is None:
                state[op] = 2
                stack.pop()
                continue
            value, target = nxt
            if state.get(target) == 1:
                back.append(value)
            elif target not in state:
                state[target] = 1
                stack.append((target, iter(succ[target])))
    for value in back:
        _insert_buffer(net, channels[value], BACK_EDGE_BUFFER, "back-edge")


def _insert_buffer(net: Netlist, ch: Channel, kind: dict, why: str) -> None:
    params = dict(kind)
    family = params.pop("family")
    spec = unit_spec(family, w=ch.width, **params)
    inst = Instance(f"u_buf_{ch.name}", spec, f"{why} buffer on channel '{ch.name}'")
    net.instances.append(inst)
    out = Channel(f"{ch.name}_buffered", ch.width, len(net.channels), (inst, "outs", None),
                  ch.sink, ch.top_output, ch.copy_of or ch)
    net.channels.append(out)
    ch.sink = (inst, "ins", None)
    if ch.top_output is not None:  # the buffer now drives the top port
        ch.top_output = None
        for port in net.outputs:
            if port.channel is ch:
                port.channel = out
    net.buffers += 1
