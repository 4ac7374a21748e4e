"""handshake.memory / extmemory on plain Python storage (seed 000 port packing).

Operands: per store (data, addr * rank) first, then per load (addr * rank).
Results: per load its data, then per store its done token, then per load its
done token. Each port serves its requests in order; the ctrl-done network,
not the memory, orders accesses between ports.
"""

from __future__ import annotations

from collections.abc import Sequence
from math import prod

from loom.golden.actor import Actor
from loom.golden.channel import Channel


class MemoryOutOfBounds(Exception):
    pass


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

    def _flat(self, addr: list[int]) -> int:
        flat = 0
        for a, extent in zip(addr, self.shape):
            if not 0 <= a < extent:
                raise MemoryOutOfBounds(f"address {addr} outside shape {list(self.shape)}")
            flat = flat * extent + a
        return flat

    def fire(self, ins: Sequence[Channel], outs: Sequence[Channel]) -> bool:
        fired = False
        r = self.rank
        for s in range(self.st):
            port = ins[s * (1 + r): (s + 1) * (1 + r)]
            if all(ch.q for ch in port):
                data = port[0].pop()
                self.storage[self._flat([ch.pop() for ch in port[1:]])] = data
                outs[self.ld + s].push(None)
                self.writes += 1
                fired = True
        base = self.st * (1 + r)
        for j in range(self.ld):
            port = ins[base + j * r: base + (j + 1) * r]
            if all(ch.q for ch in port):
                outs[j].push(self.storage[self._flat([ch.pop() for ch in port])])
                outs[self.ld + self.st + j].push(None)
                self.reads += 1
                fired = True
        return fired

    def waiting_on(self, ins: Sequence[Channel]) -> list[int]:
        return []  # a memory port only serves requests; it never blocks the graph
