"""handshake.lsq: a memory interface whose accesses are ordered by allocation.

A load-store queue serves the accesses of one array that dependence analysis
cannot order statically (indirect subscripts). The program allocates its
accesses in groups: a group is the static sequence of accesses one control
token reaches (a straight-line run of a region), and its allocation token
arrives on the group's `alloc` operand. The lowering sends the allocation
tokens in program order, one at a time (each group's next is made from the
previous group's `ack`), so the queue knows every access's place in program
order before its address or data exist.

The semantics are the program's: each access takes effect in allocation
order, a load reading the element as the stores allocated before it left
it. The RTL queue reorders internally (a load ahead of an older store to
another element, a store's value forwarded to a younger load) without
changing any stream below; this model executes the queue's head.

Operands: the memory's (per store its data and address, then per load its
address: seed 000's packing), then one allocation token per group, then the
fence. Results: per load its data, then per group its ack, then the fence's
done, offered once every access allocated before the fence took effect.
"""

from __future__ import annotations

from collections import deque
from collections.abc import Sequence

from loom.golden.channel import Channel
from loom.golden.ops.memory import Memory
from loom.golden.rules import Rule, ready, rule

Entry = tuple[str, int]
"""An access of a group: ("ld", load port) or ("st", store port)."""


class LoadStoreQueue(Memory):
    def __init__(self, ld: int, st: int, shape: tuple[int, ...], width: int,
                 groups: Sequence[Sequence[Entry]], storage: list[int] | None = None):
        super().__init__(ld, st, shape, width, storage)
        self.groups = tuple(tuple(g) for g in groups)
        mem_in, mem_out = self.n_in, ld     # the memory's operands; load data
        self._allocs = list(range(mem_in, mem_in + len(self.groups)))
        self._fence = mem_in + len(self.groups)
        self._acks = list(range(mem_out, mem_out + len(self.groups)))
        self._fence_done = mem_out + len(self.groups)
        self.n_in = self._fence + 1
        self.n_out = self._fence_done + 1
        #: the accesses allocated and not yet performed, in program order
        self.queue: deque[Entry] = deque()

    def rules(self) -> list[Rule]:
        """Allocation, the head access when its operands are there, the fence."""
        allocs = [rule(f"in{at}", f"pop{at}()", f"self.queue.extend({group!r})", f"push{ack}(None)")
                  for at, ack, group in zip(self._allocs, self._acks, self.groups)]
        stores = [rule(f"self.queue and self.queue[0] == ('st', {s}) and {ready([data_at, *addr_at])}",
                       f"data = pop{data_at}()", *self._address(addr_at),
                       "self.storage[at] = data", "self.queue.popleft()")
                  for s, (data_at, addr_at, _) in enumerate(self._stores)]
        loads = [rule(f"self.queue and self.queue[0] == ('ld', {j}) and {ready(addr_at)}",
                      *self._address(addr_at), "self.queue.popleft()",
                      f"push{data_at}(self.storage[at])")
                 for j, (addr_at, data_at, _) in enumerate(self._loads)]
        fence = rule(f"in{self._fence} and not self.queue", f"pop{self._fence}()",
                     f"push{self._fence_done}(None)")
        return allocs + stores + loads + [fence]

    def idle(self) -> bool:
        return not self.queue

    def phase(self) -> str:
        return f"{len(self.queue)} allocated" if self.queue else ""

    def waiting_on(self, ins: Sequence[Channel]) -> list[int]:
        """The operands the head access lacks (a queue waits for them)."""
        if not self.queue:
            return []
        kind, port = self.queue[0]
        if kind == "st":
            data_at, addr_at, _ = self._stores[port]
            needed = [data_at, *addr_at]
        else:
            needed = list(self._loads[port][0])
        return [i for i in needed if not ins[i].q]
