"""The fabric top: config store, component instances and the wiring of a
fabric.module, with module ports held until configuration is done.

Top ports: `clk`, `rst` (synchronous, active high), the config stream
`cfg_valid / cfg_ready / cfg_wdata[31:0] / cfg_last`, channel `in<k>` per
non-memref module argument k and `out<i>` per result. Each component gets its
slice of the config store (offsets from loom.fabric.config_layout). Wires
between ports of different widths are LSB-aligned: truncated or
zero-extended (LOOM's connection rule).
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field

from xdsl.dialects.builtin import MemRefType
from xdsl.ir import SSAValue

from loom.fabric.adg_view import AdgView
from loom.fabric.config_layout import WORD_BITS, FabricLayout, fabric_layout
from loom.fabric.rtl.graph import check_buildable, wire_width
from loom.fabric.rtl.modules import Component, Module, component, render_fabric
from loom.rtl.render import identifier, render_unit


@dataclass
class _Wiring:
    """Lines of the top body and the bits nothing reads (for one `unused` wire)."""

    decls: list[str] = field(default_factory=list)
    body: list[str] = field(default_factory=list)
    unused: list[str] = field(default_factory=list)
    modules: dict[str, Module] = field(default_factory=dict)
    switch_out: dict[int, int] = field(default_factory=dict)
    """Values a spatial_sw drives: the switch's position in body order."""
    lane_out: set[int] = field(default_factory=set)
    """Values a del_tag drives: one lane of a tagged stream several lanes share."""

    def adapt(self, expr: str, src: int, dst: int) -> str:
        if dst == src:
            return expr
        if dst > src:
            return f"{{{dst - src}'d0, {expr}}}"
        m = re.fullmatch(r"(\w+)\[(\d+):(\d+)\]", expr)
        if m:   # narrow a slice in place: SystemVerilog cannot chain range selects
            base, lo = m.group(1), int(m.group(3))
            self.unused.append(f"{base}[{lo + src - 1}:{lo + dst}]")
            return f"{base}[{lo + dst - 1}:{lo}]"
        self.unused.append(f"{expr}[{src - 1}:{dst}]")
        return f"{expr}[{dst - 1}:0]"


@dataclass(frozen=True)
class FabricRtl:
    top: str
    """The top module's name."""
    modules: tuple[Module, ...]
    """Every module, submodules first, the top last."""
    layout: FabricLayout
    view: AdgView
    master: tuple[tuple[str, str, int], ...] = ()
    """(direction, top port, bits) of every extmemory's master port, body order:
    `<instance>_mem_req_*`, `_mem_resp_*`, `_mem_idle`."""

    @property
    def config_store(self) -> str:
        """The module holding the config words (templates/fabric_config.sv.j2)."""
        return f"{self.top}_config"

    def port_names(self) -> tuple[list[str], list[str]]:
        """The data channel names of the top: inputs, outputs."""
        ins = [f"in{k}" for k, a in enumerate(self.view.args)
               if not isinstance(a.type, MemRefType)]
        return ins, [f"out{i}" for i in range(len(self.view.results))]


def fabric_rtl(graph: AdgView, name: str) -> FabricRtl:
    """The fabric RTL of the ADG `graph`; top `<name>_fabric`; LoomError on
    what the RTL cannot build."""
    check_buildable(graph)
    layout = fabric_layout(graph)
    sliced = {s.name: s for s in layout.slices}
    comps = [(n, component(n, sliced.get(n.name))) for n in graph.nodes]
    modules: dict[str, Module] = {}
    for _, comp in comps:
        for m in comp.files:
            modules.setdefault(m.name, m)
    top = f"{identifier(name)}_fabric"
    store = render_fabric("fabric_config", f"{top}_config", dict(words=layout.word_count),
                          f"fabric.module @{graph.name}", words=layout.word_count,
                          cw=max(1, layout.word_count.bit_length()))
    modules[store.name] = store
    text, extra = _top_text(top, graph, layout, comps, store.name)
    for m in extra:
        modules.setdefault(m.name, m)
    modules[top] = render_fabric("fabric_top", top, dict(module=graph.name),
                                 f"fabric.module @{graph.name}", **text)
    return FabricRtl(top, tuple(modules.values()), layout, graph, master_ports(comps))


def master_ports(comps: list) -> tuple[tuple[str, str, int], ...]:
    return tuple((d, f"{identifier(node.name)}_{sig}", bits)
                 for node, comp in comps for d, sig, bits in comp.master)


def _top_text(top: str, graph: AdgView, layout: FabricLayout,
              comps: list, store: str) -> dict:
    w = _Wiring()
    names: dict[int, str] = {}
    widths: dict[int, int] = {}

    def declare(v: SSAValue, name: str) -> None:
        names[id(v)] = name
        widths[id(v)] = wire_width(v.type)
        w.decls += [f"logic [{widths[id(v)] - 1}:0] {name}_data;",
                    f"logic {name}_valid;", f"logic {name}_ready;"]

    ports_in, ports_out = [], []
    for k, a in enumerate(graph.args):
        if isinstance(a.type, MemRefType):
            continue
        declare(a, f"arg{k}")
        bits = wire_width(a.type)
        ports_in.append((f"in{k}", bits))
        w.body += [f"assign arg{k}_data = in{k}_data;",
                   f"assign arg{k}_valid = in{k}_valid & cfg_done;",
                   f"assign in{k}_ready = arg{k}_ready & cfg_done;"]
    for k, (node, _) in enumerate(comps):
        for j, r in enumerate(node.outputs):
            declare(r, f"{identifier(node.name)}_r{j}")
            if node.kind == "spatial_sw":
                w.switch_out[id(r)] = k
            elif node.kind == "del_tag":
                w.lane_out.add(id(r))
    used_cfg: list[tuple[int, int]] = []
    for k, (node, comp) in enumerate(comps):
        _instance(w, k, node, comp, names, widths, layout, used_cfg)
    for i, v in enumerate(graph.results):
        bits = wire_width(v.type)
        ports_out.append((f"out{i}", bits))
        src = names[id(v)]
        w.body += [f"assign out{i}_data = {w.adapt(f'{src}_data', widths[id(v)], bits)};",
                   f"assign out{i}_valid = {src}_valid & cfg_done;",
                   f"assign {src}_ready = out{i}_ready & cfg_done;"]
    w.unused += _unused_cfg(layout.word_count * WORD_BITS, used_cfg)
    return dict(ports_in=ports_in, ports_out=ports_out, master=master_ports(comps), store=store,
                words=layout.word_count, decls=w.decls, body=w.body,
                unused=w.unused), list(w.modules.values())


def _instance(w: _Wiring, position: int, node, comp: Component, names: dict[int, str],
              widths: dict[int, int], layout: FabricLayout,
              used_cfg: list[tuple[int, int]]) -> None:
    inst = identifier(node.name)
    b = f"{inst}_io"
    w.decls += [f"logic [{comp.n_in * comp.w_in - 1}:0] {b}_in_data;",
                f"logic [{comp.n_in - 1}:0] {b}_in_valid;",
                f"logic [{comp.n_in - 1}:0] {b}_in_ready;",
                f"logic [{comp.n_out * comp.w_out - 1}:0] {b}_out_data;",
                f"logic [{comp.n_out - 1}:0] {b}_out_valid;",
                f"logic [{comp.n_out - 1}:0] {b}_out_ready;"]
    data_inputs = [v for v in node.inputs if not isinstance(v.type, MemRefType)]
    for k, v in enumerate(data_inputs):
        src = names[id(v)]
        if node.kind == "spatial_sw" and w.switch_out.get(id(v), -1) >= position:
            src = _hop_buffer(w, f"{inst}_hop{k}", src, widths[id(v)])
        elif id(v) in w.lane_out:
            src = _hop_buffer(w, f"{inst}_lane{k}", src, widths[id(v)])
        lane = f"{b}_in_data[{k * comp.w_in + comp.w_in - 1}:{k * comp.w_in}]"
        w.body += [f"assign {lane} = {w.adapt(f'{src}_data', widths[id(v)], comp.w_in)};",
                   f"assign {b}_in_valid[{k}] = {src}_valid;",
                   f"assign {src}_ready = {b}_in_ready[{k}];"]
    for j, r in enumerate(node.outputs):
        dst = names[id(r)]
        lane = f"{b}_out_data[{j * comp.w_out + comp.w_out - 1}:{j * comp.w_out}]"
        w.body += [f"assign {dst}_data = {w.adapt(lane, comp.w_out, widths[id(r)])};",
                   f"assign {dst}_valid = {b}_out_valid[{j}];",
                   f"assign {b}_out_ready[{j}] = {dst}_ready;"]
    conns = [".clk(clk)", ".rst(rst)"] if comp.clocked else []
    conns += [f".in_data({b}_in_data)", f".in_valid({b}_in_valid)",
              f".in_ready({b}_in_ready)", f".out_data({b}_out_data)",
              f".out_valid({b}_out_valid)", f".out_ready({b}_out_ready)"]
    for _, sig, _ in comp.master:   # to the top's `<instance>_<signal>` port
        conns.append(f".{sig}({inst}_{sig})")
    if comp.cfg_bits:
        lo = layout.slice(node.name).word_offset * WORD_BITS
        used_cfg.append((lo, comp.cfg_bits))
        conns.append(f".cfg(cfg_bits[{lo + comp.cfg_bits - 1}:{lo}])")
    w.body.append(f"{comp.module} {inst} (\n    " + ",\n    ".join(conns) + "\n  );")


def _hop_buffer(w: _Wiring, name: str, src: str, bits: int) -> str:
    """A two-slot buffer (registered valid and ready, our fifo unit) on a
    switch-to-switch link that goes backward in body order (from a switch to
    itself or to an earlier one). Switches are combinational; every ring of
    switches has a backward link, so it gets a register on both paths there,
    while a route that only goes forward crosses its switches in the cycle
    it leaves its PE (a register on every link cost one cycle per hop).

    A del_tag's output (one lane of a memory's tagged result family, after
    the tag split) gets one too: the lanes share the memory's port, whose
    head waits until its own lane takes it; a consumer that needs a token of
    another lane first (a join of two load lanes' done tokens) would hold
    that token behind its own, a head-of-line deadlock the direct flow's
    separate ports never have. The buffer takes the head off the shared port
    while its lane's consumer waits."""
    module, text = render_unit("fifo", slots=2, w=bits, origin="switch-to-switch link buffer")
    w.modules.setdefault(module, Module(module, text))
    w.decls += [f"logic [{bits - 1}:0] {name}_data;", f"logic {name}_valid;",
                f"logic {name}_ready;"]
    w.body.append(f"{module} {name} (\n    .clk(clk), .rst(rst), .ins_data({src}_data), "
                  f".ins_valid({src}_valid), .ins_ready({src}_ready),\n    "
                  f".outs_data({name}_data), .outs_valid({name}_valid), "
                  f".outs_ready({name}_ready)\n  );")
    return name


def _unused_cfg(total: int, used: list[tuple[int, int]]) -> list[str]:
    """Ranges of the config store no component reads (word padding)."""
    covered = [False] * total
    for lo, n in used:
        covered[lo:lo + n] = [True] * n
    ranges, k = [], 0
    while k < total:
        if covered[k]:
            k += 1
            continue
        start = k
        while k < total and not covered[k]:
            k += 1
        ranges.append(f"cfg_bits[{k - 1}:{start}]")
    return ranges
