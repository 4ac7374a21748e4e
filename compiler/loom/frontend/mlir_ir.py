"""Reading and writing the front end's MLIR (func, cf, scf, arith, memref, ub) with xDSL.

The context is the shared one of `loom.ir` (with `arith.index_castui`, which
xDSL 0.74 lacks and MLIR's passes may produce, and the `ub` dialect).
"""

from __future__ import annotations

import io
import re
from pathlib import Path

from xdsl.context import Context
from xdsl.dialects.builtin import ModuleOp
from xdsl.ir import Operation
from xdsl.printer import Printer

from loom.dialects.arith_extras import IndexCastUIOp
from loom import ir

__all__ = ["IndexCastUIOp", "context", "parse_module", "print_generic"]


def context() -> Context:
    """The shared LOOM context (loom.ir registers `ub`, which `--lift-cf-to-scf` emits)."""
    return ir.make_context()


# MLIR 22's arith.trunci carries overflow flags that xDSL 0.74 does not model;
# the tool never sets them (truncation wraps), so `none` is all that occurs.
_TRUNCI_FLAGS = re.compile(r'("arith\.trunci"\([^)]*\)) <\{overflowFlags = #arith\.overflow<none>\}>')


def parse_module(text: str, path: Path | str) -> ModuleOp:
    """A verified module; a malformed file is bad input (one located line, exit 2)."""
    text = _TRUNCI_FLAGS.sub(r"\1", text)
    parsed = ir.parse(text, str(path), context())
    ir.verify_module(parsed.module, str(path), parsed.op_positions)
    return parsed.module


def print_generic(module: Operation) -> str:
    out = io.StringIO()
    Printer(stream=out, print_generic_format=True, print_debuginfo=True).print_op(module)
    return out.getvalue() + "\n"
