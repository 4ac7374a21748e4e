"""handshake.load: address + control go to memory; memory data comes back.

Operands: addr * rank, data_from_mem, ctrl. Results: data_to_comp,
addr_to_mem * rank. The two halves are independent (as in CIRCT): the
address half fires on (addresses, ctrl), the data half on data_from_mem;
each half is a firing of its own.
"""

from __future__ import annotations

from collections.abc import Sequence

from loom.golden.actor import Actor
from loom.golden.channel import Channel
from loom.golden.rules import Rule, ready, rule


class Load(Actor):
    def __init__(self, rank: int = 1):
        self.rank = rank
        self.n_in = rank + 2
        self.n_out = rank + 1

    def rules(self) -> list[Rule]:
        r = self.rank
        return [
            rule(f"in{r}", f"v = pop{r}()", "push0(v)"),        # the data half
            rule(ready([r + 1, *range(r)]), f"pop{r + 1}()",    # the address half
                 *(line for i in range(r) for line in (f"v = pop{i}()", f"push{i + 1}(v)"))),
        ]

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

    def rules(self) -> list[Rule]:
        r = self.rank
        return [rule(ready(range(r + 2)),
                     *(line for i in range(r) for line in (f"v = pop{i}()", f"push{i + 1}(v)")),
                     f"v = pop{r}()", "push0(v)", f"pop{r + 1}()")]
