"""Configuration layout of a fabric: every slice and every field, in LOOM's
order and per-component layouts (LOOM's ConfigGen, see loom-fabric-notes.md
section 4), with encode and decode.

Words are 32 bits. Each slice is word-aligned; its fields pack LSB-first and
may straddle words. Slice order: the fabric.module body in order, one slice
per spatial_sw, temporal_sw, add_tag, map_tag, bypassable fifo, memory and
extmemory that has configuration bits; then one slice per PE, in body order.
A mux-like field is `sel | discard | disconnect`, low to high.

This module is the single source of slice offsets and field positions: the
config words the mapper writes and the RTL's slice table both come from
`fabric_layout`, so they cannot drift.
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping, Sequence
from dataclasses import dataclass, replace

from xdsl.dialects.builtin import ModuleOp, StringAttr
from xdsl.ir import Operation

from loom.dialects import fabric_syntax as fs
from loom.dialects.fabric_graph import resolve_definition
from loom.dialects.fabric_memory import REGION_FIELDS
from loom.dialects.fabric_types import TaggedType, scalar_width

WORD_BITS = 32

CMPI_PREDICATES = ("eq", "ne", "slt", "sle", "sgt", "sge", "ult", "ule", "ugt", "uge")
"""arith.cmpi predicates by their MLIR ordinal (the 4-bit field's value)."""
CMPF_PREDICATES = ("false", "oeq", "ogt", "oge", "olt", "ole", "one", "ord",
                   "ueq", "ugt", "uge", "ult", "ule", "une", "uno", "true")
"""arith.cmpf predicates by their MLIR ordinal."""
CONT_COND_BITS = {"<": 1, "<=": 2, ">": 4, ">=": 8, "!=": 16}
"""dataflow.stream's cont_cond as LOOM's 5-bit one-hot field."""
REGION_FIELD_NAMES = ("valid", "start_lane", "end_lane", "addr_offset", "elem_size_log2")


def choice_bits(count: int) -> int:
    """Bits to select one of `count` choices (LOOM's bitWidthForChoices)."""
    return (count - 1).bit_length() if count > 1 else 0


@dataclass(frozen=True)
class Field:
    """`width` bits named `name` inside a slice (positions follow field order)."""

    name: str
    width: int


def _mux(prefix: str, sel_bits: int) -> list[Field]:
    return [Field(f"{prefix}.sel", sel_bits), Field(f"{prefix}.discard", 1),
            Field(f"{prefix}.disconnect", 1)]


def pack(fields: Sequence[Field], values: Mapping[str, int], words: list[int],
         start: int = 0) -> int:
    """Write `values` (0 when absent) LSB-first from bit `start`; returns the end bit."""
    pos = start
    for f in fields:
        value = values.get(f.name, 0)
        if not 0 <= value < (1 << f.width) and not (f.width == 0 and value == 0):
            raise ValueError(f"config field {f.name} = {value} does not fit in {f.width} bits")
        for bit in range(f.width):
            word, offset = divmod(pos + bit, WORD_BITS)
            while len(words) <= word:
                words.append(0)
            words[word] |= ((value >> bit) & 1) << offset
        pos += f.width
    return pos


def unpack(fields: Sequence[Field], words: Sequence[int], start: int = 0) -> dict[str, int]:
    """Read every field from bit `start` (bits past the words read as 0)."""
    values: dict[str, int] = {}
    pos = start
    for f in fields:
        value = 0
        for bit in range(f.width):
            word, offset = divmod(pos + bit, WORD_BITS)
            if word < len(words):
                value |= ((words[word] >> offset) & 1) << bit
        values[f.name] = value
        pos += f.width
    return values


# --- function-unit payloads -----------------------------------------------------------


@dataclass(frozen=True)
class FUField:
    """One configurable op of a function unit body (LOOM's fu_config field)."""

    op_index: int
    """Index of the op among the body's non-terminator ops."""
    kind: str
    """mux | constant_value | cmpi_predicate | cmpf_predicate | stream_cont_cond | join_mask"""
    width: int

    def fields(self, prefix: str) -> list[Field]:
        if self.kind == "mux":
            return _mux(f"{prefix}{self.op_index}", self.width - 2)
        return [Field(f"{prefix}{self.op_index}.value", self.width)]


@dataclass(frozen=True)
class FULayout:
    """A function unit's configuration payload, fields in body order."""

    name: str
    num_inputs: int
    num_outputs: int
    fu_fields: tuple[FUField, ...]

    def fields(self, prefix: str = "fu") -> list[Field]:
        return [f for ff in self.fu_fields for f in ff.fields(f"{prefix}.")]

    @property
    def bits(self) -> int:
        return sum(f.width for f in self.fields())


def fu_layout(fu: Operation) -> FULayout:
    """The payload of a fabric.function_unit (LOOM's extractFUConfigFieldWidths)."""
    block = fu.regions[0].block
    ftype = fs.function_type(fu)
    fu_fields: list[FUField] = []
    body = [op for op in block.ops if op.name != "fabric.yield"]
    for index, op in enumerate(body):
        width, kind = _fu_field(op)
        if width > 0:
            fu_fields.append(FUField(index, kind, width))
    name = fu.attributes["sym_name"]
    assert isinstance(name, StringAttr)
    return FULayout(name.data, len(ftype.inputs.data), len(ftype.outputs.data),
                    tuple(fu_fields))


def _fu_field(op: Operation) -> tuple[int, str]:
    match op.name:
        case "fabric.mux":
            n = max(len(op.operands), len(op.results))
            return (0, "") if len(op.operands) == len(op.results) == 1 else (
                choice_bits(n) + 2, "mux")
        case "handshake.constant":
            return scalar_width(op.results[0].type) or 0, "constant_value"
        case "arith.cmpi":
            return 4, "cmpi_predicate"
        case "arith.cmpf":
            return 4, "cmpf_predicate"
        case "dataflow.stream":
            return 5, "stream_cont_cond"
        case "handshake.join":
            return len(op.operands), "join_mask"
        case _:
            return 0, ""


# --- slices --------------------------------------------------------------------------


@dataclass(frozen=True)
class Slice:
    """The configuration of one fabric node: a run of whole words."""

    name: str
    kind: str
    fields: tuple[Field, ...]
    fu_layouts: tuple[FULayout, ...] = ()
    """spatial_pe only: the payload layout of each opcode."""
    fu_bits: int = 0
    """spatial_pe only: the payload area (the largest FU payload)."""
    word_offset: int = 0

    @property
    def bits(self) -> int:
        return sum(f.width for f in self.fields) + self.fu_bits

    @property
    def word_count(self) -> int:
        return -(-self.bits // WORD_BITS)

    def encode(self, values: Mapping[str, int]) -> list[int]:
        """The slice's words; absent fields are 0, FU fields follow `opcode`."""
        words: list[int] = []
        end = pack(self.fields, values, words)
        if self.fu_layouts:
            fu = self.fu_layouts[values.get("opcode", 0)]
            pack(fu.fields(), values, words, end)
            unknown = {k for k in values if k.startswith("fu.")} - {
                f.name for f in fu.fields()}
            if unknown:
                raise ValueError(f"{self.name}: {fu.name} has no config field "
                                 f"{sorted(unknown)[0]}")
        words.extend([0] * (self.word_count - len(words)))
        return words

    def decode(self, words: Sequence[int]) -> dict[str, int]:
        values = unpack(self.fields, words)
        if self.fu_layouts and values["opcode"] < len(self.fu_layouts):
            values |= unpack(self.fu_layouts[values["opcode"]].fields(), words,
                             sum(f.width for f in self.fields))
        return values

    def unused(self) -> dict[str, int]:
        """LOOM's values for a node the mapping leaves unused (PE: every mux disconnected)."""
        return {f.name: 1 for f in self.fields if f.name.endswith(".disconnect")}


@dataclass(frozen=True)
class FabricLayout:
    """Every slice of a fabric, with word offsets."""

    module: str
    slices: tuple[Slice, ...]

    @property
    def word_count(self) -> int:
        return sum(s.word_count for s in self.slices)

    def slice(self, name: str) -> Slice:
        for s in self.slices:
            if s.name == name:
                return s
        raise KeyError(name)

    def encode(self, values: Mapping[str, Mapping[str, int]]) -> list[int]:
        """All config words; a slice absent from `values` is all zero (reset)."""
        unknown = set(values) - {s.name for s in self.slices}
        if unknown:
            raise ValueError(f"no config slice named {sorted(unknown)[0]}")
        words: list[int] = []
        for s in self.slices:
            words += s.encode(values.get(s.name, {}))
        return words

    def decode(self, words: Sequence[int]) -> dict[str, dict[str, int]]:
        if len(words) != self.word_count:
            raise ValueError(f"expected {self.word_count} config words, got {len(words)}")
        return {s.name: s.decode(words[s.word_offset:s.word_offset + s.word_count])
                for s in self.slices}


# --- building the layout from an ADG -----------------------------------------------------


def fabric_layout(module: ModuleOp) -> FabricLayout:
    """The layout of the (first) fabric.module in `module`."""
    top = next((op for op in module.walk() if op.name == "fabric.module"), None)
    if top is None:
        raise ValueError("no fabric.module in the ADG")
    routing: list[Slice] = []
    pes: list[Slice] = []
    for name, node, definition in _nodes(top):
        made = _slice(name, node, definition)
        if made is None or made.bits == 0:
            continue
        (pes if made.kind in ("spatial_pe", "temporal_pe") else routing).append(made)
    slices, offset = [], 0
    for s in (*routing, *pes):
        slices.append(replace(s, word_offset=offset))
        offset += s.word_count
    return FabricLayout(top.attributes["sym_name"].data, tuple(slices))  # type: ignore[attr-defined]


_AUTO_NAMED = ("fabric.extmemory", "fabric.memory", "fabric.fifo", "fabric.temporal_sw",
               "fabric.add_tag", "fabric.del_tag", "fabric.map_tag")


def _nodes(top: Operation) -> Iterator[tuple[str, Operation, Operation]]:
    """(name, node op, definition op) of each graph node, in body order (LOOM's names)."""
    auto: dict[str, int] = {}
    count = 0
    for op in top.regions[0].block.ops:
        if op.name == "fabric.instance":
            target = resolve_definition(op, op.attributes["module"].data)  # type: ignore[attr-defined]
            if target is None:
                continue
            sym = op.attributes.get("sym_name")
            name = sym.data if isinstance(sym, StringAttr) else f"inst_{count}"
            count += 1
            yield name, op, target
        elif fs.is_inline(op) or op.name in ("fabric.add_tag", "fabric.map_tag",
                                             "fabric.del_tag"):
            sym = op.attributes.get("sym_name")
            kind = op.name.removeprefix("fabric.")
            if isinstance(sym, StringAttr):
                name = sym.data
            elif op.name in _AUTO_NAMED:
                name = f"{kind}_{auto.get(kind, 0)}"
                auto[kind] = auto.get(kind, 0) + 1
            else:
                name = ""
            count += 1
            yield name, op, op


def _slice(name: str, node: Operation, definition: Operation) -> Slice | None:
    kind = definition.name.removeprefix("fabric.")
    builder = _BUILDERS.get(kind)
    return builder(name, node, definition) if builder else None


def _ports(definition: Operation) -> tuple[int, int]:
    ftype = fs.function_type(definition)
    return len(ftype.inputs.data), len(ftype.outputs.data)


def _connected(definition: Operation) -> list[tuple[int, int]]:
    """(output, input) positions a switch may route, outputs outer (LOOM's order)."""
    n_in, n_out = _ports(definition)
    rows = fs.string_rows(definition, "connectivity_table")
    return [(o, i) for o in range(n_out) for i in range(n_in)
            if rows is None or (o < len(rows) and i < len(rows[o]) and rows[o][i] == "1")]


def _spatial_sw(name: str, node: Operation, definition: Operation) -> Slice:
    return Slice(name, "spatial_sw", tuple(
        Field(f"route.o{o}.i{i}", 1) for o, i in _connected(definition)))


def _tag_width(types: Sequence) -> int:
    return next((t.tag_width for t in types if isinstance(t, TaggedType)), 1)


def _temporal_sw(name: str, node: Operation, definition: Operation) -> Slice:
    slots = fs.int_param(definition, "num_route_table", 0) or 0
    tag_w = _tag_width(fs.function_type(definition).inputs.data)
    fields: list[Field] = []
    for s in range(slots):
        fields += [Field(f"slot{s}.valid", 1), Field(f"slot{s}.tag", tag_w)]
        fields += [Field(f"slot{s}.route.o{o}.i{i}", 1) for o, i in _connected(definition)]
    return Slice(name, "temporal_sw", tuple(fields))


def _fifo(name: str, node: Operation, definition: Operation) -> Slice:
    bypassable = "bypassable" in definition.attributes
    return Slice(name, "fifo", (Field("bypassed", 1),) if bypassable else ())


def _add_tag(name: str, node: Operation, definition: Operation) -> Slice:
    # LOOM emits the slice only when the ADG gives the tag.
    if "tag" not in node.attributes:
        return Slice(name, "add_tag", ())
    out = node.results[0].type
    return Slice(name, "add_tag", (Field("tag", out.tag_width if isinstance(out, TaggedType) else 1),))


def _map_tag(name: str, node: Operation, definition: Operation) -> Slice:
    size = fs.int_param(node, "table_size", 0) or 0
    src, dst = node.operands[0].type, node.results[0].type
    in_w = src.tag_width if isinstance(src, TaggedType) else 1
    out_w = dst.tag_width if isinstance(dst, TaggedType) else 1
    fields: list[Field] = []
    for e in range(size):
        fields += [Field(f"entry{e}.valid", 1), Field(f"entry{e}.src_tag", in_w),
                   Field(f"entry{e}.dst_tag", out_w)]
    return Slice(name, "map_tag", tuple(fields))


def _memory(name: str, node: Operation, definition: Operation) -> Slice:
    regions = fs.int_param(definition, "numRegion", 1) or 1
    assert len(REGION_FIELD_NAMES) == REGION_FIELDS
    return Slice(name, definition.name.removeprefix("fabric."), tuple(
        Field(f"region{r}.{n}", WORD_BITS) for r in range(regions) for n in REGION_FIELD_NAMES))


def _pe_fus(definition: Operation) -> list[FULayout]:
    """The PE's function units in body order (definitions and instances: the opcodes)."""
    fus: list[FULayout] = []
    for op in definition.regions[0].block.ops:
        if op.name == "fabric.function_unit":
            fus.append(fu_layout(op))
        elif op.name == "fabric.instance":
            target = resolve_definition(op, op.attributes["module"].data)  # type: ignore[attr-defined]
            if target is not None and target.name == "fabric.function_unit":
                fus.append(fu_layout(target))
    return fus


def _spatial_pe(name: str, node: Operation, definition: Operation) -> Slice:
    fus = _pe_fus(definition)
    n_in, n_out = _ports(definition)
    fields = [Field("enable", 1), Field("opcode", choice_bits(len(fus)))]
    for k in range(max((f.num_inputs for f in fus), default=0)):
        fields += _mux(f"in{k}", choice_bits(n_in))
    for k in range(max((f.num_outputs for f in fus), default=0)):
        fields += _mux(f"out{k}", choice_bits(n_out))
    return Slice(name, "spatial_pe", tuple(fields), tuple(fus),
                 max((f.bits for f in fus), default=0))


def _temporal_pe(name: str, node: Operation, definition: Operation) -> Slice:
    """LOOM's temporal_pe layout (sized exactly; the mapper does not use it)."""
    fus = _pe_fus(definition)
    ftype = fs.function_type(definition)
    n_in, n_out = len(ftype.inputs.data), len(ftype.outputs.data)
    tag_w = _tag_width(ftype.inputs.data)
    regs = fs.int_param(definition, "num_register", 0) or 0
    reg_bits = choice_bits(regs)
    max_in = max((f.num_inputs for f in fus), default=0)
    max_out = max((f.num_outputs for f in fus), default=0)
    fields: list[Field] = []
    for s in range(fs.int_param(definition, "num_instruction", 0) or 0):
        p = f"insn{s}"
        fields += [Field(f"{p}.valid", 1), Field(f"{p}.tag", tag_w),
                   Field(f"{p}.opcode", choice_bits(len(fus)))]
        if regs:
            for k in range(max_in):
                fields += [Field(f"{p}.operand{k}.reg", reg_bits),
                           Field(f"{p}.operand{k}.is_reg", 1)]
        for k in range(max_in):
            fields += _mux(f"{p}.in{k}", choice_bits(n_in))
        for k in range(max_out):
            fields += _mux(f"{p}.out{k}", choice_bits(n_out))
        for k in range(max_out):
            fields.append(Field(f"{p}.result{k}.tag", tag_w))
            if regs:
                fields += [Field(f"{p}.result{k}.reg", reg_bits),
                           Field(f"{p}.result{k}.is_reg", 1)]
    for j, fu in enumerate(fus):
        fields += fu.fields(f"fu{j}")
    return Slice(name, "temporal_pe", tuple(fields))


_BUILDERS = {
    "spatial_sw": _spatial_sw,
    "temporal_sw": _temporal_sw,
    "fifo": _fifo,
    "add_tag": _add_tag,
    "map_tag": _map_tag,
    "memory": _memory,
    "extmemory": _memory,
    "spatial_pe": _spatial_pe,
    "temporal_pe": _temporal_pe,
}


# --- FU field values -------------------------------------------------------------------


def cmpi_predicate(name: str) -> int:
    return CMPI_PREDICATES.index(name)


def cmpf_predicate(name: str) -> int:
    return CMPF_PREDICATES.index(name)


def cont_cond(cond: str) -> int:
    return CONT_COND_BITS[cond]


def join_mask(inputs: Sequence[int]) -> int:
    """Bit k set when hardware join input k takes part."""
    return sum(1 << k for k in set(inputs))


def constant_bits(value: int, width: int) -> int:
    """A constant's field: its two's-complement bits (float callers pass the bit pattern)."""
    return value & ((1 << width) - 1)


__all__ = [
    "CMPF_PREDICATES", "CMPI_PREDICATES", "CONT_COND_BITS", "FUField", "FULayout",
    "FabricLayout", "Field", "Slice", "WORD_BITS", "choice_bits", "cmpf_predicate",
    "cmpi_predicate", "constant_bits", "cont_cond", "fabric_layout", "fu_layout",
    "join_mask", "pack", "unpack",
]
