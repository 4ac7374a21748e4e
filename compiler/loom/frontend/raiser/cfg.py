"""Control-flow graph facts the raiser needs: block order and reducibility."""

from __future__ import annotations

from xdsl.ir import Block, Region


def successors(block: Block) -> list[Block]:
    term = block.last_op
    return list(term.successors) if term is not None else []


def reverse_postorder(region: Region) -> list[Block]:
    """Reachable blocks, each after all of its dominators."""
    entry = region.blocks.first
    assert entry is not None
    seen: set[Block] = {entry}
    order: list[Block] = []
    stack: list[tuple[Block, int]] = [(entry, 0)]
    while stack:
        block, i = stack.pop()
        succs = successors(block)
        if i < len(succs):
            stack.append((block, i + 1))
            nxt = succs[i]
            if nxt not in seen:
                seen.add(nxt)
                stack.append((nxt, 0))
        else:
            order.append(block)
    order.reverse()
    return order


def dominators(order: list[Block]) -> dict[Block, Block]:
    """Immediate dominators (Cooper, Harvey, Kennedy) over a reverse postorder."""
    index = {b: i for i, b in enumerate(order)}
    preds: dict[Block, list[Block]] = {b: [] for b in order}
    for b in order:
        for s in successors(b):
            preds[s].append(b)
    idom: dict[Block, Block] = {order[0]: order[0]}

    def intersect(a: Block, b: Block) -> Block:
        while a is not b:
            while index[a] > index[b]:
                a = idom[a]
            while index[b] > index[a]:
                b = idom[b]
        return a

    changed = True
    while changed:
        changed = False
        for b in order[1:]:
            done = [p for p in preds[b] if p in idom]
            new = done[0]
            for p in done[1:]:
                new = intersect(p, new)
            if idom.get(b) is not new:
                idom[b] = new
                changed = True
    return idom


def dominates(idom: dict[Block, Block], a: Block, b: Block) -> bool:
    while True:
        if b is a:
            return True
        parent = idom[b]
        if parent is b:
            return False
        b = parent


def irreducible_edge(order: list[Block]) -> tuple[Block, Block] | None:
    """An edge (src, dst) that enters a loop other than through its header.

    In a reducible graph every retreating edge of a depth-first walk goes to a
    block that dominates its source (a back edge); any other is irreducible.
    """
    idom = dominators(order)
    index = {b: i for i, b in enumerate(order)}
    for src in order:
        for dst in successors(src):
            if index[dst] <= index[src] and not dominates(idom, dst, src):
                return src, dst
    return None
