"""SCF to DFG lowering (seeds 002, 000, 003).

pipeline.lower_module is the entry point: control (for_loop, while_loop,
if_else, region), memory (memory_access, memory_control), then legalization
(legalize) and the invariant checker (invariant_check).
"""

from loom.lowering.pipeline import lower_file as lower

__all__ = ["lower"]
