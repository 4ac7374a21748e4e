"""handshake.compose / decompose and bundle / unbundle (seed 004).

A channel with downstream extras is a tuple (data, extra_1, ...) in the model.
compose packs it LSB-first into one integer (data in the low bits, then each
extra in declaration order); decompose unpacks it. Upstream extras have no
meaning in a token model; the builder rejects them.
"""

from __future__ import annotations

from collections.abc import Sequence

from loom.golden.actor import Actor
from loom.golden.channel import Channel


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

    def fire(self, ins: Sequence[Channel], outs: Sequence[Channel]) -> bool:
        if not ins[0].q:
            return False
        outs[0].push(pack(ins[0].pop(), self.widths))
        return True


class Decompose(Compose):
    def fire(self, ins: Sequence[Channel], outs: Sequence[Channel]) -> bool:
        if not ins[0].q:
            return False
        outs[0].push(unpack(ins[0].pop(), self.widths))
        return True


class Unbundle(Actor):
    """channel -> control token, data, downstream extras (one token each)."""

    n_in = 1

    def __init__(self, n_extras: int):
        self.n_out = 2 + n_extras

    def fire(self, ins: Sequence[Channel], outs: Sequence[Channel]) -> bool:
        if not ins[0].q:
            return False
        token = ins[0].pop()
        fields = token if isinstance(token, tuple) else (token,)
        outs[0].push(None)
        for out, f in zip(outs[1:], fields):
            out.push(f)
        return True


class Bundle(Actor):
    """control token, data, downstream extras -> channel."""

    n_out = 1

    def __init__(self, n_extras: int):
        self.n_in = 2 + n_extras

    def fire(self, ins: Sequence[Channel], outs: Sequence[Channel]) -> bool:
        for ch in ins:
            if not ch.q:
                return False
        ins[0].pop()
        fields = tuple(ch.pop() for ch in ins[1:])
        outs[0].push(fields if len(fields) > 1 else fields[0])
        return True
