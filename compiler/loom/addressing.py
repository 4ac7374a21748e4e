"""C's addressing of a multi-dimensional array: flat and row-major.

C lays `int a[R][C]` out as R*C consecutive elements and reaches `a[i][j]` at
element i*C + j without checking j < C; kernels of HLS suites rely on it
(`a[k][n]` with n == C is `a[k + 1][0]`), and the hardware computes the same
flat address. So the golden model and the SCF/CF reference follow it: an index
past an inner extent is worth a warning, only an element outside the whole
array is an error.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from math import prod

from loom.diagnostics import Location


@dataclass(frozen=True)
class Address:
    index: tuple[int, ...]
    shape: tuple[int, ...]
    flat: int

    @property
    def inside(self) -> bool:
        """The element lies in the array (C's flat view)."""
        return 0 <= self.flat < prod(self.shape)

    @property
    def stray(self) -> bool:
        """Some index lies outside its own dimension."""
        return any(not 0 <= i < d for i, d in zip(self.index, self.shape))

    def _dims(self) -> str:
        return "x".join(map(str, self.shape))

    def out_of_bounds(self) -> str:
        """Why the access is an error (only when not `inside`)."""
        if len(self.shape) == 1:
            return f"index {list(self.index)} is outside an array of {self.shape[0]} elements"
        return (f"index {list(self.index)} is element {self.flat}, outside a {self._dims()} "
                f"array ({prod(self.shape)} elements)")

    def stray_warning(self) -> str:
        """What a reader should know about a stray (but inside) access."""
        return (f"index {list(self.index)} runs past an inner extent of a {self._dims()} "
                f"array; it reaches element {self.flat} (row-major, as C and the "
                f"hardware do)")


def row_major(index: Sequence[int], shape: Sequence[int]) -> Address:
    flat = 0
    for i, d in zip(index, shape):
        flat = flat * d + i
    return Address(tuple(index), tuple(shape), flat)


def stray_warnings(accesses: Iterable[tuple[Location, Address]]) -> list[str]:
    """`file:line:col: warning: ...` once per C access, in source order."""
    first: dict[Location, Address] = {}
    for loc, at in accesses:
        first.setdefault(loc, at)
    order = sorted(first, key=lambda loc: (loc.file, loc.line or 0, loc.col or 0))
    return [f"{loc}: warning: {first[loc].stray_warning()}" for loc in order]
