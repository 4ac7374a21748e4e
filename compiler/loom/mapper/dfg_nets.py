"""The DFG as the mapper sees it: ops that need a unit and the nets between them.

Forks, lazy forks and buffers are folded into routing (design.md section 9,
LOOM's C11): a value and everything forked or buffered from it is one net,
from its producer to every consumer that is not itself a fork or buffer.
Sinks are discard: a consumer that is a sink is dropped from the net.
Memrefs are bound, not routed, and get no net. Endpoints are
(op, index) pairs; a function argument is (None, argument index) as a
source and the return is (return op, result index) as a sink.
"""

from __future__ import annotations

from dataclasses import dataclass

from xdsl.dialects.builtin import MemRefType
from xdsl.ir import Block, BlockArgument, Operation, SSAValue

from loom.mapper.techmap import DISCARD_OPS, ROUTING_OPS

Endpoint = tuple[Operation | None, int]


@dataclass(frozen=True)
class DfgNet:
    source: Endpoint
    sinks: tuple[Endpoint, ...]
    """Consumers in body order, then operand order."""
    value: SSAValue
    """The value at the source (names the net in diagnostics)."""


def _source(v: SSAValue) -> Endpoint:
    if isinstance(v, BlockArgument):
        return None, v.index
    return v.owner, v.index  # type: ignore[return-value]


def _sinks(v: SSAValue, order: dict[Operation, int]) -> list[Endpoint]:
    found: list[Endpoint] = []
    for use in v.uses:
        user = use.operation
        if user.name in ROUTING_OPS:
            for res in user.results:
                found += _sinks(res, order)
        elif user.name not in DISCARD_OPS:
            found.append((user, use.index))
    return found


def dfg_nets(body: Block) -> list[DfgNet]:
    """One net per value produced outside routing ops (arguments first, then
    op results in body order) that has at least one consumer."""
    order = {op: i for i, op in enumerate(body.ops)}
    values = [*body.args, *(r for op in body.ops if op.name not in ROUTING_OPS
                            for r in op.results)]
    nets: list[DfgNet] = []
    for v in values:
        if isinstance(v.type, MemRefType):
            continue
        sinks = sorted(_sinks(v, order), key=lambda e: (order[e[0]], e[1]))  # type: ignore[index]
        if sinks:
            nets.append(DfgNet(_source(v), tuple(sinks), v))
    return nets


__all__ = ["DfgNet", "Endpoint", "dfg_nets"]
