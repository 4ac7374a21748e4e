"""The simulation harness of a fabric: tb_<adg>_fabric (templates/fabric_tb.sv.j2),
built once per ADG, and what binds one mapped kernel to it: which top port
carries which argument or result, which extmemory holds which memref, and
the plusargs and files of one run. The harness taps every PE and memory
input port of the ADG (kernel independent: one build serves every kernel); where a DFG edge
ends is the mapped kernel's business (loom.sim.fabric_edges)."""

from __future__ import annotations

import random
from dataclasses import dataclass
from math import prod
from pathlib import Path

from xdsl.dialects.builtin import MemRefType, NoneType
from xdsl.ir import Operation

from loom.bundle import Bundle, bits
from loom.diagnostics import LoomError, Location
from loom.dialects import fabric_syntax as fs
from loom.fabric.rtl.graph import tag_width, value_width, wire_width
from loom.fabric.rtl.modules import lane_width
from loom.fabric.rtl.top import FabricRtl
from loom.mapper.mapping import Mapping
from loom.rtl.render import identifier, template_environment
from loom.sim.profiles import RunSettings

MAX_INVOCATIONS = 64
"""Tokens an input port can hold (one per invocation)."""
MEM_DEPTH = 1 << 20
"""Elements of each memory model; a run bounds it to its memref's length."""


@dataclass(frozen=True)
class TopPort:
    name: str
    width: int


@dataclass(frozen=True)
class FabricMemory:
    name: str
    """The extmemory instance as an identifier: its master port prefix."""
    w: int


@dataclass(frozen=True)
class Binding:
    """Where one mapped kernel meets the fabric's top ports."""

    inputs: dict[int, str]
    """DFG argument index -> the input port the map routes it from (the start token too)."""
    outputs: dict[int, str]
    """DFG result index -> the output port it leaves by (the done token too)."""
    memories: dict[int, str]
    """memref argument index -> the extmemory (identifier) it is bound to."""


@dataclass(frozen=True)
class Tap:
    """One PE or memory input port the harness records: every transfer into it goes to
    the run's trace file (loom.sim.compare.RECORD) with `id` as its channel."""

    id: int
    pe: str
    """The instance (an identifier)."""
    port: int
    """Its data input index (lane)."""
    lo: int
    """Its lane's lowest bit in `<pe>_io_in_data`."""
    bits: int
    """The lane bits recorded (the value sits in the low bits; at most 64)."""
    tag_lo: int = 0
    tag_bits: int = 0
    """A tagged lane's tag bits (above its value): recorded in the record's
    channel id (tap_key), so the flows sharing the port stay apart."""


TAG_SHIFT, TAG_BITS = 20, 10
"""Where a tagged tap's tag sits in a trace record's channel id (below the
stuck and control flags of loom.sim.compare)."""


def tap_key(tap: int, tag: int = 0) -> int:
    """The trace channel id of tap `tap`'s transfers carrying `tag`."""
    return tap | tag << TAG_SHIFT


OUTLET_BASE = 1 << 19
"""The trace id of the first PE output port (an outlet): a token left there
after the last invocation is recorded with it (the taps' ids stay below)."""


@dataclass(frozen=True)
class Outlet:
    """A PE's output ports, as the end-of-run check of the harness reads them."""

    pe: str
    outputs: int
    base: int
    """The trace id of output 0 (output k: base + k)."""
    results: int = 0
    """A spatial PE's unit results (its KO demuxes; 0 for another PE): a
    result its demux disconnects stays in the unit for good
    (docs/fabric/spatial_pe.md), out of every port's sight."""
    held: int = 0
    """The trace id of result 0 held so (result k: held + k)."""


TAPPED = ("spatial_pe", "temporal_pe", "extmemory", "memory")
"""The nodes whose input ports end DFG edges' routes (a memory's: its address
and store data lanes)."""


def fabric_taps(rtl: FabricRtl) -> list[Tap]:
    """Every data input port of every PE and memory, in body order (a memref
    input is no port: lane k is the k-th other input)."""
    taps: list[Tap] = []
    for node in rtl.view.nodes:
        if node.kind not in TAPPED:
            continue
        data = [t for t in node.in_types if not isinstance(t, MemRefType)]
        lane = lane_width(node) if node.is_pe else max(wire_width(t) for t in data)
        for k, t in enumerate(data):
            tags = tag_width(t)
            if tags > TAG_BITS:
                raise LoomError(f"'{node.name}' input {k}: a {tags}-bit tag; the fabric "
                                f"harness records tags of at most {TAG_BITS} bits")
            bits = value_width(t) if tags else lane
            taps.append(Tap(len(taps), identifier(node.name), k, k * lane, min(bits, 64),
                            k * lane + bits if tags else 0, tags))
    if len(taps) > OUTLET_BASE:
        raise LoomError(f"{len(taps)} tapped ports: the fabric harness numbers at most "
                        f"{OUTLET_BASE}")
    return taps


def fabric_outlets(rtl: FabricRtl) -> list[Outlet]:
    """Every PE's output ports and a spatial PE's unit results, ids from
    OUTLET_BASE in body order."""
    outlets, base = [], OUTLET_BASE
    for node in rtl.view.nodes:
        if node.is_pe:
            results = max((len(fs.function_type(u.definition).outputs.data) for u in node.units),
                          default=0) if node.kind == "spatial_pe" else 0
            outputs = len(node.out_types)
            outlets.append(Outlet(identifier(node.name), outputs, base, results, base + outputs))
            base += outputs + results
    return outlets


def left_sites(rtl: FabricRtl) -> dict[int, str]:
    """Trace id -> where a token the harness found left after the last
    invocation sat: a tapped input (`pe_1_2 input 0`), a PE output, or a
    unit result a disconnected demux holds."""
    sites = {t.id: f"{t.pe} input {t.port}" for t in fabric_taps(rtl)}
    for o in fabric_outlets(rtl):
        sites.update({o.base + k: f"{o.pe} output {k}" for k in range(o.outputs)})
        sites.update({o.held + k: f"{o.pe} unit result {k} (its demux disconnected)"
                      for k in range(o.results)})
    return sites


def top_ports(rtl: FabricRtl) -> tuple[list[TopPort], list[TopPort]]:
    ins = [TopPort(f"in{k}", wire_width(a.type)) for k, a in enumerate(rtl.view.args)
           if not isinstance(a.type, MemRefType)]
    outs = [TopPort(f"out{i}", wire_width(v.type)) for i, v in enumerate(rtl.view.results)]
    return ins, outs


def fabric_memories(rtl: FabricRtl) -> list[FabricMemory]:
    suffix = "_mem_req_wdata"
    return [FabricMemory(name.removesuffix(suffix), bits)
            for _, name, bits in rtl.master if name.endswith(suffix)]


def render_fabric_tb(rtl: FabricRtl) -> tuple[str, str]:
    """(module name, text) of the harness around the fabric top."""
    ins, outs = top_ports(rtl)
    mems = fabric_memories(rtl)
    module = f"tb_{rtl.top}"
    text = template_environment().get_template("fabric_tb.sv.j2").render(
        top=rtl.top, inputs=ins, outputs=outs, memories=mems, cfg_words=max(1, rtl.layout.word_count),
        pes=[identifier(n.name) for n in rtl.view.nodes if n.kind == "spatial_pe"],
        taps=fabric_taps(rtl), outlets=fabric_outlets(rtl), tag_shift=TAG_SHIFT,
        max_invocations=MAX_INVOCATIONS, mem_depth=MEM_DEPTH,
        master=[name for _, name, _ in rtl.master])
    return module, text


def binding(m: Mapping) -> Binding:
    """The top ports and memories the map bound the kernel's arguments and results to."""
    inputs, outputs, memories = {}, {}, {}
    for node, option in zip(m.sw.nodes, m.placement.chosen):
        if option is None:
            continue
        hw = m.adg.nodes[option.hw_node]
        if node.kind == "input" and hw.kind == "module_in":
            inputs[node.index] = f"in{hw.index}"
        elif node.kind == "output" and hw.kind == "module_out":
            outputs[node.index] = f"out{hw.index}"
        elif node.kind == "memory" and hw.kind == "extmemory":
            for e in m.sw.in_edges(node.id):
                if e.is_memref:
                    arg = m.sw.nodes[e.src].index
                    if identifier(hw.name) in memories.values():
                        raise LoomError(f"extmemory '{hw.name}' holds several memrefs: "
                                        "not supported by loom sim --adg (each region "
                                        "would start at address 0)")
                    memories[arg] = identifier(hw.name)
        elif node.kind == "memory" and any(e.is_memref for e in m.sw.in_edges(node.id)):
            raise LoomError(f"memref bound to a fabric.{hw.kind} ('{hw.name}'): loom sim --adg "
                            "runs a memref argument on an extmemory only")
        # a fabric.memory hosting a local array (handshake.memory) needs no model:
        # its contents start undefined in C and never leave the kernel
    return Binding(inputs, outputs, memories)


def _memref_elements(func: Operation, arg: int, bundle: Bundle) -> int:
    region = bundle.region(arg)
    if region is not None:
        return len(region.values)
    t = func.regions[0].block.args[arg].type
    assert isinstance(t, MemRefType)
    return prod(t.get_shape())


def fabric_plusargs(b: Binding, func: Operation, bundle: Bundle, words: list[int],
                    run_dir: Path, settings: RunSettings, kernel: str,
                    port_widths: dict[str, int] | None = None) -> list[str]:
    """Plusargs of one run; writes the config words, the input tokens and the
    memory images into run_dir. A none-typed (control) input's tokens carry
    random bits of its port's width (`port_widths`, else 1), drawn from the
    seed: no check reads them, so a fault that hands a control token's data
    to a value (a swapped route, a wrong mux) shows, where all-zero data
    would pass for a constant 0."""
    n = bundle.start_token_count
    if n > MAX_INVOCATIONS:
        raise LoomError(f"{n} invocations: the fabric harness holds at most "
                        f"{MAX_INVOCATIONS}", Location(kernel))
    cfg = run_dir / "config.hex"
    cfg.write_text("".join(f"{w:08x}\n" for w in words))
    args = [f"+loom_seed={settings.seed}", f"+loom_in_idle_pct={settings.in_idle_pct}",
            f"+loom_out_ready_pct={settings.out_ready_pct}",
            f"+loom_mem_ready_pct={settings.mem_ready_pct}",
            f"+loom_mem_max_latency={settings.mem_max_latency}",
            f"+loom_watchdog={settings.watchdog}", f"+loom_drain={settings.drain}",
            f"+loom_invocations={n}", f"+loom_cfg={cfg}", f"+loom_cfg_words={len(words)}",
            f"+loom_outputs={run_dir / 'outputs.txt'}", f"+loom_trace={run_dir / 'trace.bin'}"]
    block_args = func.regions[0].block.args
    for arg, port in sorted(b.inputs.items()):
        t = block_args[arg].type
        if isinstance(t, NoneType):
            noise = random.Random(settings.seed * 1_000_003 + arg)
            values = [noise.getrandbits((port_widths or {}).get(port, 1)) for _ in range(n)]
        else:
            width = wire_width(t)
            values = [bits(bundle.scalar(arg, k) or 0, width) for k in range(n)]
        image = run_dir / f"in_{port}.hex"
        image.write_text("".join(f"{v:x}\n" for v in values))
        args.append(f"+loom_in_{port}={image}")
    args += [f"+loom_out_{port}" for port in sorted(b.outputs.values())]
    for arg, mem in sorted(b.memories.items()):
        region = bundle.region(arg)
        image = run_dir / f"mem_{mem}.hex"
        image.write_text("".join(f"{bits(v, 64):x}\n" for v in (region.values if region else [])))
        elements = _memref_elements(func, arg, bundle)
        if elements > MEM_DEPTH:
            raise LoomError(f"memref argument {arg} has {elements} elements; the fabric "
                            f"harness's memories hold {MEM_DEPTH}", Location(kernel))
        args += [f"+loom_mem_{mem}={image}", f"+loom_memout_{mem}={run_dir / f'out_{mem}.hex'}",
                 f"+loom_mem_elements_{mem}={elements}"]
    return args


def read_outputs(path: Path) -> dict[str, list[tuple[int, int]]]:
    """Port -> its (cycle, value) transfers, from the harness's +loom_outputs file."""
    out: dict[str, list[tuple[int, int]]] = {}
    if not path.exists():
        return out
    for line in path.read_text().splitlines():
        if line.startswith("#"):
            continue
        port, cycle, value = line.split()
        out.setdefault(port, []).append((int(cycle), int(value, 16)))
    return out


def read_config_end(path: Path) -> int | None:
    """The cycle the last config word was taken (the kernel starts after it),
    from the +loom_outputs file; None if the stream never ended."""
    if not path.exists():
        return None
    for line in path.read_text().splitlines():
        if line.startswith("# config "):
            return int(line.split()[2])
    return None
