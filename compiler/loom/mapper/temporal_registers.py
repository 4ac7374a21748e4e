"""DFG edges that stay inside a temporal PE: LOOM's `temporal_reg` edges
(spec-mapper-model.md, "Temporal PE Contract").

An edge whose producer and consumer sit in two slots of one temporal PE
with registers is not routed: the producer's result enters a register
(its result field `is_reg`) and the consumer's operand reads it (`is_reg`
on its operand field). A register holds one producer result's tokens and
the PE pops it once per firing of the reader, so an edge qualifies only
when it is its result's one use; registers are given in edge order, up to
the PE's `num_register`, and an edge past them is routed like any other.
"""

from __future__ import annotations

from dataclasses import dataclass

from loom.mapper.placement import Placement, Problem


@dataclass(frozen=True)
class RegisterEdge:
    edge: int
    register: int
    pe: str


def register_edges(problem: Problem, placement: Placement) -> dict[int, RegisterEdge]:
    """Edge id -> its register, for the placement as it stands."""
    uses: dict[tuple[int, int], int] = {}
    for e in problem.sw.edges:
        uses[(e.src, e.src_index)] = uses.get((e.src, e.src_index), 0) + 1
    taken: dict[str, int] = {}
    found: dict[int, RegisterEdge] = {}
    for e in problem.sw.edges:
        a, b = placement.chosen[e.src], placement.chosen[e.dst]
        if (e.is_memref or e.internal or a is None or b is None or a.slot < 0 or b.slot < 0
                or a.candidate is None or b.candidate is None or a is b
                or a.candidate.pe != b.candidate.pe or uses[(e.src, e.src_index)] != 1):
            continue
        pe = a.candidate.pe
        if taken.get(pe, 0) < problem.adg.nodes[a.hw_node].registers:
            found[e.id] = RegisterEdge(e.id, taken.get(pe, 0), pe)
            taken[pe] = taken.get(pe, 0) + 1
    return found


@dataclass(frozen=True)
class RegisterBinding:
    """One temporal_reg edge in LOOM's map.json fields (its writer's output and
    reader's input as unit port indices)."""

    pe_name: str
    sw_edge: int
    register_index: int
    writer_sw_node: int
    reader_sw_node: int
    writer_hw_node: int
    reader_hw_node: int
    writer_output_index: int
    reader_input_index: int


def register_bindings(problem: Problem, placement: Placement) -> list[RegisterBinding]:
    """The temporal_reg edges of the placement, by edge id."""
    rows = []
    for edge, binding in sorted(register_edges(problem, placement).items()):
        e = problem.sw.edges[edge]
        a, b = placement.chosen[e.src], placement.chosen[e.dst]
        assert a is not None and b is not None
        writer, reader = problem.adg.nodes[a.hw_node], problem.adg.nodes[b.hw_node]
        rows.append(RegisterBinding(
            binding.pe, edge, binding.register, e.src, e.dst, a.hw_node, b.hw_node,
            writer.outputs.index(a.out_port(e.src_index)),
            reader.inputs.index(b.in_port(e.dst_index))))
    return rows


__all__ = ["RegisterBinding", "RegisterEdge", "register_bindings", "register_edges"]
