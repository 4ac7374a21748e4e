"""Scoping and graph rules of a fabric ADG (LOOM's op placement checks and
its ADGVerifier): where definitions and inline instances may sit, unique
definition names per host scope, instance targets, port counts, tag kinds
and dangling ports.

Each rule runs in the verifier of the op it is about, so the error points
at that op.
"""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from contextvars import ContextVar

from xdsl.dialects.builtin import FunctionType, StringAttr
from xdsl.ir import Block, Operation, SSAValue
from xdsl.utils.exceptions import VerifyException

from loom.dialects.fabric_syntax import function_type, is_inline
from loom.dialects.fabric_types import hardware_compatible

MODULE = "fabric.module"
TOP = "builtin.module"
PES = ("fabric.spatial_pe", "fabric.temporal_pe")
COMPONENTS = (
    *PES, "fabric.spatial_sw", "fabric.temporal_sw",
    "fabric.extmemory", "fabric.memory", "fabric.fifo",
)
FU = "fabric.function_unit"
TAG_OPS = ("fabric.add_tag", "fabric.del_tag", "fabric.map_tag")


def parent_name(op: Operation) -> str | None:
    parent = op.parent_op()
    return parent.name if parent is not None else None


def check_module_level(op: Operation) -> None:
    """A component sits in the top-level module or fabric.module; inline only in the latter."""
    where = parent_name(op)
    if where not in (TOP, MODULE):
        if is_inline(op):
            raise VerifyException("inline instantiation must appear directly inside fabric.module")
        raise VerifyException("must appear directly inside the top-level module or fabric.module")
    if is_inline(op) and where != MODULE:
        raise VerifyException("inline instantiation must appear directly inside fabric.module")


def definition_name(op: Operation) -> str | None:
    """The name an op defines in its host scope (FUs and non-inline components)."""
    if op.name != FU and (op.name not in COMPONENTS or is_inline(op)):
        return None
    name = op.attributes.get("sym_name")
    return name.data if isinstance(name, StringAttr) else None


def check_unique_definition(op: Operation) -> None:
    """No earlier definition of the same name in the same block (LOOM: per host scope)."""
    name = definition_name(op)
    block = op.parent_block()
    if name is None or block is None:
        return
    for other in block.ops:
        if other is op:
            return
        if definition_name(other) == name:
            raise VerifyException(
                f"duplicate definition name '{name}' in the same host scope between "
                f"{other.name} and {op.name}"
            )


def _scopes(block: Block | None) -> Iterator[Block]:
    """`block`, then each enclosing block out to the top."""
    while block is not None:
        yield block
        owner = block.parent_op()
        block = owner.parent_block() if owner is not None else None


_INDEX: ContextVar[dict[int, dict[str, Operation]] | None] = ContextVar(
    "fabric_definition_index", default=None)
"""Per block (by id), its definitions by name, while `indexed_definitions`
is in force; None outside it."""


@contextmanager
def indexed_definitions() -> Iterator[None]:
    """Inside, resolve_definition reads each block's definitions once: a
    verifier resolves every instance of a fabric.module, and a 16x16's holds
    thousands of ops (a scan per instance took seconds). For a pass that
    does not change the IR it resolves in (verification)."""
    token = _INDEX.set({})
    try:
        yield
    finally:
        _INDEX.reset(token)


def _block_definitions(block: Block) -> dict[str, Operation]:
    found: dict[str, Operation] = {}
    for op in block.ops:
        if (name := definition_name(op)) is not None:
            found.setdefault(name, op)   # the first in the block wins
    return found


def resolve_definition(anchor: Operation, name: str) -> Operation | None:
    """The definition `name` visible from `anchor`: its block, then enclosing blocks."""
    index = _INDEX.get()
    for block in _scopes(anchor.parent_block()):
        if index is not None:
            if (defs := index.get(id(block))) is None:
                defs = index[id(block)] = _block_definitions(block)
            if name in defs:
                return defs[name]
            continue
        for op in block.ops:
            # the name first: definition_name's inline test costs more, and
            # a 16x16's fabric.module holds thousands of ops per lookup
            sym = op.attributes.get("sym_name")
            if isinstance(sym, StringAttr) and sym.data == name and definition_name(op) == name:
                return op
    return None


def visible_definitions(block: Block | None) -> dict[str, Operation]:
    """Every definition visible from `block`, by name, as resolve_definition
    finds them (the nearest block wins, then the first in it): one scan for
    a reader that resolves every instance of a fabric.module."""
    found: dict[str, Operation] = {}
    for scope in _scopes(block):
        for name, op in _block_definitions(scope).items():
            found.setdefault(name, op)
    return found


def is_graph_node(op: Operation) -> bool:
    return op.name in ("fabric.instance", *TAG_OPS) or (op.name in COMPONENTS and is_inline(op))


def check_ports(op: Operation, declared: FunctionType, what: str) -> None:
    """Port counts and tag kinds of a graph node against its declared type."""
    ins, outs = declared.inputs.data, declared.outputs.data
    if len(ins) != len(op.operands):
        raise VerifyException(
            f"dangling input ports on {what} — expected {len(ins)} connected input(s), "
            f"got {len(op.operands)}"
        )
    if len(outs) != len(op.results):
        raise VerifyException(
            f"output port count mismatch on {what} — expected {len(outs)} output(s), "
            f"got {len(op.results)}"
        )
    for i, (value, t) in enumerate(zip(op.operands, ins)):
        if not hardware_compatible(value.type, t):
            raise VerifyException(
                f"tag-kind mismatch on {what} input I{i} — producer type {value.type} "
                f"is incompatible with {t}"
            )
    for i, (t, result) in enumerate(zip(outs, op.results)):
        if not hardware_compatible(t, result.type):
            raise VerifyException(
                f"tag-kind mismatch on {what} output O{i} — declared type {t} "
                f"is incompatible with {result.type}"
            )


def is_consumed(value: SSAValue) -> bool:
    """Whether a graph node or a fabric.yield reads `value` (LOOM's `consumed`)."""
    return any(is_graph_node(use.operation) or use.operation.name == "fabric.yield"
               for use in value.uses)


def check_outputs_used(op: Operation, what: str) -> None:
    """Every output of a graph node in fabric.module feeds something."""
    if parent_name(op) != MODULE:
        return
    for i, result in enumerate(op.results):
        if not is_consumed(result):
            raise VerifyException(
                f"dangling output port O{i} of {what} — result is not connected"
            )


def describe(op: Operation) -> str:
    name = op.attributes.get("sym_name")
    if op.name == "fabric.instance":
        return f"instance '{name.data}'" if isinstance(name, StringAttr) else "fabric.instance"
    return f"{op.name} '{name.data}'" if isinstance(name, StringAttr) else op.name


def check_graph(op: Operation) -> None:
    """The ADG checks of a component: unique name, or ports of an inline node."""
    check_unique_definition(op)
    if is_inline(op):
        check_ports(op, function_type(op), describe(op))
        check_outputs_used(op, describe(op))
