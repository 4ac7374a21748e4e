"""Which of seed 000's orderings a root memref keeps (`--ordering`).

Seed 000 orders every access of a root memref after the one before it, in
program order, except loads in a row. With `--ordering seed` that is what the
ctrl-done network does. With `--ordering analysis` (the default) dependence
analysis (dependence.py) removes the orderings no dependence needs:

- chains: accesses that can never reach a common element fall into separate
  chains (connected components of "may depend"), each its own serial-recursive
  network; the group's done token joins the chains'. The loads that no store
  can reach stay in one chain, as seed 000 has them: they never wait for each
  other there, so more chains would only add ops;
- free loops: in a chain, a loop that carries no dependence between the
  chain's accesses inside it lets its iterations overlap: every iteration's
  accesses start from the loop's entry token, and the loop's done token waits
  for every iteration's (memory_control.py).

Within one iteration, and at every loop that carries a dependence, the
ordering is seed 000's unchanged.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from itertools import combinations_with_replacement

from xdsl.ir import BlockArgument, Operation, SSAValue

from loom.lowering.dependence import AccessSpaces, Dependences, enclosing_loops
from loom.lowering.records import Access, LoweringRecord
from loom.lowering.source import where


@dataclass
class Chain:
    """Accesses ordered among themselves, and the loops whose iterations overlap."""
    accesses: list[Access]
    free_loops: set[Operation] = field(default_factory=set)
    #: a loop that analysis keeps in order -> two accesses whose dependence it carries
    kept: dict[Operation, tuple[Access, Access]] = field(default_factory=dict)


def plan_chains(spaces: AccessSpaces, group: list[Access], mode: str) -> list[Chain]:
    if mode == "seed":
        return [Chain(list(group))]
    deps = Dependences(spaces, group)
    components = _components(group, deps)
    read_only = [acc for c in components if all(a.kind == "load" for a in c) for acc in c]
    chains = [Chain(c) for c in components if any(a.kind == "store" for a in c)]
    if read_only:
        chains.insert(0, Chain(sorted(read_only, key=lambda a: a.order)))
    for chain in chains:
        _free_loops(chain, deps)
    return chains


def _components(group: list[Access], deps: Dependences) -> list[list[Access]]:
    leader = {acc: acc for acc in group}

    def find(acc: Access) -> Access:
        while leader[acc] is not acc:
            acc = leader[acc]
        return acc

    for i, a in enumerate(group):
        for b in group[i + 1:]:
            if find(a) is not find(b) and deps.depend(a, b):
                leader[find(b)] = find(a)
    members: dict[Access, list[Access]] = {}
    for acc in group:                       # program order within and between chains
        members.setdefault(find(acc), []).append(acc)
    return list(members.values())


def _free_loops(chain: Chain, deps: Dependences) -> None:
    loops = {op: k for acc in chain.accesses for k, op in enumerate(enclosing_loops(acc))}
    for loop, level in loops.items():
        inside = [acc for acc in chain.accesses if loop in acc.path]
        witness = next(((a, b) for a, b in combinations_with_replacement(inside, 2)
                        if deps.depend(a, b) and deps.depend(a, b, level)), None)
        if witness is None:
            chain.free_loops.add(loop)
        else:
            chain.kept[loop] = witness


def ordering_report(record: LoweringRecord) -> list[str]:
    """`loom compile --explain-ordering`: every root memref's chains and loops,
    or its load-store queue's allocation groups."""
    lines = [line for root, chains in record.chains.items()
             for line in explain(_root_name(root), chains)]
    for root, groups in record.queues.items():
        lines.append(f"{_root_name(root)}: a load-store queue, {len(groups)} allocation "
                     "group(s) (analysis keeps an innermost loop of its accesses in order)")
        lines += [f"  group {n}: " + ", ".join(_name(a) for a in g) for n, g in enumerate(groups)]
    return lines


def _root_name(root: SSAValue) -> str:
    if isinstance(root, BlockArgument):
        return f"argument {root.index}"
    return f"{root.owner.name} at {where(root.owner)}"


def explain(root_name: str, chains: list[Chain]) -> list[str]:
    """The report of one root memref: its chains, and per loop of each chain
    whether its iterations overlap or which two accesses keep its order."""
    lines = [f"{root_name}: {len(chains)} chain(s)"]
    for n, chain in enumerate(chains):
        lines.append(f"  chain {n}: " + ", ".join(_name(a) for a in chain.accesses))
        loops = dict.fromkeys(op for a in chain.accesses for op in enclosing_loops(a))
        for loop in loops:
            if loop in chain.free_loops:
                lines.append(f"    loop at {where(loop)}: iterations overlap "
                             "(it carries no dependence of this chain)")
            elif loop in chain.kept:
                a, b = chain.kept[loop]
                lines.append(f"    loop at {where(loop)}: ordered ({_name(a)} and "
                             f"{_name(b)} may reach one element in two iterations)")
            else:
                lines.append(f"    loop at {where(loop)}: ordered (seed 000's order)")
    return lines


def _name(acc: Access) -> str:
    return f"{acc.kind} at {where(acc.scf_op)}"
