"""Printing an `AdgBuilder` model as LOOM's fabric.mlir text (ADGBuilderEmit.cpp).

Layout: `module { <PE and switch definitions> fabric.module
@name(<memrefs>, <scalars>) -> (..) [attributes {viz_file = ..}] { <nodes>
fabric.yield .. } }`. The definitions sit at the top level (LOOM's builder
nests them in fabric.module; both are legal) so that the names of the
module's values never meet the names inside a unit body. SSA names are
LOOM's: `%mem<k>` and `%scalar<k>` for the module's memref and scalar
inputs, `%v<i>` for node i (`%v<i>#k` for its result k), so that the names
survive a print and parse (xDSL reads a `_<n>` suffix as its own). PE and switch nodes are `fabric.instance`s of their
definition, memories, fifos and tag ops are inline.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from loom.fabric.builder import AdgBuilder, Node, PEDef, PortRef, SwitchDef

INDENT = "    "


def emit_adg(b: AdgBuilder, viz_file: str | None) -> str:
    lines = ["module {"]
    used = {n.definition.name for n in b.nodes.values() if n.definition is not None}
    for pe in b.pes.values():
        if pe.name in used:
            lines += pe_definition(pe)
    for sw in b.switches.values():
        if sw.name in used:
            lines.append("  " + _switch_definition(sw))
    ins = ", ".join(f"{_arg(b, k)}: {p.type}" for k, p in enumerate(b.inputs))
    outs = ", ".join(p.type for p in b.outputs)
    attrs = f' attributes {{viz_file = "{viz_file}"}}' if viz_file else ""
    lines.append(f"  fabric.module @{b.name}({ins}) -> ({outs}){attrs} {{")
    for node in b.nodes.values():
        lines.append(INDENT + _node(b, node))
    lines.append(INDENT + _yield(b))
    lines += ["  }", "}", ""]
    return "\n".join(lines)


def _types(types: tuple[str, ...] | list[str]) -> str:
    return f"({', '.join(types)})"


def pe_definition(pe: PEDef) -> list[str]:
    args = ", ".join(f"%p{i}: {t}" for i, t in enumerate(pe.inputs))
    if pe.temporal is None:
        lines = [f"  fabric.spatial_pe @{pe.name}({args}) -> {_types(pe.outputs)} {{"]
    else:
        t = pe.temporal
        hw = (f"num_register = {t.num_register} : i64, num_instruction = {t.num_instruction} "
              f": i64, reg_fifo_depth = {t.reg_fifo_depth} : i64")
        lines = [f"  fabric.temporal_pe @{pe.name}({args}) -> {_types(pe.outputs)} [{hw}] {{"]
    for fu in pe.fus:
        lines += fu.render("    ")
    return lines + ["    fabric.yield", "  }"]


def _switch_definition(sw: SwitchDef) -> str:
    rows = ", ".join(f'"{r}"' for r in sw.connectivity)
    params = f"connectivity_table = [{rows}]"
    if sw.temporal:
        params += f", num_route_table = {sw.num_route_table}"
    return (f"fabric.{sw.kind} @{sw.name} [{params}] : "
            f"{_types(sw.inputs)} -> {_types(sw.outputs)}")


def _arg(b: AdgBuilder, k: int) -> str:
    memref = b.inputs[k].is_memref
    same = sum(1 for p in b.inputs[:k] if p.is_memref == memref)
    return f"%mem{same}" if memref else f"%scalar{same}"


def _ssa(b: AdgBuilder, node: Node) -> str:
    return f"%v{b.node_ids[node.name]}"


def _value(b: AdgBuilder, src: PortRef) -> str:
    from loom.fabric.builder import MODULE_IN
    if src.node == MODULE_IN:
        return _arg(b, src.port)
    node = b.nodes[src.node]
    return _ssa(b, node) if len(node.outputs) == 1 else f"{_ssa(b, node)}#{src.port}"


def _operands(b: AdgBuilder, node: Node) -> list[str]:
    from loom.fabric.builder import PortRef
    return [_value(b, b.drivers[PortRef(node.name, i)]) for i in range(len(node.inputs))]


def _results(b: AdgBuilder, node: Node) -> str:
    n = len(node.outputs)
    return f"{_ssa(b, node)}:{n} = " if n > 1 else f"{_ssa(b, node)} = "


def _node(b: AdgBuilder, node: Node) -> str:
    ops = _operands(b, node)
    signature = f"{_types(node.inputs)} -> {_types(node.outputs)}"
    p = node.params
    if node.definition is not None:
        return (f'{_results(b, node)}fabric.instance @{node.definition.name}({", ".join(ops)}) '
                f'{{sym_name = "{node.name}"}} : {signature}')
    if node.kind in ("memory", "extmemory"):
        hw = (f"ldCount = {p['ldCount']}, stCount = {p['stCount']}, lsqDepth = {p['lsqDepth']}, "
              f"memrefType = {p['memrefType']}")
        if node.kind == "memory" or p["numRegion"] != 1:
            hw += f", numRegion = {p['numRegion']}"
        return f"{_results(b, node)}fabric.{node.kind} @{node.name} [{hw}] ({', '.join(ops)}) : {signature}"
    if node.kind == "fifo":
        hw = f"depth = {p['depth']}" + (", bypassable" if p["bypassable"] else "")
        return f"{_results(b, node)}fabric.fifo @{node.name} [{hw}] ({ops[0]}) : {signature}"
    if node.kind == "add_tag":
        return (f"{_results(b, node)}fabric.add_tag {ops[0]} {{tag = {p['tag']} : i64}} : "
                f"{node.inputs[0]} -> {node.outputs[0]}")
    if node.kind == "del_tag":
        return f"{_results(b, node)}fabric.del_tag {ops[0]} : {node.inputs[0]} -> {node.outputs[0]}"
    assert node.kind == "map_tag", node.kind
    table = p["table"]
    assert isinstance(table, tuple)
    entries = ", ".join(f"[{int(v)} : i64, {s} : i64, {d} : i64]" for v, s, d in table)
    return (f"{_results(b, node)}fabric.map_tag {ops[0]} [table_size = {len(table)} : i64] "
            f"attributes {{table = [{entries}]}} : {node.inputs[0]} -> {node.outputs[0]}")


def _yield(b: AdgBuilder) -> str:
    from loom.fabric.builder import MODULE_OUT, PortRef
    if not b.outputs:
        return "fabric.yield"
    values = [_value(b, b.drivers[PortRef(MODULE_OUT, i)]) for i in range(len(b.outputs))]
    return f"fabric.yield {', '.join(values)} : {', '.join(p.type for p in b.outputs)}"
