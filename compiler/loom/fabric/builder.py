"""The ADG builder: a Python model of a fabric, written out as LOOM's `fabric.mlir`.

    b = AdgBuilder("tiny")
    pe = b.define_pe("pe_add", 2, 1, 64, [fu.binary("fu_add", "arith.addi", "i64")])
    sw = b.define_switch("sw", 3, 3, 64)                    # full crossbar
    ...
    node = b.instance(pe, "pe_0_0")
    b.connect(b.add_input("a", "!fabric.bits<64>"), PortRef("pe_0_0", 0))
    b.write(out_dir, "tiny")        # tiny.fabric.mlir + tiny.fabric.viz.json

Like LOOM's ADGBuilder (include/loom/ADG/ADGBuilder.h) it keeps its own
model and prints the text only at export (emit.py): PE and switch
definitions (function units copied into each PE, the opcode being the
unit's index in body order), one `fabric.instance` per PE or switch,
memories, fifos and tag ops inline, SSA values named after their node. The
text is then parsed back and verified with our `fabric` dialect, so what is
written is what LOOM's verifier accepts. Dangling ports are an error, never
repaired: every node input is driven exactly once, every node output and
module input is used, every module output is driven.
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path

from xdsl.dialects.builtin import ModuleOp

from loom.diagnostics import LoomError, Location
from loom.fabric.function_units import FunctionUnit
from loom.fabric.viz import VizLayout, viz_document

MODULE_IN = "module_in"
MODULE_OUT = "module_out"
"""Pseudo node names of the module's ports (LOOM's viz sidecar uses the same)."""

MAX_SWITCH_PORTS = 32


def bits(width: int) -> str:
    return f"!fabric.bits<{width}>"


def tagged(value_type: str, tag_width: int) -> str:
    return f"!fabric.tagged<{value_type}, i{tag_width}>"


def is_tagged(type_: str) -> bool:
    return type_.startswith("!fabric.tagged<")


@dataclass(frozen=True)
class PortRef:
    """Port `port` of node `node` (MODULE_IN / MODULE_OUT: the module's own ports)."""

    node: str
    port: int


@dataclass(frozen=True)
class TemporalParams:
    """A `fabric.temporal_pe`'s hardware parameters (LOOM's names)."""

    num_instruction: int
    num_register: int = 0
    reg_fifo_depth: int = 0


@dataclass(frozen=True)
class PEDef:
    """A `fabric.spatial_pe` definition, or a `fabric.temporal_pe` one (tagged
    ports) when `temporal` is set."""

    name: str
    inputs: tuple[str, ...]
    outputs: tuple[str, ...]
    fus: tuple[FunctionUnit, ...]
    temporal: TemporalParams | None = None


@dataclass(frozen=True)
class SwitchDef:
    """A `fabric.spatial_sw` or `fabric.temporal_sw` definition."""

    name: str
    inputs: tuple[str, ...]
    outputs: tuple[str, ...]
    connectivity: tuple[str, ...]
    """One row per output; character j is '1' when input j may drive it."""
    temporal: bool = False
    num_route_table: int = 1

    @property
    def kind(self) -> str:
        return "temporal_sw" if self.temporal else "spatial_sw"


@dataclass
class Node:
    """One node of the graph: an instance, a memory, a fifo or a tag op."""

    name: str
    kind: str
    inputs: tuple[str, ...]
    outputs: tuple[str, ...]
    definition: PEDef | SwitchDef | None = None
    params: dict[str, object] = field(default_factory=dict)


@dataclass(frozen=True)
class ModulePort:
    name: str
    type: str

    @property
    def is_memref(self) -> bool:
        return self.type.startswith("memref<")


class AdgBuilder:
    """Definitions, nodes and wires of one `fabric.module`."""

    def __init__(self, name: str):
        self.name = name
        self.pes: dict[str, PEDef] = {}
        self.switches: dict[str, SwitchDef] = {}
        self.nodes: dict[str, Node] = {}
        self.node_ids: dict[str, int] = {}
        """Node name -> creation index (its SSA name is `%v<index>`)."""
        self.inputs: list[ModulePort] = []
        self.outputs: list[ModulePort] = []
        self.drivers: dict[PortRef, PortRef] = {}
        """Each driven input (node input or module output) -> its source."""
        self.viz = VizLayout()
        self._counters: dict[str, int] = {}

    # --- definitions -----------------------------------------------------------------

    def define_pe(self, name: str, num_inputs: int, num_outputs: int, width: int,
                  fus: Sequence[FunctionUnit]) -> PEDef:
        """A spatial PE with `!fabric.bits<width>` ports holding `fus` (opcode = index)."""
        return self.define_pe_typed(name, [bits(width)] * num_inputs,
                                    [bits(width)] * num_outputs, fus)

    def define_temporal_pe(self, name: str, num_inputs: int, num_outputs: int, width: int,
                           tag_width: int, fus: Sequence[FunctionUnit],
                           params: TemporalParams) -> PEDef:
        """A temporal PE with `!fabric.tagged<!fabric.bits<width>, i<tag_width>>`
        ports holding `fus` (opcode = index)."""
        port = tagged(bits(width), tag_width)
        return self.define_pe_typed(name, [port] * num_inputs, [port] * num_outputs, fus, params)

    def define_pe_typed(self, name: str, inputs: Sequence[str], outputs: Sequence[str],
                        fus: Sequence[FunctionUnit],
                        temporal: TemporalParams | None = None) -> PEDef:
        if not fus:
            raise LoomError(f"PE {name}: a PE needs at least one function unit")
        names = [f.name for f in fus]
        if len(set(names)) != len(names):
            raise LoomError(f"PE {name}: function unit names repeat ({', '.join(names)})")
        self._new_definition(name)
        pe = PEDef(name, tuple(inputs), tuple(outputs), tuple(fus), temporal)
        self.pes[name] = pe
        return pe

    def define_switch(self, name: str, num_inputs: int, num_outputs: int, width: int,
                      connectivity: Sequence[str] | None = None) -> SwitchDef:
        """A spatial_sw over `!fabric.bits<width>`; no connectivity means a full crossbar."""
        return self.define_switch_typed(name, [bits(width)] * num_inputs,
                                        [bits(width)] * num_outputs, connectivity)

    def define_switch_typed(self, name: str, inputs: Sequence[str], outputs: Sequence[str],
                            connectivity: Sequence[str] | None = None, temporal: bool = False,
                            num_route_table: int = 1) -> SwitchDef:
        """A spatial_sw, or a temporal_sw (tagged ports) with `num_route_table` slots."""
        for what, ports in (("input", inputs), ("output", outputs)):
            if not 1 <= len(ports) <= MAX_SWITCH_PORTS:
                raise LoomError(f"switch {name}: {len(ports)} {what} ports "
                                f"(a switch has 1..{MAX_SWITCH_PORTS})")
        rows = tuple(connectivity) if connectivity is not None else tuple(
            "1" * len(inputs) for _ in outputs)
        if len(rows) != len(outputs) or any(
                len(r) != len(inputs) or set(r) - {"0", "1"} for r in rows):
            raise LoomError(f"switch {name}: the connectivity table needs {len(outputs)} rows "
                            f"of {len(inputs)} '0'/'1' characters")
        self._new_definition(name)
        sw = SwitchDef(name, tuple(inputs), tuple(outputs), rows, temporal, num_route_table)
        self.switches[name] = sw
        return sw

    def _new_definition(self, name: str) -> None:
        if name in self.pes or name in self.switches:
            raise LoomError(f"duplicate definition name '{name}' in ADG {self.name}")

    # --- nodes -----------------------------------------------------------------------

    def instance(self, definition: PEDef | SwitchDef, name: str) -> Node:
        kind = definition.kind if isinstance(definition, SwitchDef) else "spatial_pe"
        return self._add(Node(name, kind, definition.inputs, definition.outputs, definition))

    def extmemory(self, name: str, memref: PortRef, ld: int, st: int,
                  memref_type: str, port_type: str, num_region: int = 1) -> Node:
        """An extmemory bound to module memref input `memref`; one port per family."""
        node = self._memory(name, "extmemory", ld, st, memref_type, port_type, num_region)
        if memref.node != MODULE_IN or not self.inputs[memref.port].is_memref:
            raise LoomError(f"extmemory {name}: its memref must be a module memref input")
        self._drive(PortRef(name, 0), memref)
        return node

    def memory(self, name: str, ld: int, st: int, memref_type: str, port_type: str,
               num_region: int = 1) -> Node:
        """An on-chip (private) memory."""
        return self._memory(name, "memory", ld, st, memref_type, port_type, num_region)

    def _memory(self, name: str, kind: str, ld: int, st: int, memref_type: str,
                port_type: str, num_region: int) -> Node:
        if ld < 0 or st < 0 or ld + st == 0:
            raise LoomError(f"{kind} {name}: needs at least one load or store lane")
        ins = ([memref_type] if kind == "extmemory" else []) + \
            [port_type] * ((1 if ld else 0) + (2 if st else 0))
        outs = [port_type] * ((2 if ld else 0) + (1 if st else 0))
        return self._add(Node(name, kind, tuple(ins), tuple(outs), params=dict(
            ldCount=ld, stCount=st, lsqDepth=0, memrefType=memref_type, numRegion=num_region)))

    def fifo(self, name: str, type_: str, depth: int, bypassable: bool = False) -> Node:
        if depth < 1:
            raise LoomError(f"fifo {name}: depth must be at least 1")
        return self._add(Node(name, "fifo", (type_,), (type_,),
                              params=dict(depth=depth, bypassable=bypassable)))

    def add_tag(self, in_type: str, out_type: str, tag: int) -> Node:
        return self._add(Node(self._auto("add_tag"), "add_tag", (in_type,), (out_type,),
                              params=dict(tag=tag)))

    def del_tag(self, in_type: str, out_type: str) -> Node:
        return self._add(Node(self._auto("del_tag"), "del_tag", (in_type,), (out_type,)))

    def map_tag(self, in_type: str, out_type: str,
                table: Sequence[tuple[bool, int, int]]) -> Node:
        """Entries (valid, source tag, destination tag)."""
        return self._add(Node(self._auto("map_tag"), "map_tag", (in_type,), (out_type,),
                              params=dict(table=tuple(table))))

    def _auto(self, kind: str) -> str:
        # LOOM's names for unnamed nodes: <kind>_<k> in creation order.
        k = self._counters.get(kind, 0)
        self._counters[kind] = k + 1
        return f"{kind}_{k}"

    def _add(self, node: Node) -> Node:
        if node.name in self.nodes or node.name in (MODULE_IN, MODULE_OUT) or any(
                p.name == node.name for p in (*self.inputs, *self.outputs)):
            raise LoomError(f"ADG {self.name}: the name '{node.name}' is already used")
        self.node_ids[node.name] = len(self.nodes)
        self.nodes[node.name] = node
        return node

    # --- module ports and wires ------------------------------------------------------

    def add_input(self, name: str, type_: str) -> PortRef:
        """A module input (a memref for an extmemory, or a scalar channel)."""
        self._check_port_name(name)
        port = ModulePort(name, type_)
        if port.is_memref and self.inputs and not self.inputs[-1].is_memref:
            raise LoomError(f"ADG {self.name}: memref input {name} after a scalar input "
                            "(LOOM's argument order: memrefs first)")
        self.inputs.append(port)
        return PortRef(MODULE_IN, len(self.inputs) - 1)

    def add_output(self, name: str, type_: str) -> PortRef:
        self._check_port_name(name)
        self.outputs.append(ModulePort(name, type_))
        return PortRef(MODULE_OUT, len(self.outputs) - 1)

    def _check_port_name(self, name: str) -> None:
        if name in self.nodes or any(p.name == name for p in (*self.inputs, *self.outputs)):
            raise LoomError(f"ADG {self.name}: the name '{name}' is already used")

    def connect(self, src: PortRef, dst: PortRef) -> None:
        """Wire output `src` (or a module input) to input `dst` (or a module output)."""
        src_type = self._source_type(src)
        dst_type = self._sink_type(dst)
        if src_type.startswith("memref<") or dst_type.startswith("memref<"):
            raise LoomError(f"ADG {self.name}: {_show(src)} -> {_show(dst)}: memrefs bind "
                            "only to an extmemory (AdgBuilder.extmemory)")
        if is_tagged(src_type) != is_tagged(dst_type):
            raise LoomError(f"ADG {self.name}: {_show(src)} -> {_show(dst)}: tag-kind mismatch "
                            f"({src_type} to {dst_type})")
        self._drive(dst, src)

    def _drive(self, dst: PortRef, src: PortRef) -> None:
        if dst in self.drivers:
            raise LoomError(f"ADG {self.name}: {_show(dst)} is driven twice "
                            f"({_show(self.drivers[dst])} and {_show(src)})")
        self.drivers[dst] = src

    def _source_type(self, src: PortRef) -> str:
        if src.node == MODULE_IN:
            ports = [p.type for p in self.inputs]
        else:
            ports = list(self._node(src.node).outputs)
        if not 0 <= src.port < len(ports):
            raise LoomError(f"ADG {self.name}: {_show(src)} has no such output port")
        return ports[src.port]

    def _sink_type(self, dst: PortRef) -> str:
        if dst.node == MODULE_OUT:
            ports = [p.type for p in self.outputs]
        else:
            ports = list(self._node(dst.node).inputs)
        if not 0 <= dst.port < len(ports):
            raise LoomError(f"ADG {self.name}: {_show(dst)} has no such input port")
        return ports[dst.port]

    def _node(self, name: str) -> Node:
        if name not in self.nodes:
            raise LoomError(f"ADG {self.name}: no node named '{name}'")
        return self.nodes[name]

    # --- checks and export -----------------------------------------------------------

    def dangling(self) -> list[str]:
        """Every dangling port, in node order (LOOM's builder validation)."""
        used = set(self.drivers.values())
        problems = [f"module input {p.name} is not connected"
                    for i, p in enumerate(self.inputs) if PortRef(MODULE_IN, i) not in used]
        for node in self.nodes.values():
            problems += [f"input port {i} of {node.name} is not driven"
                         for i in range(len(node.inputs))
                         if PortRef(node.name, i) not in self.drivers]
            problems += [f"output port {i} of {node.name} is not connected"
                         for i in range(len(node.outputs)) if PortRef(node.name, i) not in used]
        problems += [f"module output {p.name} is not driven"
                     for i, p in enumerate(self.outputs)
                     if PortRef(MODULE_OUT, i) not in self.drivers]
        return problems

    def check(self) -> None:
        problems = self.dangling()
        if problems:
            more = f" (and {len(problems) - 1} more)" if len(problems) > 1 else ""
            raise LoomError(f"ADG {self.name}: dangling port: {problems[0]}{more}")

    def emit(self, viz_file: str | None = None) -> str:
        """The ADG as LOOM-syntax MLIR text (after the dangling-port check)."""
        from loom.fabric.emit import emit_adg
        self.check()
        return emit_adg(self, viz_file)

    def build(self, filename: str | None = None) -> ModuleOp:
        """Emit, parse and verify with our fabric dialect; the verified module."""
        from loom.ir import parse, verify_module
        name = filename or f"{self.name}.fabric.mlir"
        parsed = parse(self.emit(), name)
        verify_module(parsed.module, name, parsed.op_positions)
        return parsed.module

    def write(self, out_dir: str | Path, stem: str | None = None) -> tuple[Path, Path]:
        """Write `<stem>.fabric.mlir` and its `<stem>.fabric.viz.json` sidecar."""
        _, mlir_path, viz_path = self.write_module(out_dir, stem)
        return mlir_path, viz_path

    def write_module(self, out_dir: str | Path,
                     stem: str | None = None) -> tuple[ModuleOp, Path, Path]:
        """`write`, and the verified module the file holds (parsing the file
        back would cost as much again: a second of an 8x8 `-f` preset)."""
        from loom.ir import parse, verify_module
        out = Path(out_dir)
        stem = stem or self.name
        mlir_path, viz_path = out / f"{stem}.fabric.mlir", out / f"{stem}.fabric.viz.json"
        text = self.emit(viz_path.name)
        parsed = parse(text, str(mlir_path))
        verify_module(parsed.module, str(mlir_path), parsed.op_positions)
        try:
            out.mkdir(parents=True, exist_ok=True)
            mlir_path.write_text(text)
            viz_path.write_text(json.dumps(viz_document(self), indent=2) + "\n")
        except OSError as err:
            raise LoomError(f"cannot write the ADG: {err}", Location(str(out))) from err
        return parsed.module, mlir_path, viz_path


def _show(ref: PortRef) -> str:
    if ref.node == MODULE_IN:
        return f"module input {ref.port}"
    if ref.node == MODULE_OUT:
        return f"module output {ref.port}"
    return f"{ref.node} port {ref.port}"


__all__ = [
    "AdgBuilder", "MODULE_IN", "MODULE_OUT", "ModulePort", "Node", "PEDef", "PortRef",
    "SwitchDef", "TemporalParams", "bits", "is_tagged", "tagged",
]
