"""Mutants of a mapped kernel's fabric configuration (issue 36, area
`config`): one fault each in the config words the mapper wrote, judged by
the fabric run's checks (every DFG edge against the golden model, results
and memories against the native run) under a stall seed.

The operators are the faults a config encoder or a mapper makes:

- `route`: a switch's route bit moved to the neighbouring input of the same
  output (the next one the connectivity allows, else the one before);
- `drop`: a switch's route bit cleared;
- `opcode`: a PE's opcode swapped for the next function unit's of another
  shape (operands, results, configured fields; its payload cleared);
- `bit`: any other field one bit off (its bit 0 flipped): a PE's enable, a
  used port's sel, discard or disconnect, a unit's configured value
  (constant, predicate, op select, cont_cond), a memory region's fields, a
  tag, a fifo's bypass.

Shown equivalent here, with the reason (listed, not run): a join operand
outside the join's configured mask; a unit's constant's value where the
unit's configured fabric.mux picks another input, and a unit's unread
input connected to a PE input no route ends at (FULayout.unread: a
constant-operand unit reads its constant or its input 1, not both); a
memory region's element size, or
its offset's bit 0 under an element of two bytes or more, under the
mapper's zero address offset (docs/fabric/extmemory.md's element address
does not depend on them then).

Only what the mapping uses is mutated (an enabled PE, a switch with a
route, a memory's valid regions, any other slice with a nonzero field): a
fault in an unused node changes nothing anyone can check. Of a PE's port
muxes only those of the selected unit's operands and results are mutated
(the others feed nothing), of a port the mapping disconnects only the
disconnect itself, and of a result it discards neither the sel nor the
disconnect (discard wins over both).
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping
from dataclasses import dataclass, replace

from loom.fabric.config_layout import FabricLayout, FULayout, Slice, fu_field

CONFIG_OPERATORS = ("route", "drop", "opcode", "bit")

Values = dict[str, dict[str, int]]


@dataclass(frozen=True)
class ConfigMutant:
    """One fault in one slice: the fields it sets (`changes`) and those it drops."""

    target: str
    """`<kernel>@<adg>`: the mapped kernel whose config it mutates."""
    slice: str
    field: str
    operator: str
    original: int
    replacement: int
    changes: tuple[tuple[str, int], ...]
    dropped: tuple[str, ...] = ()
    equivalent: str = ""
    """Why the fault changes nothing a run can see ("" when it may): such a
    mutant is listed, not run."""

    @property
    def id(self) -> str:
        return f"{self.target}:{self.slice}.{self.field}:{self.operator}"

    def apply(self, values: Mapping[str, Mapping[str, int]]) -> Values:
        """A copy of the decoded config with the fault in."""
        out = {name: dict(fields) for name, fields in values.items()}
        mine = out[self.slice]
        for name in self.dropped:
            mine.pop(name, None)
        mine.update(self.changes)
        return out


def config_mutants(target: str, layout: FabricLayout, values: Values,
                   operators: tuple[str, ...] = CONFIG_OPERATORS) -> list[ConfigMutant]:
    """Every mutant of the used slices of `values` (decoded by `layout`), by
    `operators`, in slice and field order (the same ids on every run)."""
    out: list[ConfigMutant] = []
    for s in layout.slices:
        v = values[s.name]
        make = {"spatial_pe": _pe, "spatial_sw": _switch}.get(s.kind, _other)
        out += [m for m in make(target, s, v) if m.operator in operators]
    return out


def _mutant(target: str, s: Slice, name: str, operator: str, old: int, new: int,
            changes: tuple[tuple[str, int], ...] | None = None,
            dropped: tuple[str, ...] = ()) -> ConfigMutant:
    return ConfigMutant(target, s.name, name, operator, old, new,
                        changes if changes is not None else ((name, new),), dropped)


def _flip(target: str, s: Slice, v: Mapping[str, int], name: str) -> ConfigMutant:
    return _mutant(target, s, name, "bit", v[name], v[name] ^ 1)


def _pe(target: str, s: Slice, v: Mapping[str, int]) -> Iterator[ConfigMutant]:
    if not v.get("enable"):
        return
    yield _flip(target, s, v, "enable")
    op, units = v["opcode"], len(s.fu_layouts)
    other = _other_unit(s, op)
    if other is not None:
        payload = tuple(k for k in v if k.startswith("fu."))
        yield _mutant(target, s, "opcode", "opcode", op, other, dropped=payload)
    unit = s.fu_layouts[op] if op < units else None
    unread = unit.unread(v) if unit else frozenset()
    for name in v:
        port, _, part = name.rpartition(".")
        if name.startswith(("in", "out")) and not _read(port, unit):
            continue
        if name.startswith(("in", "out")) and part != "disconnect" \
                and v.get(f"{port}.disconnect"):
            continue   # a port the mapping disconnects: only connecting it is a fault
        if name.startswith("out") and part in ("sel", "disconnect") and v.get(f"{port}.discard"):
            continue   # a result the PE discards drains whatever its sel and disconnect say
                       # (discard wins: fabric_spatial_pe's demux, spatial_pe.md)
        if name not in ("enable", "opcode"):
            yield replace(_flip(target, s, v, name), equivalent=(
                _outside_join_mask(unit, v, port) or _never_read(name, unread, v)))


def _shape(unit: FULayout) -> tuple[int, int, tuple[str, ...]]:
    return unit.num_inputs, unit.num_outputs, tuple(f.kind for f in unit.fu_fields)


def _other_unit(s: Slice, op: int) -> int | None:
    """The next opcode after `op` (cyclically) whose unit differs in shape
    (operands, results, configured fields): the same op on another type
    (fu_const and fu_const_index) would compute the same tokens from small
    values, a swap no check could tell."""
    units = s.fu_layouts
    if op >= len(units):
        return None
    return next((k % len(units) for k in range(op + 1, op + len(units))
                 if _shape(units[k % len(units)]) != _shape(units[op])), None)


def _outside_join_mask(unit: FULayout | None, v: Mapping[str, int], port: str) -> str:
    """The reason a fault on a join's operand port `port` is equivalent when
    the join's configured mask leaves that operand out, else ""."""
    masks = [f for f in unit.fu_fields if f.kind == "join_mask"] if unit else []
    if not masks or not port.startswith("in"):
        return ""
    mask = v.get(fu_field(masks[0].op_index, "value"), 0)
    if mask >> int(port[2:]) & 1:
        return ""
    return f"join operand {port[2:]} is outside the configured mask {mask:#x}: never waited on"


def _never_read(name: str, unread: frozenset[str], v: Mapping[str, int]) -> str:
    """The reason a fault on field `name` is equivalent because what it
    configures carries no token the configured unit reads (FULayout.unread:
    a constant-operand unit reads its constant or its input 1, not both),
    else "": the value of a constant whose mux picks the input; an unread
    input k connected, when its sel names a PE input that no connected
    operand selects (no route ends there, so no token comes). Connected to a
    routed PE input, the unit would drain another operand's tokens there:
    not equivalent."""
    head, _, part = name.rpartition(".")
    if head.startswith("fu.") and part == "value" and f"op{head[3:]}" in unread:
        return (f"body op {head[3:]}'s result feeds only a fabric.mux input the configured "
                "sel does not pick: its value is never read")
    if not (head.startswith("in") and part == "disconnect" and f"arg{head[2:]}" in unread):
        return ""
    sel = v.get(f"{head}.sel", 0)
    routed = {v.get(f"{p}.sel", 0) for p in {n.rpartition(".")[0] for n in v}
              if p.startswith("in") and p != head and not v.get(f"{p}.disconnect")}
    if sel in routed:
        return ""
    return (f"operand {head[2:]}, unread by the configured unit, would take PE input {sel}, "
            "which no connected operand selects: no route ends there, no token comes")


def _read(port: str, unit: FULayout | None) -> bool:
    """Whether the selected unit has operand or result `port` (`in<k>`,
    `out<k>`): the PE's muxes past its count feed or take nothing."""
    if unit is None:
        return False
    side, k = ("in", port[2:]) if port.startswith("in") else ("out", port[3:])
    return int(k) < (unit.num_inputs if side == "in" else unit.num_outputs)


def _switch(target: str, s: Slice, v: Mapping[str, int]) -> Iterator[ConfigMutant]:
    routes = {name: tuple(int(x[1:]) for x in name.split(".")[1:])
              for name in v if name.startswith("route.")}
    for name, (o, i) in routes.items():
        if not v[name]:
            continue
        yield _mutant(target, s, name, "drop", 1, 0)
        inputs = sorted(k for (oo, k) in routes.values() if oo == o and k != i)
        after = [k for k in inputs if k > i]
        other = after[0] if after else (inputs[-1] if inputs else None)
        moved = f"route.o{o}.i{other}"
        if other is not None and not v[moved]:
            yield _mutant(target, s, name, "route", i, other, ((name, 0), (moved, 1)))


def _other(target: str, s: Slice, v: Mapping[str, int]) -> Iterator[ConfigMutant]:
    if not any(v.values()):
        return
    for name in v:
        region, _, part = name.rpartition(".")
        if region.startswith("region") and part != "valid" and not v.get(f"{region}.valid"):
            continue   # a region the mapping leaves invalid
        yield replace(_flip(target, s, v, name), equivalent=_address_kept(v, region, part))


def _address_kept(v: Mapping[str, int], region: str, part: str) -> str:
    """The reason a region field's bit 0 flipped leaves every element address
    (addr_offset + (addr << e)) >> e as it is (docs/fabric/extmemory.md),
    under the mapper's zero offset, else "": the element size's, and the
    offset's bit 0 below an element of two bytes or more."""
    e, offset = v.get(f"{region}.elem_size_log2", 0), v.get(f"{region}.addr_offset", 0)
    if offset:
        return ""
    if part == "elem_size_log2":
        return ("with addr_offset 0 the element address (addr_offset + (addr << e)) >> e is "
                f"addr for e = {e} and {e ^ 1} (addresses below 2^{32 - max(e, e ^ 1)})")
    if part == "addr_offset" and e >= 1:
        return (f"an offset of 1 below an element of 2^{e} bytes: (1 + (addr << {e})) >> {e} "
                "is addr")
    return ""


__all__ = ["CONFIG_OPERATORS", "ConfigMutant", "config_mutants"]
