"""LLVM dialect types as the raiser sees them (the ops are unregistered in xDSL)."""

from __future__ import annotations

import re
from dataclasses import dataclass

from xdsl.dialects.builtin import Float32Type, Float64Type, IntegerType, UnregisteredAttr
from xdsl.ir import Attribute


@dataclass(frozen=True)
class LInt:
    width: int


@dataclass(frozen=True)
class LArray:
    count: int
    elem: "LType"


@dataclass(frozen=True)
class LPtr:
    pass


@dataclass(frozen=True)
class LFloat:
    name: str

    @property
    def width(self) -> int | None:
        """32 or 64 for the formats the flow carries (float, double), else None."""
        return {"f32": 32, "float": 32, "f64": 64, "double": 64}.get(self.name)


@dataclass(frozen=True)
class LOther:
    text: str


LType = LInt | LArray | LPtr | LFloat | LOther

_FLOATS = {"f16", "bf16", "f32", "f64", "f80", "f128", "half", "bfloat", "float",
           "double", "x86_fp80", "fp128"}


def ltype(attr: Attribute) -> LType:
    if isinstance(attr, IntegerType):
        return LInt(attr.width.data)
    if isinstance(attr, UnregisteredAttr):
        name, value = attr.attr_name.data, attr.value.data
        if name == "llvm.ptr":
            return LPtr()
        if name == "llvm.array":
            return parse_ltype(f"array<{value}>")
        return LOther(f"!{name}<{value}>" if value else f"!{name}")
    text = str(attr)
    if text in _FLOATS or type(attr).__name__.startswith(("Float", "BFloat")):
        return LFloat(text)
    return LOther(text)


def parse_ltype(text: str) -> LType:
    text = text.strip()
    if (m := re.fullmatch(r"i(\d+)", text)):
        return LInt(int(m.group(1)))
    if (m := re.fullmatch(r"array<(\d+) x (.+)>", text)):
        return LArray(int(m.group(1)), parse_ltype(m.group(2)))
    if text in ("ptr", "!llvm.ptr"):
        return LPtr()
    if text in _FLOATS:
        return LFloat(text)
    return LOther(text)


def array_shape(t: LType) -> tuple[tuple[int, ...], LType]:
    """(dims, innermost element) of a nest of arrays."""
    dims = []
    while isinstance(t, LArray):
        dims.append(t.count)
        t = t.elem
    return tuple(dims), t


def is_float(attr: Attribute) -> bool:
    return isinstance(ltype(attr), LFloat)


def flow_type(width: int, is_float: bool) -> Attribute:
    """The flow's scalar type: iN, or f32 / f64."""
    if not is_float:
        return IntegerType(width)
    return Float32Type() if width == 32 else Float64Type()


def scalar(t: LType) -> tuple[int, bool] | None:
    """(width, is a float) of an integer or a float / double, else None."""
    if isinstance(t, LInt):
        return t.width, False
    if isinstance(t, LFloat) and t.width is not None:
        return t.width, True
    return None
