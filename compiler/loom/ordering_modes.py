"""The lowering's memory-ordering modes (`--ordering`), apart from the lowering
so the command line can name them without loading it (lowering/ordering.py)."""

ORDERINGS = ("analysis", "seed", "lsq")
"""analysis: only the orderings dependence analysis cannot rule out (the
default of the direct flow); seed: seed 000's full program order of each root
memref's accesses (the default for a fabric, mapper/kernel_compile.py); lsq:
analysis, and a load-store queue for an array argument whose chain keeps an
innermost loop in order (lowering/load_store_queue.py)."""
DIRECT_ORDERING = "analysis"
"""The ordering of a kernel compiled for its own RTL unless told otherwise."""
FABRIC_ORDERING = "seed"
"""The ordering of a kernel compiled for an ADG unless told otherwise: the
fabric regression's maps and runs are of that lowering (mapper/kernel_compile.py)."""
