"""The SCF/CF reference run: `.scf.mlir` or `.cf.mlir` executed by xDSL's interpreter.

`loom run K --stage scf|cf` compiles K (a .c file) or takes the given MLIR
file, runs the top function on the bundle's inputs and compares the results
and final memories with the native run (or the bundle's expectations).
Exit status: 0 match, 1 mismatch or a failed run, 2 bad input.
"""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path

from xdsl.dialects import func
from xdsl.dialects.builtin import AnyFloat, IntegerType, MemRefType, ModuleOp
from xdsl.interpreter import Interpreter
from xdsl.utils.exceptions import InterpretationError

from loom import floats
from loom.addressing import stray_warnings
from loom.bundle import Bundle, Outcome, bits, compare, load_bundle
from loom.diagnostics import LoomError, Location
from loom.frontend.driver import compile_kernel, kernel_name, resolve_kernel
from loom.frontend.interpreter import DEFAULT_STEPS, reference_interpreter
from loom.frontend.llvm_input import source_location
from loom.frontend.mlir_ir import parse_module
from loom.frontend.reference_ops import POISON, Memory, RunError, strays, width_of


class RunFailed(Exception):
    """The reference run stopped (out of bounds, poison, step budget): exit 1."""


def run_reference(mlir_path: Path, bundle: Bundle, top: str | None = None,
                  max_steps: int = DEFAULT_STEPS) -> Outcome:
    """Run `top` of an .scf.mlir/.cf.mlir file on the bundle's inputs, once
    per invocation, the arrays persisting from one invocation to the next."""
    mlir_path = Path(mlir_path)
    try:
        text = mlir_path.read_text()
    except OSError as exc:
        raise LoomError(f"cannot read: {exc.strerror}", Location(str(mlir_path))) from None
    return run_module(parse_module(text, mlir_path), mlir_path, bundle, top, max_steps)


def run_module(module: ModuleOp, mlir_path: Path, bundle: Bundle, top: str | None = None,
               max_steps: int = DEFAULT_STEPS,
               listeners: tuple[Interpreter.Listener, ...] = ()) -> Outcome:
    """run_reference on a parsed module; `listeners` watch every op it runs."""
    fn = _find_top(module, top, mlir_path)
    memories = _memories(fn, bundle, mlir_path)
    interp = reference_interpreter(module, max_steps, listeners)
    widths = [width_of(t) for t in fn.function_type.outputs.data]
    per_invocation = []
    for k in range(bundle.start_token_count):
        args = _arguments(fn, bundle, mlir_path, memories, k)
        try:
            results = interp.call_op(fn, tuple(args))
        except RunError as exc:
            where = source_location(exc.op.location if exc.op else None,
                                    Location(str(mlir_path)))
            raise RunFailed(f"{where}: {exc}") from None
        except InterpretationError as exc:
            raise RunFailed(f"{mlir_path}: the reference run failed: {exc}") from None
        if any(r is POISON for r in results):
            raise RunFailed(f"{mlir_path}: the function returned an undefined (poison) value")
        per_invocation.append([bits(r, w) for r, w in zip(results, widths)])
    return Outcome(results=per_invocation,
                   memories={k: [bits(v, m.width) for v in m.data]
                             for k, m in memories.items()},
                   result_widths=widths,
                   warnings=_stray_warnings(interp, mlir_path))


def _stray_warnings(interp: Interpreter, mlir_path: Path) -> list[str]:
    """One warning per C access that ran past an inner extent of its array."""
    return stray_warnings((source_location(op.location, Location(str(mlir_path))), at)
                          for op, at in strays(interp).items())


def _find_top(module: ModuleOp, top: str | None, path: Path) -> func.FuncOp:
    funcs = [op for op in module.ops if isinstance(op, func.FuncOp)]
    if top is not None:
        for f in funcs:
            if f.sym_name.data == top:
                return f
        raise LoomError(f"no function '@{top}' in the file", Location(str(path)))
    if len(funcs) != 1:
        raise LoomError("the file must hold exactly one func.func (or name it with --top)",
                        Location(str(path)))
    return funcs[0]


def _memories(fn: func.FuncOp, bundle: Bundle, path: Path) -> dict[int, Memory]:
    """The arrays before the first invocation."""
    memories: dict[int, Memory] = {}
    for k, t in enumerate(fn.function_type.inputs.data):
        if isinstance(t, MemRefType):
            shape = tuple(t.get_shape())
            width = width_of(t.element_type)
            region = bundle.region(k)
            n = 1
            for d in shape:
                n *= d
            if region is None:
                raise LoomError(f"the bundle has no memory region for argument {k}",
                                Location(str(path)))
            if len(region.values) != n or region.elem_size_bytes not in (0, width // 8):
                raise LoomError(f"the bundle's region for argument {k} ({len(region.values)} "
                                f"x {region.elem_size_bytes} bytes) does not fit {t}",
                                Location(str(path)))
            memories[k] = Memory(shape, width, [bits(v, width) for v in region.values])
    return memories


def _is_float(t: object) -> bool:
    return isinstance(t, AnyFloat) and t.bitwidth in floats.FORMATS


def _arguments(fn: func.FuncOp, bundle: Bundle, path: Path, memories: dict[int, Memory],
               invocation: int) -> list[object]:
    args: list[object] = []
    for k, t in enumerate(fn.function_type.inputs.data):
        if isinstance(t, MemRefType):
            args.append(memories[k])
        elif isinstance(t, IntegerType) or _is_float(t):   # a float's input: its pattern
            value = bundle.scalar(k, invocation)
            if value is None:
                raise LoomError(f"the bundle has no scalar input for argument {k}",
                                Location(str(path)))
            args.append(bits(value, width_of(t)))
        else:
            raise LoomError(f"argument {k} of type {t} is not supported", Location(str(path)))
    return args


# -- loom run --stage scf|cf --------------------------------------------------------------

def reference_main(args: argparse.Namespace) -> int:
    stage = getattr(args, "stage", "scf")
    if stage not in ("scf", "cf"):
        raise LoomError(f"the reference interpreter runs --stage scf or cf, not {stage}")
    kernel = resolve_kernel(args.kernel)
    name = kernel_name(kernel)
    bundle_path = Path(args.bundle) if getattr(args, "bundle", None) else None
    if kernel.suffix == ".c":
        out_dir = Path(args.out_dir) if args.out_dir else Path("gen") / name
        arts = compile_kernel(kernel, args.top, args.include_dirs, args.defines, out_dir)
        mlir = arts.scf_mlir if stage == "scf" else arts.cf_mlir
        bundle = load_bundle(bundle_path) if bundle_path else arts.bundle
        top: str | None = arts.top
    else:
        expected = f".{stage}.mlir"
        if not kernel.name.endswith(expected):
            raise LoomError(f"--stage {stage} runs a {expected} file", Location(str(kernel)))
        mlir = kernel
        if bundle_path is None:
            bundle_path = kernel.with_name(f"{name}.bundle.json")
            if not bundle_path.exists():
                raise LoomError(f"no bundle given and no {bundle_path.name} beside the file",
                                Location(str(kernel)))
        bundle = load_bundle(bundle_path)
        top = args.top or bundle.extra.get("top")
    t = time.perf_counter()
    try:
        outcome = run_reference(mlir, bundle, top, getattr(args, "max_steps", DEFAULT_STEPS))
    except RunFailed as exc:
        print(f"{stage} reference: {name}: FAILED: {exc}")
        return 1
    for line in outcome.warnings:
        print(line, file=sys.stderr)
    problems = compare(bundle, outcome)
    seconds = time.perf_counter() - t
    against = "the bundle" if bundle_path else "the native run"
    if problems:
        print(f"{stage} reference: {name}: MISMATCH with {against} ({mlir})")
        for p in problems[:20]:
            print(f"  {p}")
        return 1
    print(f"{stage} reference: {name}: matches {against} "
          f"({len(outcome.results[0]) if outcome.results else 0} result(s), {len(outcome.memories)} array(s), "
          f"{seconds:.2f} s)")
    return 0

