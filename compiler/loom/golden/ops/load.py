"""handshake.load: address + control go to memory; memory data comes back.

Operands: addr * rank, data_from_mem, ctrl. Results: data_to_comp,
addr_to_mem * rank. The two halves are independent (as in CIRCT): the
address half fires on (addresses, ctrl), the data half on data_from_mem.
"""

from __future__ import annotations

from collections.abc import Sequence

from loom.golden.actor import Actor
from loom.golden.channel import Channel


class Load(Actor):
    def __init__(self, rank: int = 1):
        self.rank = rank
        self.n_in = rank + 2
        self.n_out = rank + 1

    def fire(self, ins: Sequence[Channel], outs: Sequence[Channel]) -> bool:
        fired = False
        data_in = ins[self.rank]
        if data_in.q:
            outs[0].push(data_in.pop())
            fired = True
        addr_ins, ctrl = ins[:self.rank], ins[self.rank + 1]
        if ctrl.q and all(ch.q for ch in addr_ins):
            ctrl.pop()
            for src, dst in zip(addr_ins, outs[1:]):
                dst.push(src.pop())
            fired = True
        return fired

    def waiting_on(self, ins: Sequence[Channel]) -> list[int]:
        addr_side = [i for i in range(self.rank) if not ins[i].q]
        if not ins[self.rank + 1].q:
            addr_side.append(self.rank + 1)
        return addr_side


class Store(Actor):
    """handshake.store: fires on (addresses, data, ctrl); sends data and address to memory."""

    def __init__(self, rank: int = 1):
        self.rank = rank
        self.n_in = rank + 2
        self.n_out = rank + 1

    def fire(self, ins: Sequence[Channel], outs: Sequence[Channel]) -> bool:
        for ch in ins:
            if not ch.q:
                return False
        for src, dst in zip(ins[:self.rank], outs[1:]):
            dst.push(src.pop())
        outs[0].push(ins[self.rank].pop())
        ins[self.rank + 1].pop()
        return True
