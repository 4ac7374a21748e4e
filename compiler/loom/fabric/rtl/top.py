"""The fabric top: config store, component instances and the wiring of a
fabric.module, with module ports held until configuration is done.

Top ports: `clk`, `rst` (synchronous, active high), the config stream
`cfg_valid / cfg_ready / cfg_wdata[31:0] / cfg_last`, channel `in<k>` per
non-memref module argument k and `out<i>` per result. Each component gets its
slice of the config store (offsets from loom.fabric.config_layout). Wires
between ports of different widths are LSB-aligned: truncated or
zero-extended (LOOM's connection rule).

This module computes the wiring as data (channels, port links, instances
and their lanes); templates/fabric_top.sv.j2 writes it.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from xdsl.dialects.builtin import MemRefType
from xdsl.ir import SSAValue

from loom.fabric.adg_view import AdgView, ViewNode
from loom.fabric.config_layout import WORD_BITS, FabricLayout, fabric_layout
from loom.fabric.rtl.graph import check_buildable, wire_width
from loom.fabric.rtl.latency import LINK_BUFFER_SLOTS
from loom.fabric.rtl.modules import Component, Module, component, render_fabric
from loom.fabric.rtl.sv import Expr, Ref, resize
from loom.rtl.render import identifier, render_unit


@dataclass(frozen=True)
class PortLink:
    """A top port `<port>_*` and the channel behind it, held until cfg_done;
    `data`: what the receiving side's `_data` gets (resized to its width)."""

    port: str
    channel: str
    data: Expr


@dataclass(frozen=True)
class HopBuffer:
    """A two-slot buffer (our fifo unit, `module`) between channel `src` and
    the channel `name` of the same width: see _hop_buffer."""

    module: str
    name: str
    src: str
    bits: int


@dataclass(frozen=True)
class InLane:
    """Input lane `index` of an instance (its bits of `_io_in_data`) from
    channel `src`, a hop buffer's when `buffer`; `data`: src's resized."""

    index: int
    src: str
    data: Expr
    buffer: HopBuffer | None = None


@dataclass(frozen=True)
class OutLane:
    """Output lane `index` of an instance, driving channel `dst` (`data`: its lane resized)."""

    index: int
    dst: str
    data: Expr


@dataclass(frozen=True)
class TopInstance:
    """Component `comp` in the top as instance `name`: its `<name>_io_*`
    buses, lanes and (when it has config bits) its slice of the store."""

    comp: Component
    name: str
    inputs: tuple[InLane, ...]
    outputs: tuple[OutLane, ...]
    cfg: tuple[int, int] | None = None
    """(hi, lo) of its slice in the config store's `cfg_bits`."""


@dataclass
class _Wiring:
    """The top body as data for templates/fabric_top.sv.j2, and the bits
    nothing reads (for one `unused` wire)."""

    channels: list[tuple[str, int]] = field(default_factory=list)
    """(name, bits) of every data/valid/ready wire triple `<name>_data` etc."""
    args: list[PortLink] = field(default_factory=list)
    instances: list[TopInstance] = field(default_factory=list)
    results: list[PortLink] = field(default_factory=list)
    unused: list[Expr] = field(default_factory=list)
    modules: dict[str, Module] = field(default_factory=dict)

    def adapt(self, e: Expr, src: int, dst: int) -> Expr:
        return resize(e, src, dst, self.unused)


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
    components: tuple[tuple[str, Component], ...] = ()
    """(graph node name, its module) in body order: what the top instantiates."""

    @property
    def config_store(self) -> str:
        """The module holding the config words (templates/fabric_config.sv.j2)."""
        return f"{self.top}_config"

    def port_names(self) -> tuple[list[str], list[str]]:
        """The data channel names of the top: inputs, outputs."""
        ins = [f"in{k}" for k, a in enumerate(self.view.args)
               if not isinstance(a.type, MemRefType)]
        return ins, [f"out{i}" for i in range(len(self.view.results))]


def _buffered(graph: AdgView, node: ViewNode) -> tuple[bool, ...]:
    if node.kind != "spatial_pe":
        return ()
    return tuple(graph.output_buffered(node, k) for k in range(len(node.outputs)))


def fabric_rtl(graph: AdgView, name: str) -> FabricRtl:
    """The fabric RTL of the ADG `graph`; top `<name>_fabric`; LoomError on
    what the RTL cannot build."""
    check_buildable(graph)
    layout = fabric_layout(graph)
    sliced = {s.name: s for s in layout.slices}
    rings = graph.switch_rings
    comps = [(n, component(n, sliced.get(n.name), _buffered(graph, n), rings))
             for n in graph.nodes]
    modules: dict[str, Module] = {}
    for _, comp in comps:
        for m in comp.files:
            modules.setdefault(m.name, m)
    top = f"{identifier(name)}_fabric"
    store = render_fabric("fabric_config", f"{top}_config", dict(words=layout.word_count),
                          f"fabric.module @{graph.name}", words=layout.word_count,
                          cw=max(1, layout.word_count.bit_length()))
    modules[store.name] = store
    text, extra = _top_text(top, graph, layout, comps, store.name, rings)
    for m in extra:
        modules.setdefault(m.name, m)
    modules[top] = render_fabric("fabric_top", top, dict(module=graph.name),
                                 f"fabric.module @{graph.name}", **text)
    return FabricRtl(top, tuple(modules.values()), layout, graph, master_ports(comps),
                     tuple((node.name, comp) for node, comp in comps))


def master_ports(comps: list) -> tuple[tuple[str, str, int], ...]:
    return tuple((d, f"{identifier(node.name)}_{sig}", bits)
                 for node, comp in comps for d, sig, bits in comp.master)


def _top_text(top: str, graph: AdgView, layout: FabricLayout,
              comps: list, store: str, comb_rings: bool) -> dict:
    w = _Wiring()
    names: dict[int, str] = {}
    widths: dict[int, int] = {}

    def declare(v: SSAValue, name: str) -> None:
        names[id(v)] = name
        widths[id(v)] = wire_width(v.type)
        w.channels.append((name, widths[id(v)]))

    ports_in, ports_out = [], []
    for k, a in enumerate(graph.args):
        if isinstance(a.type, MemRefType):
            continue
        declare(a, f"arg{k}")
        ports_in.append((f"in{k}", wire_width(a.type)))
        w.args.append(PortLink(f"in{k}", f"arg{k}", Ref(f"in{k}_data")))
    for node, _ in comps:
        for j, r in enumerate(node.outputs):
            declare(r, f"{identifier(node.name)}_r{j}")
    used_cfg: list[tuple[int, int]] = []
    for node, comp in comps:
        w.instances.append(_instance(w, graph, node, comp, names, widths, layout, used_cfg))
    for i, v in enumerate(graph.results):
        width = wire_width(v.type)
        ports_out.append((f"out{i}", width))
        src = names[id(v)]
        w.results.append(PortLink(f"out{i}", src,
                                  w.adapt(Ref(f"{src}_data"), widths[id(v)], width)))
    w.unused += _unused_cfg(layout.word_count * WORD_BITS, used_cfg)
    return dict(ports_in=ports_in, ports_out=ports_out, master=master_ports(comps), store=store,
                words=layout.word_count, comb_rings=comb_rings, channels=w.channels,
                args=w.args, instances=w.instances, results=w.results,
                unused=w.unused), list(w.modules.values())


def _instance(w: _Wiring, graph: AdgView, node, comp: Component, names: dict[int, str],
              widths: dict[int, int], layout: FabricLayout,
              used_cfg: list[tuple[int, int]]) -> TopInstance:
    inst = identifier(node.name)
    b = f"{inst}_io"
    data_inputs = [v for v in node.inputs if not isinstance(v.type, MemRefType)]
    inputs = []
    for k, v in enumerate(data_inputs):
        src, buffer = names[id(v)], None
        if (kind := graph.link_buffer(node, v)) is not None:
            buffer = _hop_buffer(w, f"{inst}_{kind}{k}", src, widths[id(v)])
        if buffer is not None:
            src = buffer.name
        data = w.adapt(Ref(f"{src}_data"), widths[id(v)], comp.w_in)
        inputs.append(InLane(k, src, data, buffer))
    outputs = []
    for j, r in enumerate(node.outputs):
        lane = Ref(f"{b}_out_data", j * comp.w_out + comp.w_out - 1, j * comp.w_out)
        outputs.append(OutLane(j, names[id(r)], w.adapt(lane, comp.w_out, widths[id(r)])))
    cfg = None
    if comp.cfg_bits:
        lo = layout.slice(node.name).word_offset * WORD_BITS
        used_cfg.append((lo, comp.cfg_bits))
        cfg = (lo + comp.cfg_bits - 1, lo)
    return TopInstance(comp, inst, tuple(inputs), tuple(outputs), cfg)


def _hop_buffer(w: _Wiring, name: str, src: str, width: int) -> HopBuffer:
    """A two-slot buffer (registered valid and ready, our fifo unit) where
    AdgView.link_buffer puts one. On a backward switch-to-switch link:
    switches are combinational; every ring of switches has a backward link,
    so it gets a register on both paths there, while a route that only goes
    forward crosses its switches in the cycle it leaves its PE (a register
    on every link cost one cycle per hop).

    After a del_tag (one lane of a memory's tagged result family, after
    the tag split): the lanes share the memory's port, whose
    head waits until its own lane takes it; a consumer that needs a token of
    another lane first (a join of two load lanes' done tokens) would hold
    that token behind its own, a head-of-line deadlock the direct flow's
    separate ports never have. The buffer takes the head off the shared port
    while its lane's consumer waits."""
    module, text = render_unit("fifo", slots=LINK_BUFFER_SLOTS, w=width,
                               origin="switch-to-switch link buffer")
    w.modules.setdefault(module, Module(module, text))
    return HopBuffer(module, name, src, width)


def _unused_cfg(total: int, used: list[tuple[int, int]]) -> list[Expr]:
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
        ranges.append(Ref("cfg_bits", k - 1, start))
    return ranges
