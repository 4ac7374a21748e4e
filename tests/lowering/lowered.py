"""Lower SCF text and run the golden model on it (shared by the lowering tests)."""

from __future__ import annotations

from collections import Counter

from loom.bundle import Bundle
from loom.golden.run import GoldenRun, find_func, run_dfg
from loom.ir import parse_module, print_module
from loom.lowering.pipeline import lower_module


class Lowered:
    def __init__(self, text: str, max_join_fanin: int = 64, ordering: str = "analysis"):
        scf_module = parse_module(text, "test.scf.mlir")
        self.module, self.lowered = lower_module(scf_module, None, max_join_fanin,
                                                 "test.scf.mlir", ordering=ordering)
        self.text = print_module(self.module)
        # what the tool writes must parse back to the same text
        assert print_module(parse_module(self.text, "test.dfg.mlir")) == self.text

    @property
    def func(self):
        return self.lowered.func

    @property
    def record(self):
        return self.lowered.record

    def ops(self, name: str) -> list:
        return [op for op in self.func.body.block.ops if op.name == name]

    def count(self) -> Counter[str]:
        return Counter(op.name for op in self.func.body.block.ops)

    def run(self, bundle: Bundle) -> GoldenRun:
        module = parse_module(self.text, "test.dfg.mlir")
        return run_dfg(find_func(module, None, "test.dfg.mlir"), bundle, "test.dfg.mlir")
