"""The raiser: LLVM dialect (generic form, via xDSL) to func + cf + arith + memref."""

from loom.frontend.raiser.translate import raise_to_cf

__all__ = ["raise_to_cf"]
