"""RegionState: the value environment and control stream of one SCF region.

Seed 002: every SCF region becomes an explicit dataflow block with a value
environment and an execution-control stream; no region inherits control
implicitly. A value from an enclosing region enters through the region's
`importer`, which is what makes the stream lengths right:

  for body            invariant(after_cond, v)          (N tokens)
  while before-region invariant(raw_will_continue, v)   (N + 1 tokens)
  while after-region  cond_br(raw_will_continue, v).true of the before copy (N)
  if then / else      cond_br(cond, v).true / .false    (branch-gating)

The region's control is the parent's control imported the same way, built
only when something uses it. Constants are rebuilt on the using region's
control instead of being imported (so is `ub.poison`, as 0). Memrefs are not tokens: they map to
themselves and are resolved by the memory lowering.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field

from xdsl.dialects import arith
from xdsl.dialects.builtin import AnyFloat, FloatAttr, IntegerAttr, MemRefType
from xdsl.ir import Operation, SSAValue

from loom import floats
from loom.diagnostics import LoomError
from loom.lowering.builder import DfgBuilder
from loom.lowering.source import where


def check_float_types(op: Operation) -> None:
    """Refuse a float type other than f32 and f64 (loom.floats' formats) at its op,
    rather than later in the golden model."""
    for v in (*op.operands, *op.results):
        if isinstance(v.type, AnyFloat) and v.type.bitwidth not in floats.FORMATS:
            raise LoomError(f"{op.name}: {v.type} is not supported (f32 and f64 only)",
                            where(op))


@dataclass(eq=False)
class RegionState:
    b: DfgBuilder
    kind: str                                   # func | for | while_before | while_after | then | else
    parent: RegionState | None
    importer: Callable[[SSAValue], SSAValue] | None = None
    values: dict[SSAValue, SSAValue] = field(default_factory=dict)
    _control: SSAValue | None = None

    @property
    def control(self) -> SSAValue:
        if self._control is None:
            assert self.parent is not None and self.importer is not None
            self._control = self.importer(self.parent.control)
        return self._control

    def set_control(self, value: SSAValue) -> None:
        self._control = value

    def child(self, kind: str, importer: Callable[[SSAValue], SSAValue]) -> RegionState:
        return RegionState(self.b, kind, self, importer)

    def map(self, scf_value: SSAValue, dfg_value: SSAValue) -> None:
        self.values[scf_value] = dfg_value

    def lookup(self, v: SSAValue) -> SSAValue:
        """The DFG value standing for SCF value `v` inside this region."""
        if v in self.values:
            return self.values[v]
        if isinstance(v.type, MemRefType):
            return v
        owner = v.owner
        if isinstance(owner, arith.ConstantOp):
            value = owner.value
            if not isinstance(value, IntegerAttr | FloatAttr):
                raise LoomError("only integer and float constants are supported", where(owner))
            check_float_types(owner)
            mapped = self.b.constant(self.control, value.value.data, value.type)
        elif isinstance(owner, Operation) and owner.name == "ub.poison":  # an undefined value that is never observed: any value will do
            mapped = self.b.constant(self.control, 0, v.type)
        elif self.parent is None:
            raise LoomError("internal: value used before it is defined", where(owner))
        else:
            assert self.importer is not None
            mapped = self.importer(self.parent.lookup(v))
        self.values[v] = mapped
        return mapped
