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
from loom.golden.rules import Rule, ready, rule
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
        r = self.rank
        # operand positions per port
        #   store s: (data operand, address operands, done result)
        #   load j:  (address operands, data result, done result)
        self._stores = [(s * (1 + r), tuple(range(s * (1 + r) + 1, (s + 1) * (1 + r))), ld + s)
                        for s in range(st)]
        base = st * (1 + r)
        self._loads = [(tuple(range(base + j * r, base + (j + 1) * r)), j, ld + st + j)
                       for j in range(ld)]
        #: operand index of a port's first address -> its first stray address
        self.strays: dict[int, Address] = {}

    def _address(self, addr_at: tuple[int, ...]) -> list[str]:
        """Statements that take a port's address operands and set `at` to the
        element they select: row-major when every index is inside its extent
        (as an unsigned pattern: not negative, not past it), else _checked_flat."""
        names = [f"a{i}" for i in range(len(addr_at))]
        if not names:
            return ["at = 0"]
        flat = names[0]
        for a, d in zip(names[1:], self.shape[1:]):
            flat = f"({flat}) * {d} + {a}"
        inside = " and ".join(f"{a} < {d}" for a, d in zip(names, self.shape))
        return [*(f"{a} = pop{k}()" for a, k in zip(names, addr_at)),
                f"at = {flat} if {inside} else self._checked_flat({addr_at[0]}, [{', '.join(names)}])"]

    def _checked_flat(self, port: int, addr: list[int]) -> int:
        """The element of an access outside some extent: an error, or a stray to warn about."""
        at = row_major([signed(a, INDEX_WIDTH) for a in addr], self.shape)
        if not at.inside:
            raise MemoryOutOfBounds(at.out_of_bounds(), self, port)
        if at.stray:
            self.strays.setdefault(port, at)
        return at.flat

    def rules(self) -> list[Rule]:
        """One rule per port (stores first): a firing serves one request."""
        stores = [rule(ready([data_at, *addr_at]), f"data = pop{data_at}()",
                       *self._address(addr_at), "self.storage[at] = data", f"push{done_at}(None)")
                  for data_at, addr_at, done_at in self._stores]
        loads = [rule(ready(addr_at), *self._address(addr_at), "data = self.storage[at]",
                      f"push{data_at}(data)", f"push{done_at}(None)")
                 for addr_at, data_at, done_at in self._loads]
        return stores + loads

    def waiting_on(self, ins: Sequence[Channel]) -> list[int]:
        return []  # a memory port only serves requests; it never blocks the graph
