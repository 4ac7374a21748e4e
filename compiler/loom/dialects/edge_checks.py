"""Type checks shared by the handshake ops' verifiers (messages name the operand)."""

from __future__ import annotations

from collections.abc import Sequence

from xdsl.dialects.builtin import IndexType, IntegerType, i1
from xdsl.ir import Attribute
from xdsl.utils.exceptions import VerifyException

from loom.dialects.channel_types import (
    ChannelType,
    canonical_type,
    check_edge_type,
    data_type,
    data_width,
    is_control,
    same_edge_type,
)


def is_condition_type(t: Attribute) -> bool:
    """`i1` or `!handshake.channel<i1>` (no extras)."""
    return canonical_type(t) == ChannelType(i1)


def check_control(t: Attribute, what: str) -> None:
    if not is_control(t):
        raise VerifyException(f"{what} must be none or !handshake.control, got {t}")


def check_condition(t: Attribute, what: str) -> None:
    if not is_condition_type(t):
        raise VerifyException(f"{what} must be i1 (or !handshake.channel<i1>), got {t}")


def check_same(t: Attribute, expected: Attribute, what: str) -> None:
    if not same_edge_type(t, expected):
        raise VerifyException(f"{what} has type {t}, expected {expected}")


def check_all_same(types: Sequence[Attribute], expected: Attribute, what: str) -> None:
    for i, t in enumerate(types):
        check_same(t, expected, f"{what} #{i}")


def check_select(t: Attribute, n: int, what: str) -> None:
    """An index/integer select able to name `n` inputs."""
    check_edge_type(t, what)
    if not isinstance(data_type(t), IntegerType | IndexType):
        raise VerifyException(f"{what} must be an integer or index, got {t}")
    need = max(1, (n - 1).bit_length())
    if data_width(t) < need:
        raise VerifyException(f"{what} type {t} is too narrow for {n} inputs (needs {need} bits)")


def check_address(t: Attribute, what: str) -> None:
    check_edge_type(t, what)
    if not isinstance(data_type(t), IntegerType | IndexType):
        raise VerifyException(f"{what} must be an index or integer, got {t}")
