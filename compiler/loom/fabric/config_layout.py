"""Configuration layout of a fabric: every slice and every field, in LOOM's
order and per-component layouts (LOOM's ConfigGen, see docs/loom-fabric-notes.md
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

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, replace

from xdsl.dialects.builtin import StringAttr
from xdsl.ir import Operation

from loom.dialects import fabric_syntax as fs
from loom.dialects.fabric_memory import REGION_FIELDS
from loom.dialects.fabric_types import TaggedType, scalar_width
from loom.fabric.adg_view import AdgView, ViewNode
from loom.floats import CMPF_NAMES
from loom.golden.ops.arith import PREDICATE_NAMES

WORD_BITS = 32

CMPI_PREDICATES = PREDICATE_NAMES
"""arith.cmpi predicates by their MLIR ordinal (the 4-bit field's value)."""
CMPF_PREDICATES = CMPF_NAMES
"""arith.cmpf predicates by their MLIR ordinal (loom.floats)."""
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


def route_field(o: int, i: int) -> str:
    """A switch's route bit from input `i` to output `o`."""
    return f"route.o{o}.i{i}"


def slot_field(t: int, name: str) -> str:
    """Field `name` of a temporal switch's route-table slot `t` (valid, tag, a route_field)."""
    return f"slot{t}.{name}"


def mux_field(prefix: str, part: str) -> str:
    """Part `sel`, `discard` or `disconnect` of the mux-like field `prefix`
    (a PE's `in<k>` or `out<k>`, a unit body's `fu.<op_index>`)."""
    return f"{prefix}.{part}"


def pe_mux(side: str, k: int) -> str:
    """A spatial PE's mux-like field: `in<k>` feeds unit input k, `out<k>`
    takes unit output k (side `in` or `out`); parts through mux_field."""
    return f"{side}{k}"


def fu_field(op_index: int, part: str, prefix: str = "fu") -> str:
    """Part `sel`/`discard`/`disconnect` (a mux) or `value` of the configurable
    op `op_index` of a unit body; `prefix` is `fu` in a spatial PE's payload."""
    return f"{prefix}.{op_index}.{part}"


def region_field(r: int, name: str) -> str:
    """Field `name` (REGION_FIELD_NAMES) of a memory's region `r`."""
    return f"region{r}.{name}"


def entry_field(e: int, name: str) -> str:
    """Field `name` (valid, src_tag, dst_tag) of a map_tag's table entry `e`."""
    return f"entry{e}.{name}"


def _mux(prefix: str, sel_bits: int) -> list[Field]:
    return [Field(mux_field(prefix, "sel"), sel_bits), Field(mux_field(prefix, "discard"), 1),
            Field(mux_field(prefix, "disconnect"), 1)]


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
    sources: tuple[str, ...] = ()
    """A mux's operands in order, each `arg<k>` (the unit's input k) or
    `op<i>` (body op i's result)."""

    def fields(self, prefix: str) -> list[Field]:
        if self.kind == "mux":
            return _mux(f"{prefix}.{self.op_index}", self.width - 2)
        return [Field(fu_field(self.op_index, "value", prefix), self.width)]


@dataclass(frozen=True)
class FULayout:
    """A function unit's configuration payload, fields in body order."""

    name: str
    num_inputs: int
    num_outputs: int
    fu_fields: tuple[FUField, ...]
    users: tuple[tuple[str, tuple[str, ...]], ...] = ()
    """Per body value (`arg<k>`, `op<i>`), the body ops that read it
    (`op<i>`, or `yield`), in body order."""

    def fields(self, prefix: str = "fu") -> list[Field]:
        return [f for ff in self.fu_fields for f in ff.fields(prefix)]

    @property
    def bits(self) -> int:
        return sum(f.width for f in self.fields())

    def unread(self, values: Mapping[str, int], prefix: str = "fu") -> frozenset[str]:
        """The body values no token passes through under the configured
        payload `values`: a value whose every reader is a fabric.mux whose
        sel picks another operand, or a value itself unread (at `fu.1.sel`
        0 a constant-operand unit's constant and its trigger, input 2; at 1
        its input 1: docs/fabric/function_unit.md)."""
        picked = {f"op{f.op_index}": f.sources[sel] if sel < len(f.sources) else ""
                  for f in self.fu_fields if f.kind == "mux"
                  for sel in [values.get(f"{prefix}.{f.op_index}.sel", 0)]}
        unread: set[str] = set()
        for value, readers in reversed(self.users):   # readers come after what they read
            if readers and all(r in unread or (r in picked and picked[r] != value)
                               for r in readers):
                unread.add(value)
        return frozenset(unread)


def fu_layout(fu: Operation) -> FULayout:
    """The payload of a fabric.function_unit (LOOM's extractFUConfigFieldWidths)."""
    block = fu.regions[0].block
    ftype = fs.function_type(fu)
    fu_fields: list[FUField] = []
    body = [op for op in block.ops if op.name != "fabric.yield"]
    names = {a: f"arg{a.index}" for a in block.args}
    names.update({r: f"op{index}" for index, op in enumerate(body) for r in op.results})
    for index, op in enumerate(body):
        width, kind = _fu_field(op)
        if width > 0:
            sources = tuple(names[v] for v in op.operands) if kind == "mux" else ()
            fu_fields.append(FUField(index, kind, width, sources))
    readers = {n: [] for n in names.values()}
    for op in block.ops:
        reader = f"op{body.index(op)}" if op in body else "yield"
        for v in op.operands:
            if v in names and reader not in readers[names[v]]:
                readers[names[v]].append(reader)
    name = fu.attributes["sym_name"]
    assert isinstance(name, StringAttr)
    ordered = [f"arg{a.index}" for a in block.args] + [f"op{i}" for i in range(len(body))]
    return FULayout(name.data, len(ftype.inputs.data), len(ftype.outputs.data),
                    tuple(fu_fields), tuple((n, tuple(readers[n])) for n in ordered
                                            if n in readers))


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
    units: tuple[str, ...] = ()
    """A PE's function units in opcode order (what an opcode field names)."""

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
        """LOOM's values for a node the mapping leaves unused (spatial PE:
        every mux disconnected; a temporal PE: zero, every slot invalid)."""
        if self.kind == "temporal_pe":
            return {}
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


def fabric_layout(view: AdgView) -> FabricLayout:
    """The layout of the ADG's fabric.module: routing slices in body order, then PEs."""
    routing: list[Slice] = []
    pes: list[Slice] = []
    for node in view.nodes:
        builder = _BUILDERS.get(node.kind)
        made = builder(node) if builder else None
        if made is None or made.bits == 0:
            continue
        (pes if node.is_pe else routing).append(made)
    slices, offset = [], 0
    for s in (*routing, *pes):
        slices.append(replace(s, word_offset=offset))
        offset += s.word_count
    return FabricLayout(view.name, tuple(slices))


def _spatial_sw(node: ViewNode) -> Slice:
    return Slice(node.name, "spatial_sw", tuple(
        Field(route_field(o, i), 1) for o, i in node.connectivity()))


def _tag_width(types: Sequence) -> int:
    return next((t.tag_width for t in types if isinstance(t, TaggedType)), 1)


def _temporal_sw(node: ViewNode) -> Slice:
    slots = fs.int_param(node.definition, "num_route_table", 0) or 0
    tag_w = _tag_width(node.in_types)
    fields: list[Field] = []
    for t in range(slots):
        fields += [Field(slot_field(t, "valid"), 1), Field(slot_field(t, "tag"), tag_w)]
        fields += [Field(slot_field(t, route_field(o, i)), 1) for o, i in node.connectivity()]
    return Slice(node.name, "temporal_sw", tuple(fields))


def _fifo(node: ViewNode) -> Slice:
    bypassable = "bypassable" in node.definition.attributes
    return Slice(node.name, "fifo", (Field("bypassed", 1),) if bypassable else ())


def _add_tag(node: ViewNode) -> Slice:
    # LOOM emits the slice only when the ADG gives the tag.
    if "tag" not in node.op.attributes:
        return Slice(node.name, "add_tag", ())
    out = node.out_types[0]
    return Slice(node.name, "add_tag", (Field("tag", out.tag_width if isinstance(out, TaggedType) else 1),))


def _map_tag(node: ViewNode) -> Slice:
    size = fs.int_param(node.op, "table_size", 0) or 0
    src, dst = node.in_types[0], node.out_types[0]
    in_w = src.tag_width if isinstance(src, TaggedType) else 1
    out_w = dst.tag_width if isinstance(dst, TaggedType) else 1
    fields: list[Field] = []
    for e in range(size):
        fields += [Field(entry_field(e, "valid"), 1), Field(entry_field(e, "src_tag"), in_w),
                   Field(entry_field(e, "dst_tag"), out_w)]
    return Slice(node.name, "map_tag", tuple(fields))


def _memory(node: ViewNode) -> Slice:
    regions = fs.int_param(node.definition, "numRegion", 1) or 1
    assert len(REGION_FIELD_NAMES) == REGION_FIELDS
    return Slice(node.name, node.kind, tuple(
        Field(region_field(r, n), WORD_BITS) for r in range(regions) for n in REGION_FIELD_NAMES))


def _pe_fus(node: ViewNode) -> list[FULayout]:
    """The PE's function-unit payloads in opcode order."""
    return [fu_layout(u.definition) for u in node.units]


def _spatial_pe(node: ViewNode) -> Slice:
    fus = _pe_fus(node)
    n_in, n_out = len(node.in_types), len(node.out_types)
    fields = [Field("enable", 1), Field("opcode", choice_bits(len(fus)))]
    for k in range(max((f.num_inputs for f in fus), default=0)):
        fields += _mux(pe_mux("in", k), choice_bits(n_in))
    for k in range(max((f.num_outputs for f in fus), default=0)):
        fields += _mux(pe_mux("out", k), choice_bits(n_out))
    return Slice(node.name, "spatial_pe", tuple(fields), tuple(fus),
                 max((f.bits for f in fus), default=0), units=tuple(f.name for f in fus))


def _temporal_pe(node: ViewNode) -> Slice:
    """LOOM's temporal_pe layout."""
    fus = _pe_fus(node)
    shape = node.temporal_shape()
    n_in, n_out = shape.n_in, shape.n_out
    tag_w = _tag_width(node.in_types)
    regs = shape.registers
    reg_bits = choice_bits(regs)
    max_in = max((f.num_inputs for f in fus), default=0)
    max_out = max((f.num_outputs for f in fus), default=0)
    fields: list[Field] = []
    for s in range(shape.slots):
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
    return Slice(node.name, "temporal_pe", tuple(fields), units=tuple(f.name for f in fus))


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
    "cmpi_predicate", "constant_bits", "cont_cond", "entry_field", "fabric_layout",
    "fu_field", "fu_layout", "join_mask", "mux_field", "pe_mux", "pack", "region_field", "route_field",
    "slot_field", "unpack",
]
