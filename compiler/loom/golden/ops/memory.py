"""handshake.memory / extmemory on plain Python storage (seed 000 port packing).

Operands: per store (data, addr * rank) first, then per load (addr * rank).
Results: per load its data, then per store its done token, then per load its
done token. Each port serves its requests in order; the ctrl-done network,
not the memory, orders accesses between ports. Addresses are C's: flat and
row-major (loom/addressing.py); a port's first index past an inner extent is
kept in `strays` for a warning, an element outside the array is an error.
"""

from __future__ import annotations

from collections.abc import Sequence
from math import prod

from loom.addressing import Address, row_major
from loom.golden.actor import Actor
from loom.golden.channel import Channel
from loom.golden.values import INDEX_WIDTH, signed


class MemoryOutOfBounds(Exception):
    """An element outside the array; `actor` and `port` say which access."""

    def __init__(self, message: str, actor: "Memory", port: int):
        super().__init__(message)
        self.actor, self.port = actor, port


class Memory(Actor):
    def __init__(self, ld: int, st: int, shape: tuple[int, ...], width: int,
                 storage: list[int] | None = None):
        self.ld, self.st, self.shape, self.width = ld, st, tuple(shape), width
        self.rank = len(self.shape)
        size = prod(self.shape)
        self.storage = list(storage) if storage is not None else [0] * size
        if len(self.storage) != size:
            raise ValueError(f"memory of shape {self.shape} given {len(self.storage)} values")
        self.n_in = st * (1 + self.rank) + ld * self.rank
        self.n_out = ld + st + ld
        self.reads = self.writes = 0
        #: operand index of a port's first address -> its first stray address
        self.strays: dict[int, Address] = {}

    def _flat(self, port: int, addr: list[int]) -> int:
        at = row_major([signed(a, INDEX_WIDTH) for a in addr], self.shape)
        if not at.inside:
            raise MemoryOutOfBounds(at.out_of_bounds(), self, port)
        if at.stray:
            self.strays.setdefault(port, at)
        return at.flat

    def fire(self, ins: Sequence[Channel], outs: Sequence[Channel]) -> bool:
        fired = False
        r = self.rank
        for s in range(self.st):
            port = ins[s * (1 + r): (s + 1) * (1 + r)]
            if all(ch.q for ch in port):
                data = port[0].pop()
                addr = [ch.pop() for ch in port[1:]]
                self.storage[self._flat(s * (1 + r) + 1, addr)] = data
                outs[self.ld + s].push(None)
                self.writes += 1
                fired = True
        base = self.st * (1 + r)
        for j in range(self.ld):
            port = ins[base + j * r: base + (j + 1) * r]
            if all(ch.q for ch in port):
                addr = [ch.pop() for ch in port]
                outs[j].push(self.storage[self._flat(base + j * r, addr)])
                outs[self.ld + self.st + j].push(None)
                self.reads += 1
                fired = True
        return fired

    def waiting_on(self, ins: Sequence[Channel]) -> list[int]:
        return []  # a memory port only serves requests; it never blocks the graph
