"""SCF to DFG lowering (seeds 002, 000, 003).

pipeline.lower_module is the entry point: control (for_loop, while_loop,
if_else, region, state, zero_trip_guard), memory (root_memref,
memory_interface, dependence and ordering for the chains of each array's
accesses, memory_control, with records passing what the control lowering
leaves behind), then legalization (legalize) and the invariant
checker (invariant_check). flat_memrefs gives every access one index for
a fabric; dfg_input normalizes a .dfg.mlir given as input; builder and
source create ops and keep C lines; mutations holds deliberately broken
lowerings for the checker's tests.
"""

from loom.lowering.pipeline import lower_file as lower

__all__ = ["lower"]
