"""One Python function per graph that runs it: the golden scheduler's fast path.

Every node's firing rules (golden/rules.py) are inlined into one sweep over
the graph's blocks (golden/sweep_order.py); the function repeats sweeps
until one fires nothing (the graph is quiescent or deadlocked) or the firing
allowance it was given is spent. A node fires while a rule's guard holds. A
block runs only when a token reached it: a push into another block, or back
to an earlier node of its own, sets that block's flag (a pop does the same
for a producer whose rules test its output, the source), and a block repeats
while its flag is set. A node can only become ready through such a push or
pop (it ends its burst blocked, and only its own firings change its state),
so a skipped block has nothing to fire. Channels' queues, their bound
methods, the flags and the ops' attributes are local variables: a token
costs a few local lookups and C calls, no Python frame. The ops' state is
written back to the actors when the function returns (or raises: a model
error), and each node's firings added to a list.

    step = compile_graph(graph)
    left = step(allowance, firings)   # firings: a list of per-node counts
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from loom.golden.graph import Graph, Node
from loom.golden.rules import IN, OUT, POP, PUSH_LINE, SELF, Rule, check_body
from loom.golden.sweep_order import blocks

#: step(allowance, firings) -> the allowance left (0: spent; else quiescent)
StepFn = Callable[[int, list[int]], int]


@dataclass
class _Names:
    """The generated function's local variables and what they are bound to."""
    channel_index: dict[int, int]                                   # id(Channel) -> c
    #: node -> (its block, its position in the sweep)
    place: dict[int, tuple[int, int]]
    #: channel -> the block of a producer that tests it (refills when it drains)
    watched: dict[int, int]
    prologue: list[str] = field(default_factory=list)
    bound: set[str] = field(default_factory=set)

    def bind(self, name: str, value: str) -> str:
        if name not in self.bound:
            self.bound.add(name)
            self.prologue.append(f"{name} = {value}")
        return name


def _wakes(node: Node, popped: set[int], pushed: set[int], names: _Names) -> list[str]:
    """The flags a firing of `node` sets: the blocks of consumers it pushed
    to (except later nodes of its own block: this pass reaches them) and of
    watching producers it popped from."""
    block, at = names.place[id(node)]
    flags = set()
    for ch in node.outs:
        if ch.consumer is None or names.channel_index[id(ch)] not in pushed:
            continue
        b, pos = names.place[id(ch.consumer)]
        if b != block or pos <= at:
            flags.add(b)
    flags.update(names.watched[c] for c in popped if c in names.watched)
    return [f"_b{b} = True" for b in sorted(flags)]


def _node_text(k: int, node: Node, names: _Names, writeback: list[str]) -> list[str]:
    """Node k's rules with its channels and attributes as local names."""
    ch = names.channel_index

    def queue(c: int) -> str:
        return names.bind(f"_q{c}", f"_Q[{c}]")

    def rename(text: str) -> str:
        text = IN.sub(lambda m: queue(ch[id(node.ins[int(m[1])])]), text)
        text = OUT.sub(lambda m: queue(ch[id(node.outs[int(m[1])])]), text)
        text = POP.sub(lambda m: names.bind(f"_p{ch[id(node.ins[int(m[1])])]}",
                                            f"{queue(ch[id(node.ins[int(m[1])])])}.popleft") + "(",
                       text)

        def attr(m: Any) -> str:
            local = names.bind(f"_n{k}_{m[1]}", f"_A[{k}].{m[1]}")
            if m[1] in node.actor.assigns and f"_A[{k}].{m[1]} = {local}" not in writeback:
                writeback.append(f"_A[{k}].{m[1]} = {local}")
            return local
        return SELF.sub(attr, text)

    def push(line: str) -> list[str]:
        m = PUSH_LINE.match(line)
        if m is None:
            return [rename(line)]
        indent, c, value = m[1], ch[id(node.outs[int(m[2])])], rename(m[3])
        append = names.bind(f"_a{c}", f"{queue(c)}.append")
        trace = names.bind(f"_t{c}", f"_T[{c}].append")
        if not value.isidentifier() and value != "None":
            return [f"{indent}_v = {value}", f"{indent}{append}(_v)", f"{indent}{trace}(_v)"]
        return [f"{indent}{append}({value})", f"{indent}{trace}({value})"]

    def body(r: Rule) -> list[str]:
        check_body(r)
        text = "\n".join(r.body)
        popped = {ch[id(node.ins[int(i)])] for i in POP.findall(text)}
        pushed = {ch[id(node.outs[int(m[2])])] for line in r.body
                  if (m := PUSH_LINE.match(line))}
        return [out for line in r.body for out in push(line)] + \
            _wakes(node, popped, pushed, names)

    count = f"_f{k}"
    names.bind(count, "0")
    rules = node.actor.rules()
    if not rules:          # an actor that only overrides fire: call it
        fire = names.bind(f"_n{k}_fire", f"_A[{k}].fire")
        every = _wakes(node, {ch[id(c)] for c in node.ins}, {ch[id(c)] for c in node.outs}, names)
        return [f"while _left and {fire}(_I[{k}], _O[{k}]):",
                *(f"    {line}" for line in every), "    _left -= 1", f"    {count} += 1"]
    if len(rules) == 1:
        lines = [f"while {rename(rules[0].guard)} and _left:"]
        lines += [f"    {line}" for line in body(rules[0])]
    else:
        lines = ["while _left:"]
        for i, r in enumerate(rules):
            lines.append(f"    {'if' if i == 0 else 'elif'} {rename(r.guard)}:")
            lines += [f"        {line}" for line in body(r)]
        lines += ["    else:", "        break"]
    return lines + ["    _left -= 1", f"    {count} += 1"]


def _watched(graph: Graph, channel_index: dict[int, int],
             place: dict[int, tuple[int, int]]) -> dict[int, int]:
    """Channels whose producer's rules test them (out<j>), to their producer's block."""
    watched = {}
    for node in graph.nodes:
        text = "\n".join(r.guard + "\n" + "\n".join(r.body) for r in node.actor.rules())
        for j in {int(m) for m in OUT.findall(text)}:
            watched[channel_index[id(node.outs[j])]] = place[id(node)][0]
    return watched


def generate(graph: Graph) -> str:
    """The source of `step(_left, _F)` for `graph` (see the module docstring)."""
    channels = {id(c): c for n in graph.nodes for c in (*n.ins, *n.outs)}
    channel_index = {cid: c for c, cid in enumerate(channels)}
    order = blocks(graph)
    place = {id(graph.nodes[k]): (b, pos) for b, block in enumerate(order)
             for pos, k in enumerate(block)}
    names = _Names(channel_index, place, _watched(graph, channel_index, place))
    writeback: list[str] = []
    sweep: list[str] = []
    for b, block in enumerate(order):
        names.bind(f"_b{b}", "True")
        sweep += [f"while _b{b}:", f"    _b{b} = False"]
        for k in block:
            sweep.append(f"    # {graph.nodes[k].where()}")
            sweep += [f"    {line}" for line in _node_text(k, graph.nodes[k], names, writeback)]
    counts = [f"_F[{k}] += _f{k}" for k in range(len(graph.nodes))]
    return "\n".join([
        "def step(_left, _F):",
        *(f"    {line}" for line in names.prologue),
        "    try:",
        "        while True:",
        "            _mark = _left",
        *(f"            {line}" for line in sweep),
        "            if _left == _mark or not _left:",
        "                return _left",
        "    finally:",
        *(f"        {line}" for line in writeback + counts),
        "        pass",
    ])


def compile_graph(graph: Graph) -> StepFn:
    """`graph`'s step function, bound to its channels and actors."""
    channels = list({id(c): c for n in graph.nodes for c in (*n.ins, *n.outs)}.values())
    namespace: dict[str, Any] = {
        "_Q": [c.q for c in channels], "_T": [c.trace for c in channels],
        "_A": [n.actor for n in graph.nodes],
        "_I": [n.ins for n in graph.nodes], "_O": [n.outs for n in graph.nodes],
    }
    exec(compile(generate(graph), f"<golden graph {graph.name}>", "exec"), namespace)
    step: StepFn = namespace["step"]
    return step
