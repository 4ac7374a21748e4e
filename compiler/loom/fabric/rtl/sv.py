"""SystemVerilog expressions and statements as data, for the fabric modules
whose bodies Python composes (a function unit's DAG, the top's wiring): the
generators build these; templates/fabric_sv.sv.j2 writes them as text, so
every line of SystemVerilog lives in a template.

Each class's `kind` selects its macro in fabric_sv.sv.j2.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import ClassVar, Union


@dataclass(frozen=True)
class Ref:
    """A signal by name."""

    name: str
    kind: ClassVar[str] = "ref"


@dataclass(frozen=True)
class Select:
    """`base[hi:lo]`, or the bit `base[hi]` when lo is None."""

    base: Expr
    hi: int
    lo: int | None = None
    kind: ClassVar[str] = "select"


@dataclass(frozen=True)
class Const:
    """A sized literal `width'<radix>value` (`'0`, all zeros, without width)."""

    value: int
    width: int | None = None
    radix: str = "b"
    kind: ClassVar[str] = "const"


@dataclass(frozen=True)
class ZeroExtend:
    """`{pad'd0, e}`: e with pad zero bits above it."""

    pad: int
    e: Expr
    kind: ClassVar[str] = "zext"


@dataclass(frozen=True)
class Not:
    e: Expr
    kind: ClassVar[str] = "not"


@dataclass(frozen=True)
class And:
    terms: tuple[Expr, ...]
    kind: ClassVar[str] = "and"


@dataclass(frozen=True)
class Or:
    terms: tuple[Expr, ...]
    kind: ClassVar[str] = "or"


@dataclass(frozen=True)
class Paren:
    e: Expr
    kind: ClassVar[str] = "paren"


@dataclass(frozen=True)
class Equals:
    """`(a == b)`."""

    a: Expr
    b: Expr
    kind: ClassVar[str] = "eq"


@dataclass(frozen=True)
class Replicate:
    """`{n{e}}`."""

    n: int
    e: Expr
    kind: ClassVar[str] = "repl"


@dataclass(frozen=True)
class ReduceOr:
    e: Expr
    kind: ClassVar[str] = "redor"


@dataclass(frozen=True)
class Choose:
    """`cond ? a : b`."""

    cond: Expr
    a: Expr
    b: Expr
    kind: ClassVar[str] = "cond"


Expr = Union[Ref, Select, Const, ZeroExtend, Not, And, Or, Paren, Equals, Replicate,
             ReduceOr, Choose]

ONE = Const(1, 1)
ZERO = Const(0, 1)


@dataclass(frozen=True)
class Decl:
    """`logic [bits-1:0] name;`, or a 1-bit `logic name;` when bits is None."""

    name: str
    bits: int | None = None
    kind: ClassVar[str] = "decl"


@dataclass(frozen=True)
class Assign:
    lhs: Expr
    rhs: Expr
    kind: ClassVar[str] = "assign"


@dataclass(frozen=True)
class Instance:
    """`module name (.port(e), ...);` on one line."""

    module: str
    name: str
    conns: tuple[tuple[str, Expr], ...]
    kind: ClassVar[str] = "instance"


Statement = Union[Assign, Instance]


def bits(name: str, hi: int, lo: int | None = None) -> Select:
    """`name[hi:lo]` (or `name[hi]`)."""
    return Select(Ref(name), hi, lo)


def resize(e: Expr, src: int, dst: int, unused: list[Expr]) -> Expr:
    """`e` (src bits) as dst bits, LSB-aligned: zero-extended or truncated
    (LOOM's connection rule); the bits a truncation drops go to `unused`."""
    if dst == src:
        return e
    if dst > src:
        return ZeroExtend(dst - src, e)
    if isinstance(e, Select) and isinstance(e.base, Ref) and e.lo is not None:
        # narrow a part-select in place: SystemVerilog cannot chain range selects
        unused.append(Select(e.base, e.lo + src - 1, e.lo + dst))
        return Select(e.base, e.lo + dst - 1, e.lo)
    unused.append(Select(e, src - 1, dst))
    return Select(e, dst - 1, 0)
