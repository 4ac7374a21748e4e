"""The front-end pipeline of design.md section 1: C to .ll, .llvm.mlir, .cf.mlir, .scf.mlir.

    clang -O0 (no optnone, no FP contraction, -g line tables)  -> <name>.ll
    mlir-translate --import-llvm; mlir-opt --inline --mem2reg --sroa
        --mem2reg --cse --canonicalize (generic form)          -> <name>.llvm.mlir
    our raiser (xDSL)                                          -> <name>.cf.mlir
    mlir-opt --lift-cf-to-scf ... --test-scf-uplift-while-to-for
        --loop-invariant-code-motion ...                       -> <name>.scf.mlir
    the native run with a capturing wrapper                    -> <name>.bundle.json

Calls inside the file are inlined by MLIR's inliner (clang marks every
function `noinline` at -O0; that mark is dropped first). Never -O1/-O2: loop
rotation and if-conversion would destroy the loop structure.
"""

from __future__ import annotations

import re
import time
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

from loom.bundle import Bundle
from loom.diagnostics import LoomError, Location
from loom.frontend import native
from loom.frontend.constant_loops import fold_constant_loops
from loom.frontend.llvm_input import parse_llvm_dialect
from loom.frontend.mlir_ir import parse_module, print_generic
from loom.frontend.raiser import raise_to_cf
from loom.frontend.scf_cleanup import switches_to_ifs
from loom.frontend.signature import Signature, read_signature
from loom.frontend.toolchain import Toolchain, find_toolchain, run_tool

KERNELS_DIR = Path("kernels")
# -fdebug-compilation-dir=. keeps the file name in the line tables as the user
# spelled it: otherwise clang splits an absolute path against the working
# directory's parent and MLIR keeps only the relative half. Line tables are all
# the locations need; full -g adds debug intrinsics on which mlir-opt-22's
# --inline/--mem2reg crashes (`n = n;`).
# -disable-llvm-passes: no always-inliner either, so an always_inline top stays
# a function of its own (MLIR's inliner does all the inlining).
CLANG_FLAGS = ["-S", "-emit-llvm", "-O0", "-Xclang", "-disable-O0-optnone",
               "-ffp-contract=off", "-gline-tables-only", "-fdebug-compilation-dir=.",
               "-fno-discard-value-names", "-Xclang", "-disable-llvm-passes"]
# mem2reg again after sroa: the fields sroa splits out of a local struct (or a
# local array read at constant indices) are scalars only mem2reg promotes.
LLVM_PASSES = ["--inline", "--mem2reg", "--sroa", "--mem2reg", "--cse", "--canonicalize"]
SCF_PASSES_HEAD = ["--lift-cf-to-scf", "--canonicalize", "--cse"]
SCF_PASSES_UPLIFT = ["--test-scf-uplift-while-to-for"]
SCF_PASSES_TAIL = ["--loop-invariant-code-motion", "--cse", "--canonicalize"]
PRINT_FLAGS = ["--mlir-print-debuginfo"]

Progress = Callable[[str, Path, float], None]


@dataclass
class Artifacts:
    name: str
    top: str
    out_dir: Path
    ll: Path
    llvm_mlir: Path
    cf_mlir: Path
    scf_mlir: Path
    bundle_path: Path
    bundle: Bundle
    signature: Signature
    llvm_version: int

    @property
    def dfg_mlir(self) -> Path:
        return self.out_dir / f"{self.name}.dfg.mlir"


def resolve_kernel(name_or_path: str | Path) -> Path:
    """A kernel file: a path as given, or a bare name meaning kernels/<name>.c."""
    text = str(name_or_path)
    path = Path(text)
    if path.suffix or "/" in text:
        if not path.is_file():
            raise LoomError("no such file", Location(text))
        return path
    candidate = KERNELS_DIR / f"{text}.c"
    if not candidate.is_file():
        raise LoomError(f"no kernel named '{text}' (looked for {candidate})", Location(text))
    return candidate


def kernel_name(kernel: Path) -> str:
    """The artifact base name: the file name without .c (or .scf.mlir, .dfg.mlir)."""
    name = kernel.name
    for suffix in (".scf.mlir", ".dfg.mlir", ".cf.mlir", ".llvm.mlir", ".c"):
        if name.endswith(suffix):
            return name[: -len(suffix)]
    return kernel.stem


def c_flags(include_dirs: list[str] | None, defines: list[str] | None) -> list[str]:
    return [f"-I{d}" for d in include_dirs or []] + [f"-D{d}" for d in defines or []]


def compile_kernel(kernel: Path, top: str | None, include_dirs: list[str] | None,
                   defines: list[str] | None, out_dir: Path,
                   progress: Progress | None = None, constant_tables: bool = True) -> Artifacts:
    """Run the whole front end on one C file; every artifact lands in out_dir
    (`constant_tables`: KernelSource's)."""
    kernel = Path(kernel)
    if kernel.suffix != ".c":
        raise LoomError("the front end takes a .c file", Location(str(kernel)))
    name = kernel_name(kernel)
    top = top or name
    tc = find_toolchain()
    cflags = c_flags(include_dirs, defines)
    out_dir.mkdir(parents=True, exist_ok=True)
    paths = {ext: out_dir / f"{name}.{ext}" for ext in
             ("ll", "llvm.mlir", "cf.mlir", "scf.mlir", "bundle.json")}
    report = progress or (lambda stage, path, seconds: None)

    t = time.perf_counter()
    run_tool([tc.clang, *CLANG_FLAGS, *cflags, str(kernel), "-o", str(paths["ll"])],
             what="clang")
    report("clang", paths["ll"], time.perf_counter() - t)

    t = time.perf_counter()
    sig = read_signature(tc, kernel, top, cflags)
    llvm_text = _llvm_dialect(tc, paths["ll"])
    paths["llvm.mlir"].write_text(llvm_text)
    report("import", paths["llvm.mlir"], time.perf_counter() - t)

    t = time.perf_counter()
    module = raise_to_cf(parse_llvm_dialect(llvm_text, paths["llvm.mlir"]), sig, constant_tables)
    paths["cf.mlir"].write_text(print_generic(module))
    report("raise", paths["cf.mlir"], time.perf_counter() - t)

    t = time.perf_counter()
    paths["scf.mlir"].write_text(_lift_to_scf(tc, paths["cf.mlir"]))
    report("scf", paths["scf.mlir"], time.perf_counter() - t)

    t = time.perf_counter()
    bundle = native.capture(tc, kernel, sig, cflags, name)
    bundle.save(paths["bundle.json"])
    report("native", paths["bundle.json"], time.perf_counter() - t)

    return Artifacts(name, top, out_dir, paths["ll"], paths["llvm.mlir"], paths["cf.mlir"],
                     paths["scf.mlir"], paths["bundle.json"], bundle, sig, tc.version)


def _llvm_dialect(tc: Toolchain, ll: Path) -> str:
    imported = run_tool([tc.mlir_translate, "--import-llvm", *PRINT_FLAGS, str(ll)],
                        what="mlir-translate (import LLVM IR)")
    # clang marks every function noinline at -O0; our inlining needs that mark gone.
    imported = re.sub(r"\bno_inline,\s*", "", imported)
    return run_tool([tc.mlir_opt, *LLVM_PASSES, "--mlir-print-op-generic", *PRINT_FLAGS, "-"],
                    what="mlir-opt (LLVM dialect)", stdin=imported)


def _lift_to_scf(tc: Toolchain, cf_mlir: Path) -> str:
    lifted = run_tool([tc.mlir_opt, *SCF_PASSES_HEAD, "--mlir-print-op-generic", *PRINT_FLAGS,
                       "--mlir-print-local-scope", str(cf_mlir)], what="mlir-opt (lift to SCF)")
    if "scf.index_switch" in lifted:
        module = parse_module(lifted, cf_mlir.with_suffix(".lifted.mlir"))
        switches_to_ifs(module)
        lifted = print_generic(module)
    # LLVM 19's lift keeps loop bodies in the while's "before" region, so the
    # uplift finds nothing there and loops stay scf.while; 22's become scf.for.
    passes = SCF_PASSES_UPLIFT + SCF_PASSES_TAIL
    scf_text = run_tool([tc.mlir_opt, "--canonicalize", *passes, *PRINT_FLAGS,
                         "--mlir-print-local-scope", "-"], what="mlir-opt (SCF)", stdin=lifted)
    module = parse_module(scf_text, cf_mlir.with_suffix(".scf.mlir"))
    if not fold_constant_loops(module):
        return scf_text
    # canonicalize again: the constants that only fed a folded loop go
    return run_tool([tc.mlir_opt, "--canonicalize", *PRINT_FLAGS, "--mlir-print-local-scope",
                     "-"], what="mlir-opt (SCF, loops folded)", stdin=print_generic(module))
