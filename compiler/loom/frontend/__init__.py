"""The front end: C to SCF (seed 003's stages .ll, .llvm.mlir, .cf.mlir,
.scf.mlir), and the native run that records the kernel's inputs and
expected outputs.

Modules: driver (the pipeline) and toolchain (clang, mlir-translate,
mlir-opt); llvm_input and mlir_ir (MLIR text through xDSL); raiser (LLVM
dialect to cf + arith + memref, ours); scf_cleanup; signature (the top's C
signature); native (the native run and its bundle); reference and
reference_ops (the SCF/CF reference run); command (`loom compile`).
docs/design.md section 1.
"""
