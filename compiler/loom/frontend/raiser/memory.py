"""Pointers as (memref, index path): how GEP chains become memref indices.

A pointer is a root memref (an array parameter or a local array) plus the
indices that select the object it points to. An array parameter `int m[8][8]`
arrives as a pointer to `m[0]` (path `[0]`, pointing at an `int[8]`); a local
array's `alloca` points at the whole array (empty path). A GEP's first index
moves along the innermost selected dimension, each further index descends one
dimension; loads and stores need the full path to an element.
"""

from __future__ import annotations

from dataclasses import dataclass

from xdsl.ir import SSAValue

from loom.frontend.raiser.types import LArray, LFloat, LInt, LType

Index = int | SSAValue       # a compile-time constant or an SSA value of type index


@dataclass(frozen=True)
class Root:
    memref: SSAValue
    shape: tuple[int, ...]
    width: int
    is_float: bool = False

    def type_at(self, depth: int) -> LType:
        t: LType = LFloat(f"f{self.width}") if self.is_float else LInt(self.width)
        for d in reversed(self.shape[depth:]):
            t = LArray(d, t)
        return t


@dataclass(frozen=True)
class Pointer:
    root: Root
    path: tuple[Index, ...]

    @property
    def depth(self) -> int:
        return len(self.path)

    @property
    def pointee(self) -> LType:
        return self.root.type_at(self.depth)


class PointerError(Exception):
    """A pointer use the model cannot express; the caller adds the location."""


@dataclass(frozen=True)
class ConstTable:
    """A constant global array (clang's `__const.f.x`, an initializer list's source)."""
    name: str
    shape: tuple[int, ...]
    width: int
    values: tuple[int, ...]          # row-major bit patterns
    is_float: bool = False


def unravel(flat: int, shape: tuple[int, ...]) -> tuple[int, ...]:
    out = []
    for d in reversed(shape):
        out.append(flat % d)
        flat //= d
    return tuple(reversed(out))
