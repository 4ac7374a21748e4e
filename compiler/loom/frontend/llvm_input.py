"""Reading `mlir-opt`'s generic-form LLVM dialect into xDSL.

The LLVM ops stay unregistered (generic form, allow-unregistered). xDSL does
not parse debug metadata (`#llvm.di_*`) nor `fused<metadata>[...]` locations, so
the text is first reduced to what the raiser needs: debug intrinsics and
metadata aliases are dropped and locations keep only their file:line:col
(inlining's `callsite(...)` stays). Line tables therefore survive into xDSL.
"""

from __future__ import annotations

import re
from pathlib import Path

from xdsl.context import Context
from xdsl.dialects.builtin import (Builtin, CallSiteLoc, FileLineColLoc, FusedLoc,
                                   NameLoc)
from xdsl.dialects.builtin import ModuleOp
from xdsl.ir import Attribute
from xdsl.utils.exceptions import ParseError

from loom.diagnostics import LoomError, Location
from loom.ir import FloatPatternParser

_ALIAS_DEF = re.compile(r"^#(\w+) = (.*)$")
_FUSED_META = re.compile(r"fused<[^\[\]]*?>\[")
_DBG_OP = re.compile(r'^\s*"llvm\.intr\.dbg\.\w+"\(.*$')
# properties that only point at debug metadata (e.g. a global's dbg_exprs)
_META_PROP = re.compile(r"\b\w+ = (?:\[\s*#(?:di|loop)\w*(?:\s*,\s*#(?:di|loop)\w*)*\s*\]|#(?:di|loop)\w*)(?:, )?")
# block-argument locations that point into the .mlir text, not the C file
_MLIR_LOC = re.compile(r' loc\("[^"]*\.mlir":\d+:\d+\)')


def simplify(text: str) -> str:
    """The LLVM-dialect text reduced to what xDSL parses (see module doc)."""
    locs: dict[str, str] = {}
    out = []
    for line in text.splitlines():
        m = _ALIAS_DEF.match(line)
        if m:
            if m.group(2).startswith("loc("):
                locs[m.group(1)] = _FUSED_META.sub("fused[", line)
            continue
        if _DBG_OP.match(line):
            continue
        if "= #di" in line or "= [#di" in line or "= #loop" in line:
            line = _META_PROP.sub("", line)
            line = line.replace("<{}>", "").replace("{, ", "{").replace(", }", "}")
            line = re.sub(r",\s*,", ",", line)
        line = _MLIR_LOC.sub("", line)
        line = _FUSED_META.sub("fused[", line)
        out.append(line)
    return _strip_module_attrs("\n".join(_ordered_aliases(locs) + out) + "\n")


def _ordered_aliases(locs: dict[str, str]) -> list[str]:
    """Location aliases with every alias defined before its first use.

    MLIR prints some of them after the module; xDSL needs them up front.
    """
    done: set[str] = set()
    ordered: list[str] = []

    def emit(name: str) -> None:
        stack = [(name, False)]
        while stack:
            cur, expanded = stack.pop()
            if cur in done or cur not in locs:
                continue
            if expanded:
                done.add(cur)
                ordered.append(locs[cur])
                continue
            stack.append((cur, True))
            body = locs[cur].split("=", 1)[1]
            for ref in re.findall(r"#(\w+)", body):
                if ref not in done:
                    stack.append((ref, False))

    for name in locs:
        emit(name)
    return ordered


def _strip_module_attrs(text: str) -> str:
    # The data-layout spec on the module is of no use and xDSL cannot read it.
    return re.sub(r"^\}\) \{dlti\.dl_spec.*? : \(\) -> \(\)",
                  '}) : () -> ()', text, flags=re.M)


def parse_llvm_dialect(text: str, path: Path) -> ModuleOp:
    ctx = Context(allow_unregistered=True)
    ctx.load_dialect(Builtin)
    try:
        return FloatPatternParser(ctx, simplify(text), str(path)).parse_module()
    except ParseError as exc:
        first = str(exc).strip().splitlines()[0] if str(exc).strip() else "parse error"
        raise LoomError(f"cannot read the LLVM dialect (a bug in loom): {first}",
                        Location(str(path))) from None


def source_location(loc: Attribute | None, fallback: Location) -> Location:
    """The innermost C file:line:col of an xDSL location."""
    if isinstance(loc, FileLineColLoc):
        return Location(loc.filename.data, loc.line.data, loc.column.data)
    if isinstance(loc, FusedLoc):
        for sub in loc.locations.data:
            found = source_location(sub, fallback)
            if found is not fallback:
                return found
    if isinstance(loc, CallSiteLoc):
        return source_location(loc.callee, fallback)
    if isinstance(loc, NameLoc):
        return source_location(loc.location, fallback)
    return fallback


def c_location(loc: Attribute | None) -> Attribute | None:
    """A location reduced to its C file:line:col parts (drops metadata-only fusions)."""
    if isinstance(loc, FusedLoc) and len(loc.locations.data) == 1:
        return c_location(loc.locations.data[0])
    return loc
