"""A failed mapping as one line: the first violated constraint (LOOM's Cn
label), the op or edge with its C line, and what would fix it.

- C1, no host at all: the smallest preset that has a unit (or memory) for it.
- C1, more ops than PEs: a spatial PE runs one op; the smallest preset (with
  the same memories) that has as many PEs.
- C1, every host taken: Hall's witness, the ops that can use only some hosts
  outnumber them; the smallest preset with as many hosts for it. When the
  counts fit, placement left it none: another seed or more rounds.
- C3 (or C4 overuse left by routing): another seed, or the next larger preset.
  A tagged same-tag conflict is reported as LOOM's mapper reports it: its
  router never routes a flow onto a port where another has the same tag,
  so the edge is unrouted (C3; its validator would name C4, as checks.py
  does for a mapping given to it).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import replace

from xdsl.ir import Operation

from loom.diagnostics import Location, LoomError, counted
from loom.fabric.adg_view import AdgView, adg_view
from loom.ir import op_location
from loom.mapper.checks import Violation
from loom.mapper.mapping import Mapping
from loom.mapper.dfg_graph import DfgNode
from loom.mapper.dfg_ops import MEMORY_OPS, describe
from loom.mapper.inventory import hw_memories, hw_units
from loom.mapper.matching import candidates
from loom.mapper.memory_binding import memory_candidates
from loom.mapper.precheck import hall_witness


def node_location(node: DfgNode, dfg: str) -> Location:
    """The C line of a DFG node (the DFG file when it has none)."""
    if node.op is not None:
        return op_location(node.op) or Location(dfg)
    value = node.value
    loc = op_location(value.owner) if value is not None and isinstance(  # type: ignore[arg-type]
        getattr(value, "owner", None), Operation) else None
    return loc or Location(dfg)


def _what(node: DfgNode) -> str:
    if node.op is not None:
        return describe(node.op)
    kind = "argument" if node.kind == "input" else "result"
    return f"{kind} {node.index} ({node.value.type if node.value is not None else '?'})"


def _hosts_in(op: Operation, view: AdgView) -> int:
    """How many PEs (or memories) of `view` can host `op`."""
    if op.name in MEMORY_OPS:
        return len([h for h in memory_candidates(op, hw_memories(view)) if not h.tagged])
    return len({c.pe for c in candidates(op, hw_units(view))})


def hosts(op: Operation, view: AdgView) -> bool:
    """Whether the ADG has some unit (or memory) for DFG op `op`."""
    if op.name in MEMORY_OPS:
        return bool(memory_candidates(op, hw_memories(view)))
    # PE instances share their units' definitions: each definition once
    distinct = {id(u.definition): u for u in hw_units(view)}
    return bool(candidates(op, list(distinct.values())))


def smallest_preset(op: Operation, names: Sequence[str] | None = None) -> str | None:
    """The first preset (`loom adg --list` order: smallest first) that can host `op`."""
    from loom.fabric.presets import preset, presets

    for name in names if names is not None else [p.name for p in presets()]:
        if hosts(op, adg_view(preset(name).build())):
            return name
    return None


def _preset_with(op: Operation, need: int) -> str | None:
    from loom.fabric.presets import preset, presets

    for p in presets():
        if _hosts_in(op, adg_view(preset(p.name).build())) >= need:
            return p.name
    return None


def _preset_with_pes(count: int, adg: str) -> str | None:
    """The first square chess preset with `count` PEs and the memories of `adg`
    when `adg` is a preset (named or not: `-ext`/`-mem` suffixes compose), with
    at least the tracks of both, and its `-ring` and `-b<F>`."""
    from loom.fabric.presets import SIZES, ChessPreset, parse_preset, tracks_for

    try:
        given = parse_preset(adg)
    except LoomError:
        given = ChessPreset(1, 1)
    n = next((n for n in SIZES if n * n >= count), None)
    return None if n is None else replace(given.resized(n),
                                          tracks=max(given.tracks, tracks_for(n))).name


def _next_preset(adg: str, module_pes: int) -> str | None:
    from loom.fabric.presets import presets

    names = [p.name for p in presets()]
    if adg in names:
        later = names[names.index(adg) + 1:]
        return next((n for n in later if n.split("-")[1] != adg.split("-")[1]), None)
    return None


def _c1(m: Mapping, v: Violation, adg: str, dfg: str) -> LoomError:
    assert v.sw_node is not None
    node = m.sw.nodes[v.sw_node]
    where = node_location(node, dfg)
    if node.op is None:
        return LoomError(f"C1: unmapped node {node.id}: {_what(node)} has no free module "
                         f"port of {adg} that fits its type", where)
    if not m.problem.options[node.id]:
        fix = smallest_preset(node.op)
        hint = f"the smallest preset with one is {fix}" if fix else "no preset has one"
        what = "memory" if node.kind == "memory" else "function unit"
        return LoomError(f"C1: unmapped node {node.id}: no {what} in {adg} can host "
                         f"{_what(node)}; {hint}", where)
    ops = m.problem.contraction.ops   # folded constants need no PE
    pes = len({n.pe for n in m.adg.nodes if n.pe})
    hosts = m.adg.op_hosts()
    if node.kind == "op" and ops > hosts:
        fix = _preset_with_pes(ops, adg)
        hint = (f"the smallest preset with {ops} PEs is {fix}" if fix
                else f"no preset has {ops} PEs")
        temporal = any(n.slots for n in m.adg.nodes)
        held = (f"{pes} PEs (a PE runs one op)" if not temporal else
                f"{pes} PEs that host {counted(hosts, 'op', 'ops')} (a spatial PE runs one op, "
                "a temporal PE one a slot)")
        return LoomError(f"C1: unmapped node {node.id}: {_what(node)}: the kernel has {ops} ops "
                         f"and {adg} {held}; {hint}", where)
    noun = ("memory", "memories") if node.kind == "memory" else ("PE", "PEs")
    witness = _hall_witness(m, node)
    if witness is None:
        mine = {o.resource for o in m.problem.options[node.id]}
        return LoomError(f"C1: unmapped node {node.id}: {_what(node)}: {adg} has "
                         f"{counted(len(mine), *noun)} that can host it, enough for the ops "
                         "that need them, but placement left it none; try another --seed or "
                         "more --rounds", where)
    hosts, need = witness
    fix = _preset_with(node.op, need)
    hint = f"the smallest preset with {need} is {fix}" if fix else f"no preset has {need}"
    return LoomError(f"C1: unmapped node {node.id}: {_what(node)}: {adg} has "
                     f"{counted(hosts, *noun)} that can host it and the kernel has {need} ops "
                     f"that need one of them; {hint}", where)


def _hall_witness(m: Mapping, node: DfgNode) -> tuple[int, int] | None:
    """(hosts, ops) of Hall's witness among the nodes of `node`'s kind: the
    hosts reached from `node` (matched last) and the ops that can use no
    others, more ops than hosts; None when each op can have a host of its
    own (then the counts did not stop placement)."""
    nodes = sorted((n for n in m.sw.nodes if n.kind == node.kind and m.problem.options[n.id]),
                   key=lambda n: n.id == node.id)
    keys = {k: i for i, k in enumerate(sorted({o.resource for n in nodes
                                               for o in m.problem.options[n.id]}))}
    wants = [sorted({keys[o.resource] for o in m.problem.options[n.id]}) for n in nodes]
    witness = hall_witness(wants, [1] * len(keys))
    return None if witness is None else (len(witness[1]), witness[2])


def _edge_error(m: Mapping, v: Violation, adg: str, dfg: str) -> LoomError:
    assert v.sw_edge is not None
    e = m.sw.edges[v.sw_edge]
    src, dst = m.sw.nodes[e.src], m.sw.nodes[e.dst]
    where = node_location(dst, dfg) if dst.op is not None else node_location(src, dfg)
    bigger = _next_preset(adg, 0)
    fix = f"try another --seed, more --rounds or the larger preset {bigger}" if bigger else \
        "try another --seed, more --rounds or a larger ADG"
    return LoomError(f"{v.line()} ({e.value.type}: {src.op_name} -> {dst.op_name}); {fix}",
                     where)


def diagnose(m: Mapping, violations: list[Violation], adg: str, dfg: str) -> LoomError:
    """The error to report for the first violation."""
    v = violations[0]
    if v.unroutable:
        v = replace(v, label="C3", message=f"unrouted edge {v.sw_edge}: {v.message}")
    if v.label == "C1" and v.sw_node is not None:
        return _c1(m, v, adg, dfg)
    if v.sw_edge is not None:
        return _edge_error(m, v, adg, dfg)
    if v.sw_node is not None:
        return LoomError(v.line(), node_location(m.sw.nodes[v.sw_node], dfg))
    return LoomError(v.line(), Location(dfg))


__all__ = ["diagnose", "hosts", "node_location", "smallest_preset"]
