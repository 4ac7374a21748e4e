"""SystemVerilog expressions and statements as data, for the fabric modules
whose bodies Python composes (a function unit's DAG, the top's wiring): the
generators build these and templates/fabric_sv.sv.j2 writes them, so every
line of SystemVerilog lives in a template.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, ClassVar, NamedTuple, Optional, Union

OPS = ("select", "const", "fill", "zext", "not", "and", "or", "paren", "eq", "repl", "redor",
       "cond")
"""The operator kinds: each is a branch of the `expr` macro in fabric_sv.sv.j2,
which documents its arguments."""


@dataclass(frozen=True)
class Ref:
    """A signal `name`, the bit `name[hi]` (lo None) or the part-select `name[hi:lo]`."""

    name: str
    hi: int | None = None
    lo: int | None = None
    kind: ClassVar[str] = "ref"


@dataclass(frozen=True)
class Op:
    """An operator `kind` (one of OPS) over `args`: expressions, and the
    widths and values some operators take."""

    kind: str
    args: tuple[Any, ...] = ()

    def __post_init__(self) -> None:
        assert self.kind in OPS, self.kind


Expr = Union[Ref, Op]


def expr(kind: str, *args: Any) -> Op:
    """`expr("and", a, b)`: Op("and", (a, b))."""
    return Op(kind, args)


ONE = expr("const", 1, 1, "b")
ZERO = expr("const", 0, 1, "b")


Decl = tuple[str, Optional[int]]
"""(name, bits): `logic [bits-1:0] name;`, or a 1-bit `logic name;` when bits is None."""


def decl(name: str, bits: int | None = None) -> Decl:
    return name, bits


class Assign(NamedTuple):
    """`assign lhs = rhs;`"""

    lhs: Expr
    rhs: Expr


@dataclass(frozen=True)
class Instance:
    """`module name (.port(expr), ...);`, on one line."""

    module: str
    name: str
    conns: tuple[tuple[str, Expr], ...]


Statement = Union[Assign, Instance]


def resize(e: Expr, src: int, dst: int, unused: list[Expr]) -> Expr:
    """`e` (src bits) as dst bits, LSB-aligned: zero-extended or truncated
    (LOOM's connection rule); the bits a truncation drops go to `unused`."""
    if dst == src:
        return e
    if dst > src:
        return expr("zext", dst - src, e)
    if isinstance(e, Ref) and e.lo is not None:
        # narrow a part-select in place: SystemVerilog cannot chain range selects
        unused.append(Ref(e.name, e.lo + src - 1, e.lo + dst))
        return Ref(e.name, e.lo + dst - 1, e.lo)
    unused.append(expr("select", e, src - 1, dst))
    return expr("select", e, dst - 1, 0)
