"""The xDSL interpreter with the reference semantics (reference_ops.py): what
`loom run --stage scf|cf` runs, and what the front end evaluates constant
loops with (constant_loops.py)."""

from __future__ import annotations

from xdsl.dialects.builtin import ModuleOp
from xdsl.interpreter import Interpreter, PythonValues, ReturnedValues, Successor
from xdsl.interpreters.func import FuncFunctions
from xdsl.ir import Region

from loom.frontend.reference_ops import (ArithSemantics, Budget, ControlSemantics,
                                         FloatSemantics, MemrefSemantics)

DEFAULT_STEPS = 50_000_000


class _Interpreter(Interpreter):
    """xDSL's interpreter with one scope per region run.

    The stock runner pushes a scope for every block it enters and pops none
    until the region returns, so a CF loop makes every lookup slower than the
    last. SSA names are unique, so one scope per region is enough.
    """

    def run_ssacfg_region(self, region: Region, args: PythonValues,
                          name: str = "unknown") -> PythonValues:
        block = region.blocks.first
        if block is None:
            return ()
        outer = self._ctx
        self.push_scope(name)
        scope = self._ctx
        results: PythonValues = ()
        try:
            while block is not None:
                for arg, value in zip(block.args, args):
                    scope[arg] = value
                op = block.first_op
                block = None
                while op is not None:
                    result = self._run_op(op, self.get_values(op.operands))
                    for res, value in zip(op.results, result.values):
                        scope[res] = value
                    term = result.terminator_value
                    if term is not None:
                        if isinstance(term, ReturnedValues):
                            results = term.values
                        elif isinstance(term, Successor):
                            block, args = term.block, term.args
                        break
                    op = op.next_op
        finally:
            self._ctx = outer
        return results


def reference_interpreter(module: ModuleOp, max_steps: int = DEFAULT_STEPS,
                          listeners: tuple[Interpreter.Listener, ...] = ()) -> Interpreter:
    """An interpreter of `module` with the reference's semantics and step budget."""
    interp = _Interpreter(module, listeners=listeners)
    for impls in (FuncFunctions(), ArithSemantics(), FloatSemantics(), MemrefSemantics(),
                  ControlSemantics()):
        interp.register_implementations(impls, override=True)
    interp.set_data(ArithSemantics, "budget", Budget(max_steps))
    return interp
