"""handshake memory ops: load, store, and the memory / extmemory interfaces.

    %d, %a = handshake.load [%addr] %data_from_mem, %ctrl : index, i32
    %d, %a = handshake.store [%addr] %data, %ctrl : index, i32
    %m:3 = handshake.extmemory[ld = 1, st = 1] (%mem : memref<256xi32>) (%sd, %sa, %la)
        {id = 0 : i32} : (i32, index, index) -> (i32, none, none)
    %m:3 = handshake.memory[ld = 1, st = 1] (%sd, %sa, %la) {id = 0 : i32}
        : memref<256xi32>, (i32, index, index) -> (i32, none, none)
    %q:3 = handshake.lsq[ld = 1, st = 1] (%mem : memref<256xi32>) (%sd, %sa, %la, %g, %f)
        {id = 0 : i32, groups = ["ld0 st0"], lq = 4 : i32, sq = 4 : i32}
        : (i32, index, index, none, none) -> (i32, none, none)

Load/store take one address per memref dimension; their ctrl type is `none`
unless a third type says otherwise. Memory ports follow seed 000's
store-first packing: operands are, per store, (data, address...) then, per
load, (address...); results are the load data per load, then the store done
tokens, then the load done tokens. `ld_count`/`st_count` are i32 properties
(as in CIRCT); `id` is an i32 attribute.
"""

from __future__ import annotations

from collections.abc import Sequence

from xdsl.dialects.builtin import (AnyFloat, ArrayAttr, DenseIntOrFPElementsAttr, IndexType,
                                   IntegerAttr, MemRefType, NoneType, StringAttr, i32)
from xdsl.ir import Attribute, Operation, SSAValue
from xdsl.irdl import (
    IRDLOperation,
    attr_def,
    irdl_op_definition,
    operand_def,
    prop_def,
    result_def,
    var_operand_def,
    var_result_def,
)
from xdsl.parser import Parser
from xdsl.printer import Printer
from xdsl.utils.exceptions import VerifyException

from loom import floats
from loom.dialects import syntax
from loom.dialects.channel_types import check_edge_type
from loom.dialects.edge_checks import check_address, check_all_same, check_control, check_same


class _AccessOp(IRDLOperation):
    """`%d, %a... = op [%addr...] %data, %ctrl attr-dict : A, D (, C)?`."""

    @classmethod
    def parse(cls, parser: Parser):
        addresses = parser.parse_comma_separated_list(
            parser.Delimiter.SQUARE, parser.parse_unresolved_operand
        )
        rest = syntax.parse_operands(parser)
        attrs = syntax.parse_attr_dict(parser)
        parser.parse_punctuation(":")
        types = syntax.parse_types(parser)
        if len(types) == 2:
            types.append(NoneType())
        if len(types) != 3:
            parser.raise_error(
                f"{cls.name} takes types: address type, data type (, ctrl type)"
            )
        addr_t, data_t, ctrl_t = types
        if len(rest) != 2:
            parser.raise_error(f"{cls.name} takes [addresses] then data and ctrl operands")
        values = syntax.resolve(
            parser, [*addresses, *rest], [addr_t] * len(addresses) + [data_t, ctrl_t], cls.name
        )
        return cls.create(
            operands=values,
            result_types=[data_t] + [addr_t] * len(addresses),
            attributes=attrs,
        )

    def print(self, printer: Printer) -> None:
        addresses = self.operands[:-2]
        printer.print_string(" [")
        syntax.print_operands(printer, addresses)
        printer.print_string("] ")
        syntax.print_operands(printer, self.operands[-2:])
        syntax.print_attr_dict(printer, self.attributes)
        printer.print_string(" : ")
        types = [addresses[0].type if addresses else IndexType(), self.operands[-2].type]
        if not isinstance(self.operands[-1].type, NoneType):
            types.append(self.operands[-1].type)
        syntax.print_types(printer, types)

    def _verify_access(self, data_in: Attribute, data_out: Attribute) -> None:
        addresses = self.operands[:-2]
        if not addresses:
            raise VerifyException("needs at least one address operand")
        addr_results = self.results[1:]
        if len(addr_results) != len(addresses):
            raise VerifyException(
                f"has {len(addr_results)} address results for {len(addresses)} addresses"
            )
        a = addresses[0].type
        check_address(a, "address")
        check_all_same([v.type for v in addresses], a, "address operand")
        check_all_same([r.type for r in addr_results], a, "address result")
        check_edge_type(data_in, "data operand")
        check_same(data_out, data_in, "data result")
        check_control(self.operands[-1].type, "ctrl")


@irdl_op_definition
class LoadOp(_AccessOp):
    """`%d, %a = handshake.load [%addr] %data_from_mem, %ctrl : index, i32`.

    Results: data to the computation, then one address to memory per index.
    """

    name = "handshake.load"

    addresses = var_operand_def()
    data_from_mem = operand_def()
    ctrl = operand_def()
    data_result = result_def()
    address_results = var_result_def()

    def __init__(self, addresses: Sequence[SSAValue], data_from_mem: SSAValue, ctrl: SSAValue):
        super().__init__(
            operands=[addresses, data_from_mem, ctrl],
            result_types=[data_from_mem.type, [a.type for a in addresses]],
        )

    def verify_(self) -> None:
        self._verify_access(self.data_from_mem.type, self.data_result.type)


@irdl_op_definition
class StoreOp(_AccessOp):
    """`%d, %a = handshake.store [%addr] %data, %ctrl : index, i32`.

    Results: data to memory, then one address to memory per index.
    """

    name = "handshake.store"

    addresses = var_operand_def()
    data = operand_def()
    ctrl = operand_def()
    data_result = result_def()
    address_results = var_result_def()

    def __init__(self, addresses: Sequence[SSAValue], data: SSAValue, ctrl: SSAValue):
        super().__init__(
            operands=[addresses, data, ctrl],
            result_types=[data.type, [a.type for a in addresses]],
        )

    def verify_(self) -> None:
        self._verify_access(self.data.type, self.data_result.type)


def _parse_port_counts(parser: Parser) -> tuple[int, int]:
    """`[ld = N, st = M]`."""
    parser.parse_punctuation("[")
    parser.parse_keyword("ld")
    parser.parse_punctuation("=")
    ld = parser.parse_integer(allow_boolean=False)
    parser.parse_punctuation(",")
    parser.parse_keyword("st")
    parser.parse_punctuation("=")
    st = parser.parse_integer(allow_boolean=False)
    parser.parse_punctuation("]")
    return ld, st


class _MemoryLike(IRDLOperation):
    """Shared checks of memory/extmemory (store-first port packing)."""

    @property
    def num_loads(self) -> int:
        return self.properties["ld_count"].value.data  # type: ignore[attr-defined]

    @property
    def num_stores(self) -> int:
        return self.properties["st_count"].value.data  # type: ignore[attr-defined]

    def memref_type(self) -> MemRefType:
        raise NotImplementedError

    def port_inputs(self) -> Sequence[SSAValue]:
        raise NotImplementedError

    def _verify_ports(self) -> None:
        ld, st = self.num_loads, self.num_stores
        if ld < 0 or st < 0:
            raise VerifyException(f"port counts must be >= 0, got ld = {ld}, st = {st}")
        mem = self.memref_type()
        if not isinstance(mem, MemRefType):
            raise VerifyException(f"memory type must be a memref, got {mem}")
        self._verify_port_operands(ld, st, mem)
        self._verify_results(ld, ld + st, f"for ld = {ld}, st = {st} (load data, then store "
                             "done, then load done)", "done result")

    def _verify_results(self, ld: int, controls: int, layout: str, control: str) -> None:
        """Per load its data, then `controls` control tokens; an integer id."""
        want = ld + controls
        if len(self.results) != want:
            raise VerifyException(f"has {len(self.results)} results, expected {want} {layout}")
        elem = self.memref_type().get_element_type()
        for j in range(ld):
            check_same(self.results[j].type, elem, f"load #{j} data result")
        for i, r in enumerate(self.results[ld:]):
            check_control(r.type, f"{control} #{i}")
        if not isinstance(self.attributes.get("id"), IntegerAttr):
            raise VerifyException("needs an integer attribute 'id'")

    def _verify_port_operands(self, ld: int, st: int, mem: MemRefType) -> None:
        """Per store its data and addresses, then per load its addresses."""
        rank = len(mem.get_shape())
        elem = mem.get_element_type()
        inputs = self.port_inputs()
        want_in = st * (1 + rank) + ld * rank
        if len(inputs) != want_in:
            raise VerifyException(
                f"has {len(inputs)} port operands, expected {want_in} for ld = {ld}, "
                f"st = {st} on a rank-{rank} memref (per store: data + {rank} addresses; "
                f"per load: {rank} addresses)"
            )
        pos = 0
        for s in range(st):
            check_same(inputs[pos].type, elem, f"store #{s} data")
            for k in range(rank):
                check_address(inputs[pos + 1 + k].type, f"store #{s} address #{k}")
            pos += 1 + rank
        for l_ in range(ld):
            for k in range(rank):
                check_address(inputs[pos + k].type, f"load #{l_} address #{k}")
            pos += rank


class _ExternalLike(_MemoryLike):
    """An interface to a memref argument: extmemory, lsq (one syntax)."""

    memref = operand_def(MemRefType)
    inputs = var_operand_def()
    outputs = var_result_def()
    ld_count = prop_def(IntegerAttr)
    st_count = prop_def(IntegerAttr)
    id = attr_def(IntegerAttr)

    def __init__(
        self,
        memref: SSAValue,
        inputs: Sequence[SSAValue],
        result_types: Sequence[Attribute],
        ld_count: int,
        st_count: int,
        id: int,
    ):
        super().__init__(
            operands=[memref, inputs],
            result_types=[result_types],
            properties={"ld_count": IntegerAttr(ld_count, i32), "st_count": IntegerAttr(st_count, i32)},
            attributes={"id": IntegerAttr(id, i32)},
        )

    def memref_type(self) -> MemRefType:
        return self.memref.type  # type: ignore[return-value]

    def port_inputs(self) -> Sequence[SSAValue]:
        return self.inputs

    @classmethod
    def parse(cls, parser: Parser) -> _ExternalLike:
        ld, st = _parse_port_counts(parser)
        parser.parse_punctuation("(")
        mem = parser.parse_unresolved_operand()
        parser.parse_punctuation(":")
        mem_t = parser.parse_type()
        parser.parse_punctuation(")")
        operands = parser.parse_comma_separated_list(
            parser.Delimiter.PAREN, parser.parse_unresolved_operand
        )
        attrs = syntax.parse_attr_dict(parser)
        parser.parse_punctuation(":")
        in_types = syntax.parse_paren_types(parser)
        parser.parse_punctuation("->")
        out_types = syntax.parse_result_types(parser)
        memref = parser.resolve_operand(mem, mem_t)
        values = syntax.resolve(parser, operands, in_types, cls.name)
        return cls.create(
            operands=[memref, *values],
            result_types=out_types,
            properties={"ld_count": IntegerAttr(ld, i32), "st_count": IntegerAttr(st, i32)},
            attributes=attrs,
        )

    def print(self, printer: Printer) -> None:
        printer.print_string(f"[ld = {self.num_loads}, st = {self.num_stores}] (")
        printer.print_operand(self.memref)
        printer.print_string(" : ")
        printer.print_attribute(self.memref.type)
        printer.print_string(") (")
        syntax.print_operands(printer, self.inputs)
        printer.print_string(")")
        syntax.print_attr_dict(printer, self.attributes)
        printer.print_string(" : ")
        syntax.print_paren_types(printer, [v.type for v in self.inputs])
        printer.print_string(" -> ")
        syntax.print_paren_types(printer, self.result_types)


@irdl_op_definition
class ExternalMemoryOp(_ExternalLike):
    """`%m:3 = handshake.extmemory[ld = 1, st = 1] (%mem : memref<256xi32>) (%sd, %sa, %la)
    {id = 0 : i32} : (i32, index, index) -> (i32, none, none)`."""

    name = "handshake.extmemory"

    def verify_(self) -> None:
        self._verify_ports()


LsqEntry = tuple[str, int]
"""An access of a queue's allocation group: ("ld" | "st", its port)."""


def parse_lsq_group(text: str) -> tuple[LsqEntry, ...]:
    """`"ld0 ld1 st0"` -> (("ld", 0), ("ld", 1), ("st", 0)); ValueError if malformed."""
    entries = []
    for word in text.split():
        kind, port = word[:2], word[2:]
        if kind not in ("ld", "st") or not port.isdigit():
            raise ValueError(f"'{word}' is not ld<port> or st<port>")
        entries.append((kind, int(port)))
    if not entries:
        raise ValueError("an empty group")
    return tuple(entries)


def lsq_group_text(group: Sequence[LsqEntry]) -> str:
    return " ".join(f"{kind}{port}" for kind, port in group)


@irdl_op_definition
class LoadStoreQueueOp(_ExternalLike):
    """`%q:3 = handshake.lsq[ld = 1, st = 1] (%mem : memref<64xi32>) (%sd, %sa, %la, %g0, %f)
    {id = 0 : i32, groups = ["ld0 st0"], lq = 4 : i32, sq = 4 : i32}
    : (i32, index, index, none, none) -> (i32, none, none)`: a load-store queue
    in front of an external memory (design.md, "the load-store queue").

    Operands: the memory's ports (store-first packing), one allocation token
    per group, the fence. Results: per load its data, per group its ack, the
    fence's done. `groups` lists each group's accesses in program order."""

    name = "handshake.lsq"

    def __init__(self, memref: SSAValue, ports: Sequence[SSAValue], allocs: Sequence[SSAValue],
                 fence: SSAValue, groups: Sequence[Sequence[LsqEntry]], lq: int, sq: int, id: int):
        mem_type = memref.type
        assert isinstance(mem_type, MemRefType)
        ld = sum(kind == "ld" for g in groups for kind, _ in g)
        st = sum(kind == "st" for g in groups for kind, _ in g)
        none = NoneType()
        super().__init__(memref, [*ports, *allocs, fence],
                         [mem_type.element_type] * ld + [none] * (len(groups) + 1), ld, st, id)
        self.attributes.update({
            "groups": ArrayAttr([StringAttr(lsq_group_text(g)) for g in groups]),
            "lq": IntegerAttr(lq, i32), "sq": IntegerAttr(sq, i32)})

    @property
    def groups(self) -> tuple[tuple[LsqEntry, ...], ...]:
        attr = self.attributes["groups"]
        assert isinstance(attr, ArrayAttr)
        return tuple(parse_lsq_group(g.data) for g in attr.data)  # type: ignore[attr-defined]

    def depth(self, name: str) -> int:
        """The depth of the load ("lq") or store ("sq") queue."""
        return self.attributes[name].value.data  # type: ignore[attr-defined]

    def port_inputs(self) -> Sequence[SSAValue]:
        return self.inputs[:len(self.inputs) - len(self.groups) - 1]

    def verify_(self) -> None:
        attr = self.attributes.get("groups")
        if not (isinstance(attr, ArrayAttr) and attr.data
                and all(isinstance(g, StringAttr) for g in attr.data)):
            raise VerifyException("needs a non-empty array of strings 'groups'")
        try:
            groups = self.groups
        except ValueError as exc:
            raise VerifyException(f"groups: {exc}") from None
        ld, st = self.num_loads, self.num_stores
        for kind, n in (("ld", ld), ("st", st)):
            used = sorted(port for g in groups for k, port in g if k == kind)
            if used != list(range(n)):
                raise VerifyException(f"the groups must name each {kind} port 0..{n - 1} once")
        for name in ("lq", "sq"):
            depth = self.attributes.get(name)
            if not isinstance(depth, IntegerAttr) or depth.value.data < 2 \
                    or depth.value.data & (depth.value.data - 1):
                raise VerifyException(f"needs '{name}', a power of two >= 2")
        if len(self.inputs) < len(groups) + 1:
            raise VerifyException("needs an allocation token per group and a fence")
        mem = self.memref_type()
        self._verify_port_operands(ld, st, mem)
        for i, v in enumerate(self.inputs[len(self.port_inputs()):]):
            check_control(v.type, f"allocation or fence operand #{i}")
        self._verify_results(ld, len(groups) + 1, "(load data, then an ack per group, then "
                             "the fence's done)", "ack or fence result")


INIT_ATTR = "init"
"""A handshake.memory's initial contents, row-major (`init = dense<[...]> :
tensor<...>`): a constant table, read-only (the front end's `memref.global`
constants; lowering/memory_interface.py)."""


def memory_init(op: Operation) -> list[int] | None:
    """The contents a handshake.memory starts with (None: undefined, as a C
    local array): integers signed or unsigned as written, floats as their
    IEEE bit patterns (loom.floats, NaN canonical)."""
    table = op.attributes.get(INIT_ATTR)
    if not isinstance(table, DenseIntOrFPElementsAttr):
        return None
    element = table.get_element_type()
    if isinstance(element, AnyFloat):
        f = floats.fmt(element.bitwidth)
        return [f.bits(v) for v in table.get_values()]
    return [int(v) for v in table.get_values()]


@irdl_op_definition
class MemoryOp(_MemoryLike):
    """`%m:3 = handshake.memory[ld = 1, st = 1] (%sd, %sa, %la) {id = 0 : i32}
    : memref<256xi32>, (i32, index, index) -> (i32, none, none)`: on-chip memory."""

    name = "handshake.memory"

    inputs = var_operand_def()
    outputs = var_result_def()
    ld_count = prop_def(IntegerAttr)
    st_count = prop_def(IntegerAttr)
    mem_type = prop_def(MemRefType)
    id = attr_def(IntegerAttr)

    def __init__(
        self,
        inputs: Sequence[SSAValue],
        result_types: Sequence[Attribute],
        mem_type: MemRefType,
        ld_count: int,
        st_count: int,
        id: int,
    ):
        super().__init__(
            operands=[inputs],
            result_types=[result_types],
            properties={
                "ld_count": IntegerAttr(ld_count, i32),
                "st_count": IntegerAttr(st_count, i32),
                "mem_type": mem_type,
            },
            attributes={"id": IntegerAttr(id, i32)},
        )

    def memref_type(self) -> MemRefType:
        return self.mem_type

    def port_inputs(self) -> Sequence[SSAValue]:
        return self.inputs

    @classmethod
    def parse(cls, parser: Parser) -> MemoryOp:
        ld, st = _parse_port_counts(parser)
        operands = parser.parse_comma_separated_list(
            parser.Delimiter.PAREN, parser.parse_unresolved_operand
        )
        attrs = syntax.parse_attr_dict(parser)
        parser.parse_punctuation(":")
        mem_t = parser.parse_type()
        parser.parse_punctuation(",")
        in_types = syntax.parse_paren_types(parser)
        parser.parse_punctuation("->")
        out_types = syntax.parse_result_types(parser)
        values = syntax.resolve(parser, operands, in_types, cls.name)
        return cls.create(
            operands=values,
            result_types=out_types,
            properties={
                "ld_count": IntegerAttr(ld, i32),
                "st_count": IntegerAttr(st, i32),
                "mem_type": mem_t,
            },
            attributes=attrs,
        )

    def print(self, printer: Printer) -> None:
        printer.print_string(f"[ld = {self.num_loads}, st = {self.num_stores}] (")
        syntax.print_operands(printer, self.inputs)
        printer.print_string(")")
        syntax.print_attr_dict(printer, self.attributes)
        printer.print_string(" : ")
        printer.print_attribute(self.mem_type)
        printer.print_string(", ")
        syntax.print_paren_types(printer, [v.type for v in self.inputs])
        printer.print_string(" -> ")
        syntax.print_paren_types(printer, self.result_types)

    def verify_(self) -> None:
        self._verify_ports()
