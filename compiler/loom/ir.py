"""Reading, verifying and writing MLIR text with LOOM's dialects.

Every parse or verify failure becomes a `LoomError` with the file, line and
column of the offending token or op and a one-line message.

Source locations: xDSL 0.74 keeps MLIR `loc(...)` on ops (`op.location`) and
on block arguments, so C source lines travel as ordinary MLIR locations. It
cannot parse two forms that mlir-opt prints (location aliases defined after
the module, and `"f":L:C to L:C` ranges); `parse_module` rewrites those
before parsing, as it does with a `scf.while` without operands. `print_module`
prints every known location and omits unknown ones, so a printed `.dfg.mlir`
parses back to the same text.
"""

from __future__ import annotations

import bisect
import re
from dataclasses import dataclass, field
from io import StringIO
from pathlib import Path
from typing import Any

from xdsl.context import Context
from xdsl.dialects import get_all_dialects
from xdsl.dialects.builtin import (
    AnyFloat,
    CallSiteLoc,
    DenseIntOrFPElementsAttr,
    FileLineColLoc,
    FusedLoc,
    IntAttr,
    ModuleOp,
    NameLoc,
    StringAttr,
    UnknownLoc,
)
from xdsl.ir import Attribute, BlockArgument, Operation, SSAValue, TypeAttribute
from xdsl.parser import Parser, UnresolvedOperand
from xdsl.printer import Printer
from xdsl.traits import NoTerminator
from xdsl.utils.exceptions import DiagnosticException, ParseError
from xdsl.utils.lexer import Span

from loom import floats
from loom.diagnostics import LoomError, Location
from loom.dialects.arith_extras import arith_dialect
from loom.dialects.memref_extras import memref_dialect
from loom.dialects.dataflow import Dataflow
from loom.dialects.fabric import Fabric
from loom.dialects.fabric_graph import indexed_definitions
from loom.dialects.handshake import Handshake

# Upstream dialects a LOOM pipeline reads (loaded lazily, on first use); arith
# gains the ops xDSL 0.74 lacks (arith_extras.py).
_UPSTREAM_DIALECTS = ("builtin", "arith", "func", "scf", "cf", "memref", "math", "llvm", "ub")


def make_context(allow_unregistered: bool = False) -> Context:
    """A context with the upstream dialects LOOM reads plus handshake, dataflow and fabric."""
    ctx = Context(allow_unregistered=allow_unregistered)
    available = get_all_dialects()
    available["arith"] = arith_dialect
    available["memref"] = memref_dialect
    for name in _UPSTREAM_DIALECTS:
        ctx.register_dialect(name, available[name])
    ctx.load_dialect(Handshake)
    ctx.load_dialect(Dataflow)
    ctx.load_dialect(Fabric)
    return ctx


# --- parsing -----------------------------------------------------------------------


@dataclass
class ParsedModule:
    """A parsed module plus where each op starts in the text (for diagnostics)."""

    module: ModuleOp
    filename: str
    op_positions: dict[Operation, Location] = field(default_factory=dict)


class FloatPatternParser(Parser):
    """xDSL's parser, reading a hex element of a float dense literal as the
    bit pattern MLIR means by it (every MLIR text the tool reads goes through
    it: the LLVM dialect from mlir-translate, the SCF from mlir-opt, our own)."""

    def __init__(self, ctx: Context, text: str, filename: str):
        super().__init__(ctx, text, filename)
        self.literal_elements: list[Any] = []   # of the dense literal being parsed

    def _parse_tensor_literal_element(self) -> Any:
        element = super()._parse_tensor_literal_element()
        self.literal_elements.append(element)
        return element

    def parse_dense_int_or_fp_elements_attr(self, type: Any) -> DenseIntOrFPElementsAttr:
        # xDSL prints an inf or NaN element of a float dense literal as its bit
        # pattern (`0x7f800000`), as MLIR does, but parses it back as the integer
        # 2139095040: the hex elements are read again as patterns here
        outer, self.literal_elements = self.literal_elements, []
        try:
            attr = super().parse_dense_int_or_fp_elements_attr(type)
            return _hex_float_elements(attr, self.literal_elements)
        finally:
            self.literal_elements = outer


_FUNCTION_TYPE = re.compile(r"\([^()\n]*\)[ \t]*->[ \t]*\([^()\n]*\)")
"""A function type whose inputs and results are parenthesised lists of
types without parentheses (every port signature of a fabric ADG)."""


class _LocatingParser(FloatPatternParser):
    """Parser that records the source position of every op it parses."""

    def __init__(self, ctx: Context, text: str, filename: str):
        super().__init__(ctx, text, filename)
        self.op_positions: dict[Operation, Location] = {}
        self.first_use: dict[str, Span] = {}
        self._newlines: list[int] | None = None
        self._function_types: dict[str, TypeAttribute] = {}

    def _locate(self, span: Span) -> Location:
        """_span_location by bisection: Span.get_location counts the newlines
        from the file's start for every op (seconds on a 16x16 ADG)."""
        if self._newlines is None:
            self._newlines = [m.start() for m in re.finditer("\n", span.input.content)]
        k = bisect.bisect_left(self._newlines, span.start)
        line_start = self._newlines[k - 1] + 1 if k else 0
        return Location(span.input.name, k + 1 + span.line_offset, span.start - line_start + 1)

    def parse_type(self) -> TypeAttribute:
        """A function type `(...) -> (...)` whose text this file held before is
        not lexed and parsed again: a 16x16 ADG writes the same few port
        signatures thousands of times (a second of its parse)."""
        if self._current_token.text != "(":
            return super().parse_type()
        content = self.lexer.input.content
        seen = _FUNCTION_TYPE.match(content, self.pos)
        if seen is not None and (known := self._function_types.get(seen.group())) is not None:
            self._resume_from(seen.end())
            return known
        parsed = super().parse_type()
        if seen is not None and not content[seen.end():self.pos].strip():
            self._function_types[seen.group()] = parsed   # it read exactly that text
        return parsed

    def parse_operation(self) -> Operation:
        start = self._current_token.span
        try:
            op = super().parse_operation()
        except DiagnosticException as err:
            # An attribute or type whose constructor verifier failed mid-op.
            raise ParseError(start, _one_line(str(err))) from err
        self.op_positions[op] = self._locate(start)
        return op

    def resolve_operand(self, operand: UnresolvedOperand, type: Attribute) -> SSAValue:
        # Remember where a not-yet-defined value is first used, for the
        # "used but never defined" error that xDSL reports at end of file.
        if operand.operand_name not in self.ssa_values:
            self.first_use.setdefault(operand.operand_name, operand.span)
        return super().resolve_operand(operand, type)

    def undefined_value_error(self) -> LoomError | None:
        names = [n for n in self.forward_ssa_references if n in self.first_use]
        if not names:
            return None
        first = min(names, key=lambda n: self.first_use[n].start)
        return LoomError(
            f"value %{first} is used but never defined", _span_location(self.first_use[first])
        )

    def _get_op_by_name(self, name: str) -> type[Operation]:
        # xDSL reports an unknown op at the token after its name; point at the name.
        try:
            return super()._get_op_by_name(name)
        except ParseError as err:
            at = self.lexer.input.content.rfind(name, 0, self.pos)
            if at < 0:
                raise
            raise ParseError(Span(at, at + len(name), self.lexer.input), err.msg) from None


def _hex_float_elements(attr: DenseIntOrFPElementsAttr,
                        elements: list[Any]) -> DenseIntOrFPElementsAttr:
    """`attr` with each hex element of an f32 / f64 literal taken as its bit pattern
    (a splat's one element stands for all)."""
    element_type = attr.get_element_type()
    hexes = [e.span.text.lower().startswith("0x") for e in elements]
    if not isinstance(element_type, AnyFloat) or element_type.bitwidth not in floats.FORMATS \
            or not any(hexes):
        return attr
    f = floats.fmt(element_type.bitwidth)
    values = list(attr.get_values())
    for j in range(len(values)):
        k = j if len(elements) == len(values) else 0
        if hexes[k]:
            values[j] = float(f.value(int(elements[k].value)))
    return DenseIntOrFPElementsAttr.from_list(attr.type, values)


def parse(text: str, filename: str, ctx: Context | None = None) -> ParsedModule:
    """Parse MLIR text; errors become `LoomError` at the offending token."""
    parser = _LocatingParser(ctx or make_context(), normalize_syntax(normalize_locations(text)),
                             filename)
    try:
        module = parser.parse_module()
    except ParseError as err:
        if err.msg.startswith("values used but not defined"):
            if (undefined := parser.undefined_value_error()) is not None:
                raise undefined from err
        raise LoomError(_one_line(err.msg), _span_location(err.span)) from err
    except (DiagnosticException, ValueError, TypeError, KeyError, IndexError) as err:
        where = _span_location(parser._current_token.span)  # pyright: ignore[reportPrivateUsage]
        raise LoomError(_one_line(f"cannot parse: {err}"), where) from err
    return ParsedModule(module, filename, parser.op_positions)


def parse_module(text: str, filename: str = "<string>") -> ModuleOp:
    """Parse (without verifying) MLIR text into a module."""
    return parse(text, filename).module


def load_module(path: str | Path) -> ModuleOp:
    """Read, parse and verify an MLIR file."""
    name = str(path)
    try:
        text = Path(path).read_text()
    except (OSError, UnicodeDecodeError) as err:
        raise LoomError(f"cannot read file: {err}", Location(name)) from err
    parsed = parse(text, name)
    verify_module(parsed.module, name, parsed.op_positions)
    return parsed.module


def verify_module(
    module: Operation,
    filename: str | None = None,
    op_positions: dict[Operation, Location] | None = None,
) -> None:
    """Verify every op; the first failure (in text order) becomes a `LoomError`.

    The error is located at the op's position in the parsed text when known,
    else at its source location (`loc(...)`, or the nearest enclosing op's).
    """
    positions = op_positions or {}
    with indexed_definitions():
        _verify_each(module, filename, positions)


def _verify_each(module: Operation, filename: str | None,
                 positions: dict[Operation, Location]) -> None:
    for op in module.walk():
        try:
            op.verify(verify_nested_ops=False)
            _verify_blocks(op)
        except (DiagnosticException, ValueError) as err:
            src = _nearest_location(op)
            where = positions.get(op) or src
            if where is None and filename is not None:
                where = Location(filename)
            message = f"'{op.name}' op {_one_line(str(err))}"
            if src is not None and src != where:
                message += f" (source {src})"
            raise LoomError(message, where) from err


def _verify_blocks(op: Operation) -> None:
    """The block checks that xDSL only runs when verifying nested ops."""
    for region in op.regions:
        if len(region.blocks) == 1 and not region.blocks.first.ops:  # type: ignore[union-attr]
            if not op.has_trait(NoTerminator):
                raise DiagnosticException(
                    "has an empty block in a single-block region that expects a terminator"
                )


def _span_location(span: Span) -> Location:
    loc = span.get_location()
    return Location(loc.file, loc.line, loc.col)


def _one_line(message: str) -> str:
    return " ".join(message.split())


# mlir-opt prints location aliases after the module (`#loc3 = loc("k.c":2:3)`)
# and ranges (`"k.c":3:5 to :9`); xDSL 0.74 parses neither. Aliases are inlined
# (their definition lines are blanked so line numbers stay) and ranges cut to
# their start.
_LOC_ALIAS_DEF = re.compile(r"^[ \t]*(#[A-Za-z_][\w$.-]*)[ \t]*=[ \t]*loc\((.*)\)[ \t]*$", re.M)
_LOC_RANGE = re.compile(r"(\"(?:[^\"\\]|\\.)*\":\d+:\d+) to (?:\d+)?:\d+")


def normalize_locations(text: str) -> str:
    """Rewrite MLIR location syntax that xDSL cannot parse into forms it can."""
    if "loc(" not in text:
        return text
    text = _LOC_RANGE.sub(r"\1", text)
    aliases = {m.group(1): m.group(2) for m in _LOC_ALIAS_DEF.finditer(text)}
    if not aliases:
        return text
    text = _LOC_ALIAS_DEF.sub("", text)
    use = re.compile(
        "|".join(re.escape(a) for a in sorted(aliases, key=len, reverse=True))
        + r"(?![\w$.-])"
    )
    for _ in range(len(aliases) + 1):  # aliases may refer to aliases
        aliases = {k: use.sub(lambda m: aliases[m.group(0)], v) for k, v in aliases.items()}
    return use.sub(lambda m: aliases[m.group(0)], text)


# mlir-opt prints a while without loop-carried values as `scf.while : () -> ()`;
# xDSL 0.74 requires the (empty) assignment list: `scf.while () : () -> ()`.
_BARE_WHILE = re.compile(r"(?<![\w\".])scf\.while(?=\s*:)")


def normalize_syntax(text: str) -> str:
    """Rewrite op syntax that mlir-opt prints and xDSL cannot parse."""
    return _BARE_WHILE.sub("scf.while ()", text)


# --- source locations ----------------------------------------------------------------


def _location_of(loc: Attribute) -> Location | None:
    match loc:
        case FileLineColLoc():
            line, col = loc.line.data, loc.column.data
            return Location(loc.filename.data, line or None, col or None)
        case NameLoc():
            return _location_of(loc.location)
        case CallSiteLoc():
            return _location_of(loc.callee) or _location_of(loc.caller)
        case FusedLoc():
            for inner in loc.locations.data:  # type: ignore[attr-defined]
                if (found := _location_of(inner)) is not None:
                    return found
            return None
        case _:
            return None


def _nearest_location(op: Operation) -> Location | None:
    """The source location of `op` or of the closest enclosing op that has one."""
    current: Operation | None = op
    while current is not None:
        if (found := op_location(current)) is not None:
            return found
        current = current.parent_op()
    return None


def op_location(op: Operation | BlockArgument) -> Location | None:
    """The source (C) location attached to an op or block argument, if any."""
    return _location_of(op.location)


def set_op_location(op: Operation | BlockArgument, where: Location) -> None:
    """Attach a source location (printed as `loc("file":line:col)`)."""
    op.location = FileLineColLoc(
        StringAttr(where.file), IntAttr(where.line or 0), IntAttr(where.col or 0)
    )


# --- printing ------------------------------------------------------------------------


class _LoomPrinter(Printer):
    """Prints `loc(...)` for known locations only (no `loc(unknown)` noise)."""

    def print_op(self, op: Operation) -> None:
        saved = self.print_debuginfo
        self.print_debuginfo = not isinstance(op.location, UnknownLoc)
        try:
            super().print_op(op)
        finally:
            self.print_debuginfo = saved

    def print_block_argument(self, arg: BlockArgument, print_type: bool = True) -> None:
        saved = self.print_debuginfo
        self.print_debuginfo = not isinstance(arg.location, UnknownLoc)
        try:
            super().print_block_argument(arg, print_type)
        finally:
            self.print_debuginfo = saved


def print_module(module: Operation) -> str:
    """The textual form of a module (parses back to the same text)."""
    stream = StringIO()
    _LoomPrinter(stream=stream).print_op(module)
    stream.write("\n")
    return stream.getvalue()


__all__ = [
    "FloatPatternParser",
    "ParsedModule",
    "load_module",
    "make_context",
    "normalize_locations",
    "normalize_syntax",
    "op_location",
    "parse",
    "parse_module",
    "print_module",
    "set_op_location",
    "verify_module",
]
