"""handshake.compose / decompose and bundle / unbundle (seed 004).

A channel with downstream extras is a tuple (data, extra_1, ...) in the model.
compose packs it LSB-first into one integer (data in the low bits, then each
extra in declaration order); decompose unpacks it. Upstream extras have no
meaning in a token model; the builder rejects them.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from loom.golden.actor import Actor
from loom.golden.rules import Rule, ready, rule


def pack(fields: Sequence[int], widths: Sequence[int]) -> int:
    value, shift = 0, 0
    for f, w in zip(fields, widths):
        value |= (f & ((1 << w) - 1)) << shift
        shift += w
    return value


def unpack(value: int, widths: Sequence[int]) -> tuple[int, ...]:
    fields = []
    for w in widths:
        fields.append(value & ((1 << w) - 1))
        value >>= w
    return tuple(fields)


class Compose(Actor):
    n_in, n_out = 1, 1

    def __init__(self, widths: Sequence[int]):
        self.widths = tuple(widths)

    def rules(self) -> list[Rule]:
        return [rule("in0", "push0(self.convert(pop0()))")]

    def convert(self, token: Any) -> Any:
        return pack(token, self.widths)


class Decompose(Compose):
    def convert(self, token: Any) -> Any:
        return unpack(token, self.widths)


class Unbundle(Actor):
    """channel -> control token, data, downstream extras (one token each)."""

    n_in = 1

    def __init__(self, n_extras: int):
        self.n_out = 2 + n_extras

    def rules(self) -> list[Rule]:
        # as zip(outputs, fields): a token with fewer fields feeds fewer outputs
        fields = [line for k in range(self.n_out - 1)
                  for line in (f"if len(fields) > {k}:", f"    push{k + 1}(fields[{k}])")]
        return [rule("in0", "token = pop0()",
                     "fields = token if isinstance(token, tuple) else (token,)",
                     "push0(None)", *fields)]


class Bundle(Actor):
    """control token, data, downstream extras -> channel."""

    n_out = 1

    def __init__(self, n_extras: int):
        self.n_in = 2 + n_extras

    def rules(self) -> list[Rule]:
        fields = ", ".join(f"pop{k}()" for k in range(1, self.n_in))
        token = f"({fields},)" if self.n_in > 2 else fields
        return [rule(ready(range(self.n_in)), "pop0()", f"push0({token})")]
