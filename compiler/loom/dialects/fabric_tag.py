"""Tag operations of the fabric (inline only, directly in `fabric.module`):

    %t = fabric.add_tag %x {tag = 0 : i64} : i32 -> !fabric.tagged<!fabric.bits<32>, i1>
    %m = fabric.map_tag %t [table_size = 2] attributes {table = [[1, 0, 1], ...]}
        : !fabric.tagged<V, i1> -> !fabric.tagged<V, i2>
    %y = fabric.del_tag %t : !fabric.tagged<V, i1> -> i32

map_tag entries are [valid, src_tag, dst_tag]; it may change the tag width
but not the value type. Rules and messages follow LOOM.
"""

from __future__ import annotations

from typing import ClassVar

from xdsl.dialects.builtin import ArrayAttr, IntegerAttr
from xdsl.ir import Attribute, Operation
from xdsl.irdl import IRDLOperation, irdl_op_definition, operand_def, result_def
from xdsl.parser import Parser
from xdsl.printer import Printer
from xdsl.utils.exceptions import VerifyException

from loom.dialects import fabric_syntax as fs
from loom.dialects.fabric_graph import MODULE, check_outputs_used, parent_name
from loom.dialects.fabric_types import TaggedType

MAX_MAP_TABLE = 256


class _TagOp(IRDLOperation):
    """`%v [hw] attr-dict : T -> U`."""

    HW_PARAMS: ClassVar[tuple[fs.HwParam, ...]] = ()
    input = operand_def()
    output = result_def()

    @classmethod
    def parse(cls, parser: Parser) -> _TagOp:
        operand = parser.parse_unresolved_operand()
        attrs = fs.parse_hw_params(parser, cls.HW_PARAMS, cls.name.removeprefix("fabric."))
        attrs |= fs.parse_runtime_attrs(parser)
        parser.parse_punctuation(":")
        in_type = parser.parse_type()
        parser.parse_punctuation("->")
        out_type = parser.parse_type()
        value = parser.resolve_operand(operand, in_type)
        return cls.create(operands=[value], result_types=[out_type], attributes=attrs)

    def print(self, printer: Printer) -> None:
        printer.print_string(" ")
        printer.print_operand(self.input)
        fs.print_hw_params(printer, self, self.HW_PARAMS)
        reserved = tuple(p.attr_name for p in self.HW_PARAMS)
        if self.HW_PARAMS:
            fs.print_runtime_attrs(printer, self, reserved)
        else:
            printer.print_op_attributes(self.attributes)
        printer.print_string(" : ")
        printer.print_attribute(self.input.type)
        printer.print_string(" -> ")
        printer.print_attribute(self.output.type)

    def verify_(self) -> None:
        if parent_name(self) != MODULE:
            raise VerifyException("must appear directly inside fabric.module")
        self.verify_tag()
        check_outputs_used(self, self.name)

    def verify_tag(self) -> None:
        """The op's own type rules."""


@irdl_op_definition
class AddTagOp(_TagOp):
    """Attaches the constant tag `tag` to every token."""

    name = "fabric.add_tag"

    def verify_tag(self) -> None:
        out = self.output.type
        if not isinstance(out, TaggedType):
            raise VerifyException("result must be !fabric.tagged")
        if isinstance(self.input.type, TaggedType):
            raise VerifyException("input must not be !fabric.tagged")
        tag = self.attributes.get("tag")
        if tag is not None:
            if not isinstance(tag, IntegerAttr):
                raise VerifyException("tag must be an integer")
            if not 0 <= tag.value.data < (1 << out.tag_width):
                raise VerifyException(f"tag {tag.value.data} does not fit in {out.tag_type}")


@irdl_op_definition
class DelTagOp(_TagOp):
    """Drops the tag."""

    name = "fabric.del_tag"

    def verify_tag(self) -> None:
        if not isinstance(self.input.type, TaggedType):
            raise VerifyException("input must be !fabric.tagged")
        if isinstance(self.output.type, TaggedType):
            raise VerifyException("result must not be !fabric.tagged")


def _table_entries(table: Attribute) -> list[Attribute]:
    if not isinstance(table, ArrayAttr):
        raise VerifyException(
            "table entries must be integers or [valid, src_tag, dst_tag] triples"
        )
    return list(table.data)


def map_tag_entries(op: Operation) -> list[tuple[int, int, int]]:
    """A verified map_tag's table as (valid, src_tag, dst_tag) entries, in
    order; LOOM's legacy form, an integer at position i, is (1, i, value)
    (ConfigGenHelpers.cpp, getMapTagTableEntries). No table: none."""
    table = op.attributes.get("table")
    if not isinstance(table, ArrayAttr):
        return []
    out = []
    for i, entry in enumerate(table.data):
        if isinstance(entry, IntegerAttr):
            out.append((1, i, entry.value.data))
        elif isinstance(entry, ArrayAttr):
            valid, src, dst = (v.value.data for v in entry.data)  # pyright: ignore
            out.append((valid, src, dst))
    return out


@irdl_op_definition
class MapTagOp(_TagOp):
    """Rewrites tags through a table of [valid, src_tag, dst_tag] entries
    (or LOOM's legacy integers: `map_tag_entries`)."""

    name = "fabric.map_tag"
    HW_PARAMS: ClassVar[tuple[fs.HwParam, ...]] = (fs.HwParam("table_size"),)

    def verify_tag(self) -> None:
        src, dst = self.input.type, self.output.type
        if not isinstance(src, TaggedType) or not isinstance(dst, TaggedType):
            raise VerifyException("requires tagged input and tagged result types")
        if src.value_type != dst.value_type:
            raise VerifyException("requires identical tagged value types")
        size = fs.int_param(self, "table_size")
        if size is None:
            raise VerifyException("requires table_size hardware parameter")
        if size <= 0:
            raise VerifyException("table_size must be positive")
        if size > MAX_MAP_TABLE:
            raise VerifyException(f"table_size must be <= {MAX_MAP_TABLE}")
        if size > 1 << src.tag_width:
            raise VerifyException("table_size exceeds input tag domain")
        table = self.attributes.get("table")
        if table is None:
            return
        entries = _table_entries(table)
        if len(entries) != size:
            raise VerifyException("table length must match table_size")
        for entry in entries:
            _check_entry(entry, 1 << src.tag_width, 1 << dst.tag_width)


def _check_entry(entry: Attribute, max_src: int, max_dst: int) -> None:
    if isinstance(entry, IntegerAttr):
        value = entry.value.data
        if value < 0:
            raise VerifyException("legacy table entries must be non-negative")
        if value >= max_dst:
            raise VerifyException("legacy table entry exceeds output tag domain")
        return
    if not isinstance(entry, ArrayAttr) or len(entry.data) != 3:
        raise VerifyException(
            "table entries must be integers or [valid, src_tag, dst_tag] triples"
        )
    if not all(isinstance(v, IntegerAttr) for v in entry.data):
        raise VerifyException("map_tag table triple entries must contain integers")
    valid, s, d = (v.value.data for v in entry.data)  # pyright: ignore
    if valid not in (0, 1):
        raise VerifyException("map_tag table valid bit must be 0 or 1")
    if s < 0 or d < 0:
        raise VerifyException("map_tag table src_tag and dst_tag must be non-negative")
    if s >= max_src:
        raise VerifyException("map_tag table src_tag exceeds input tag domain")
    if d >= max_dst:
        raise VerifyException("map_tag table dst_tag exceeds output tag domain")
