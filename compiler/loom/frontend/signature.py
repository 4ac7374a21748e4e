"""The top function's C signature, read through clang.

Array parameters decay to pointers in the AST and in LLVM IR, so their extent
is recovered in three steps: clang's AST (JSON) gives the parameters and
lines; clang's `-ast-print` gives each parameter's declaration with macros
expanded (`int16_t b[16][33]`); and a probe compile turns every
declaration into a typedef plus a global, whose LLVM type (`[16 x [33 x i16]]`)
is the shape and element width with all typedefs resolved.
"""

from __future__ import annotations

import json
import re
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from loom.diagnostics import LoomError, Location
from loom.frontend.toolchain import Toolchain, run_tool

SCALAR_WIDTHS = (8, 16, 32, 64)


@dataclass(frozen=True)
class Param:
    index: int
    name: str
    line: int
    decl: str                          # clang's printing, macros expanded
    shape: tuple[int, ...] | None      # None: a scalar
    width: int                         # bits of the scalar or array element
    is_float: bool = False             # float (32) or double (64), else an integer

    @property
    def is_array(self) -> bool:
        return self.shape is not None

    @property
    def scalar_type(self) -> str:
        """The scalar or element type: `i32`, `f32`, `f64`, ..."""
        return scalar_type(self.width, self.is_float)

    @property
    def mlir_type(self) -> str:
        if self.shape is None:
            return self.scalar_type
        return f"memref<{'x'.join(map(str, self.shape))}x{self.scalar_type}>"

    @property
    def elements(self) -> int:
        n = 1
        for d in self.shape or ():
            n *= d
        return n


@dataclass(frozen=True)
class Signature:
    name: str
    file: str
    line: int
    params: tuple[Param, ...]
    result_width: int | None           # None: void
    result_decl: str | None            # the return type as written, e.g. `int64_t`
    result_float: bool = False

    @property
    def arg_types(self) -> list[str]:
        return [p.mlir_type for p in self.params]

    @property
    def result_types(self) -> list[str]:
        if self.result_width is None:
            return []
        return [scalar_type(self.result_width, self.result_float)]


def scalar_type(width: int, is_float: bool) -> str:
    return f"f{width}" if is_float else f"i{width}"


def read_signature(tc: Toolchain, kernel: Path, top: str, cflags: list[str]) -> Signature:
    decls = _function_decls(tc, kernel, top, cflags)
    src = str(kernel)
    if not decls:
        raise LoomError(f"no function named '{top}' (name the top with --top)", Location(src))
    definition = next((d for d in decls if _is_definition(d)), None)
    if definition is None:
        loc = decls[0]["loc"]
        raise LoomError(f"function '{top}' is declared but not defined in this file",
                        Location(_file_of(loc) or src, _LineTracker().line(loc)))
    line = _LineTracker().line(definition["loc"])
    if definition["loc"].get("includedFrom") or _file_of(definition["loc"]) not in (None, src):
        raise LoomError(f"function '{top}' must be defined in {src}, not in an included file",
                        Location(src))
    if definition.get("variadic"):
        raise LoomError(f"variadic function '{top}' (varargs) is not supported",
                        Location(src, line))
    parms = _params(definition)
    head, texts = _split_header(_printed_definition(tc, kernel, top, cflags), top,
                                Location(src, line))
    texts = [t for t in texts if t != "..."]
    if len(texts) != len(parms):
        raise LoomError(f"cannot read the parameter list of '{top}'", Location(src, line))
    result_decl = _result_text(head)
    _refuse_vla_params(parms, texts, src)
    try:
        probe = _probe_types(tc, kernel, cflags, texts, result_decl)
    except _ProbeFailed as exc:
        if exc.owner == "r":
            what, text, where = "the return type", result_decl, Location(src, line)
        else:
            name, pline, _ = parms[int(exc.owner)]
            what, text, where = f"parameter '{name}'", texts[int(exc.owner)], Location(src, pline)
        raise LoomError(f"cannot determine the type of {what} ('{text}'): {exc.message}",
                        where) from None
    params = []
    for i, ((name, pline, qual), text) in enumerate(zip(parms, texts)):
        params.append(_classify(i, name, pline, qual, text, probe.get(str(i)),
                                Location(src, pline)))
    result_width, result_float = None, False
    if result_decl is not None:
        result_width, result_float = _scalar_width(probe.get("r"), "return type", result_decl,
                                                   Location(src, line))
    return Signature(top, src, line, tuple(params), result_width, result_decl, result_float)


# -- clang's AST ------------------------------------------------------------------

def _ast_json(tc: Toolchain, kernel: Path, name: str, cflags: list[str]) -> list[dict[str, Any]]:
    out = run_tool([tc.clang, "-fsyntax-only", "-w", *cflags, "-Xclang", "-ast-dump=json",
                    "-Xclang", f"-ast-dump-filter={name}", str(kernel)],
                   what="clang (AST)")
    objs, dec, i = [], json.JSONDecoder(), 0
    while True:
        while i < len(out) and out[i].isspace():
            i += 1
        if i >= len(out):
            return objs
        obj, i = dec.raw_decode(out, i)
        objs.append(obj)


def _function_decls(tc: Toolchain, kernel: Path, name: str, cflags: list[str]) -> list[dict[str, Any]]:
    return [d for d in _ast_json(tc, kernel, name, cflags)
            if d.get("kind") == "FunctionDecl" and d.get("name") == name]


def main_decl(tc: Toolchain, kernel: Path, cflags: list[str]) -> dict[str, Any] | None:
    """The definition of main() (JSON AST node), if the file has one."""
    for d in _function_decls(tc, kernel, "main", cflags):
        if _is_definition(d):
            return d
    return None


def _is_definition(decl: dict[str, Any]) -> bool:
    return any(c.get("kind") == "CompoundStmt" for c in decl.get("inner", []))


def _params(decl: dict[str, Any]) -> list[tuple[str, int, str]]:
    """(name, line, decayed type) per parameter, in order."""
    lines = _LineTracker()
    lines.visit_node_head(decl)
    out = []
    for child in decl.get("inner", []):
        if child.get("kind") != "ParmVarDecl":
            lines.visit_subtree(child)
            continue
        line = lines.line(child["loc"])
        lines.visit_range(child)
        out.append((child.get("name", ""), line, child["type"]["qualType"]))
        for sub in child.get("inner", []):
            lines.visit_subtree(sub)
    return out


def _file_of(loc: dict[str, Any]) -> str | None:
    if "expansionLoc" in loc:
        return _file_of(loc["expansionLoc"])
    return loc.get("file")


class _LineTracker:
    """clang's JSON omits a location's line when it equals the previous one printed."""

    def __init__(self) -> None:
        self.last = 0

    def line(self, loc: dict[str, Any]) -> int:
        if "spellingLoc" in loc:
            self.line(loc["spellingLoc"])
            return self.line(loc["expansionLoc"])
        if "line" in loc:
            self.last = int(loc["line"])
        return self.last

    def visit_range(self, node: dict[str, Any]) -> None:
        rng = node.get("range", {})
        for key in ("begin", "end"):
            if key in rng:
                self.line(rng[key])

    def visit_node_head(self, node: dict[str, Any]) -> None:
        if "loc" in node:
            self.line(node["loc"])
        self.visit_range(node)

    def visit_subtree(self, node: dict[str, Any]) -> None:
        self.visit_node_head(node)
        for child in node.get("inner", []):
            self.visit_subtree(child)


# -- clang's printing of the definition ---------------------------------------------

def _printed_definition(tc: Toolchain, kernel: Path, top: str, cflags: list[str]) -> str:
    out = run_tool([tc.clang, "-fsyntax-only", "-w", *cflags, "-Xclang", "-ast-print",
                    "-Xclang", f"-ast-dump-filter={top}", str(kernel)],
                   what="clang (AST print)")
    parts = re.split(r"^Printing (\S+):\n", out, flags=re.M)
    for name, body in zip(parts[1::2], parts[2::2]):
        if name == top and "{" in body:
            return body
    raise LoomError(f"cannot print the definition of '{top}'", Location(str(kernel)))


def _split_header(body: str, top: str, where: Location) -> tuple[str, list[str]]:
    """(text before the name, parameter declarations) of the printed definition."""
    m = re.search(rf"\b{re.escape(top)}\s*\(", body)
    if m is None:
        raise LoomError(f"cannot read the parameter list of '{top}'", where)
    depth, pieces, cur = 1, [], []
    for ch in body[m.end():]:
        if ch in "([":
            depth += 1
        elif ch in ")]":
            depth -= 1
            if depth == 0:
                break
        if ch == "," and depth == 1:
            pieces.append("".join(cur).strip())
            cur = []
        else:
            cur.append(ch)
    last = "".join(cur).strip()
    if last and last != "void":
        pieces.append(last)
    return body[:m.start()], pieces


_SPECIFIERS = re.compile(r"\b(static|inline|extern|__inline|__inline__|_Noreturn|"
                         r"__attribute__\s*\(\(.*?\)\))\s*")


def _result_text(head: str) -> str | None:
    text = _SPECIFIERS.sub("", head).strip()
    return None if text == "void" else text


# -- the probe compile ----------------------------------------------------------------

_BRACKET_QUALS = re.compile(r"\[\s*(?:(?:static|const|restrict|volatile|__restrict)\s+)+")


def renamed_decl(text: str, name: str, alias: str) -> str | None:
    """`int a[16]` -> `int __loom_t0[16]` (None when the name is not in the text)."""
    text = _BRACKET_QUALS.sub("[", text)
    hits = list(re.finditer(rf"\b{re.escape(name)}\b", text)) if name else []
    if not hits:
        return None
    h = hits[-1]
    return text[:h.start()] + alias + text[h.end():]


def _refuse_vla_params(parms: list[tuple[str, int, str]], texts: list[str], src: str) -> None:
    """`int a[n]` with n a parameter: its extent is known only at the call."""
    names = {name for name, _, _ in parms if name}
    for (name, line, _), text in zip(parms, texts):
        for extent in re.findall(r"\[([^\]]*)\]", text):
            if set(re.findall(r"[A-Za-z_]\w*", extent)) & names:
                raise LoomError(f"parameter '{name}' ('{text}') is a variable-length array; "
                                "variable-length array parameters are not supported (give "
                                "the extent as a constant, e.g. a #define)", Location(src, line))


_PROBE = "<loom probe>"


class _ProbeFailed(Exception):
    """The probe compile refused the declaration of `owner` ("0", "1", ... or "r")."""

    def __init__(self, owner: str, message: str):
        super().__init__(message)
        self.owner, self.message = owner, message


def _probe_types(tc: Toolchain, kernel: Path, cflags: list[str], texts: list[str],
                 result: str | None) -> dict[str, str]:
    """LLVM type per parameter index ("0", "1", ...) and "r" for the result."""
    lines, owners = [], []
    for i, text in enumerate(texts):
        name = _param_name(text)
        decl = renamed_decl(text, name, f"__loom_t{i}") if name else None
        if decl is not None:
            lines.append(f"typedef {decl}; __loom_t{i} __loom_v{i};")
            owners.append(str(i))
    if result is not None:
        lines.append(f"typedef {result} __loom_tr; __loom_tr __loom_vr;")
        owners.append("r")
    source = (kernel.read_text(errors="replace") + f'\n#line 1 "{_PROBE}"\n'
              + "\n".join(lines) + "\n")
    try:
        out = run_tool([tc.clang, "-S", "-emit-llvm", "-O0", "-w", "-x", "c",
                        f"-iquote{kernel.parent}", *cflags, "-o", "-", "-"],
                       what="clang (signature probe)", stdin=source)
    except LoomError as exc:
        m = re.search(rf"{re.escape(_PROBE)}:(\d+):\d+: error: (.*)", exc.format())
        if m is None or not 1 <= int(m.group(1)) <= len(owners):
            raise
        raise _ProbeFailed(owners[int(m.group(1)) - 1], m.group(2)) from None
    types = {}
    for m in re.finditer(r"^@__loom_v(\d+|r) = [^=]*?(?:global|constant) (.+?) (?:zeroinitializer|0x\w+|null|0|false)\b",
                         out, flags=re.M):
        types[m.group(1)] = m.group(2)
    return types


def _param_name(text: str) -> str | None:
    """The declared name in a printed parameter declaration."""
    stripped = re.sub(r"\[[^\]]*\]", "", text)
    m = re.search(r"\(\s*\*\s*(\w+)\s*\)", stripped)      # int (*fp)(int)
    if m:
        return m.group(1)
    ids = re.findall(r"[A-Za-z_]\w*", stripped)
    return ids[-1] if ids else None


def _classify(index: int, name: str, line: int, qual: str, text: str,
              llvm: str | None, where: Location) -> Param:
    what = f"parameter '{name}'"
    if "(*)(" in qual or "(*)" in qual and qual.endswith(")"):
        raise LoomError(f"function pointer {what} is not supported", where)
    if llvm is None:
        raise LoomError(f"cannot determine the type of {what} ({text})", where)
    dims = []
    t = llvm
    while (m := re.fullmatch(r"\[(\d+) x (.+)\]", t)):
        dims.append(int(m.group(1)))
        t = m.group(2)
    if t == "ptr" or re.search(r"\[\s*\]", _BRACKET_QUALS.sub("[", text)):
        if dims and t == "ptr":
            raise LoomError(f"array of pointers {what} is not supported", where)
        raise LoomError(f"pointer {what} of unknown extent is not supported "
                        f"(declare it as an array, e.g. int {name}[N])", where)
    width, is_float = _scalar_width(t, what, text, where)
    if dims and 0 in dims:
        raise LoomError(f"zero-length array {what} is not supported", where)
    return Param(index, name, line, text, tuple(dims) if dims else None, width, is_float)


FLOAT_WIDTHS = {"float": 32, "double": 64}


def _scalar_width(llvm: str | None, what: str, text: str, where: Location) -> tuple[int, bool]:
    """(bits, is a float) of a scalar type."""
    if llvm is None:
        raise LoomError(f"cannot determine the type of the {what} ({text})", where)
    if llvm in FLOAT_WIDTHS:
        return FLOAT_WIDTHS[llvm], True
    if llvm in ("half", "bfloat", "x86_fp80", "fp128", "ppc_fp128"):
        raise LoomError(f"floating-point {what} ('{text}') is not supported (float and "
                        "double only)", where)
    if llvm.startswith(("%struct.", "%union.", "{", "<{")):
        raise LoomError(f"struct {what} ('{text}') is not supported", where)
    if llvm == "ptr":
        raise LoomError(f"pointer {what} ('{text}') is not supported", where)
    m = re.fullmatch(r"i(\d+)", llvm)
    if m is None or int(m.group(1)) not in SCALAR_WIDTHS:
        raise LoomError(f"{what} '{text}' is not supported (integers of 8 to 64 bits, "
                        "float and double only)", where)
    return int(m.group(1)), False
