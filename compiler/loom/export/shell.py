"""The AXI shell around a kernel top (templates/axi_shell.sv.j2) and the
AXI4 master of each array argument (templates/axi_master.sv.j2).

The shell reads the kernel's Netlist for its ports (scalar arguments, the
start token, results, done, the master port of each extmemory bridge) and
the RegisterMap for where each value lives. AXI4's signals are listed once
here (AXI4_SIGNALS) for both templates.
"""

from __future__ import annotations

from dataclasses import dataclass

from loom.diagnostics import LoomError
from loom.export.register_map import RegisterMap, Value
from loom.rtl.netlist import Netlist
from loom.rtl.render import template_environment
from loom.rtl.units import ExternalMemory

# How many beats an AXI4 master keeps in flight: enough for a memory that
# answers every cycle after a few cycles of latency.
MASTER_DEPTH = 8
# The kernel's bridges see a memory that answers AR in 2 cycles
# (cocotbext-axi's AxiRam, a block RAM behind a register slice), the master
# passing a read out in its beat's cycle and its data back in R's: 2 cycles
# from a beat's acceptance to its response, 1 for the test harness's memory.
AXI_MEMORY = ExternalMemory(in_flight=MASTER_DEPTH, latency=2)


def axi4_signals(data_bits: int) -> list[tuple[str, str, int]]:
    """(direction seen from the master, signal, bits) of an AXI4 master port
    with 64-bit addresses and a 1-bit ID: the names of Vitis HLS's m_axi."""
    out, inp = "output", "input "
    return [
        (out, "awvalid", 1), (inp, "awready", 1), (out, "awaddr", 64), (out, "awid", 1),
        (out, "awlen", 8), (out, "awsize", 3), (out, "awburst", 2), (out, "awlock", 1),
        (out, "awcache", 4), (out, "awprot", 3), (out, "awqos", 4), (out, "awregion", 4),
        (out, "wvalid", 1), (inp, "wready", 1), (out, "wdata", data_bits),
        (out, "wstrb", data_bits // 8), (out, "wlast", 1),
        (inp, "bvalid", 1), (out, "bready", 1), (inp, "bid", 1), (inp, "bresp", 2),
        (out, "arvalid", 1), (inp, "arready", 1), (out, "araddr", 64), (out, "arid", 1),
        (out, "arlen", 8), (out, "arsize", 3), (out, "arburst", 2), (out, "arlock", 1),
        (out, "arcache", 4), (out, "arprot", 3), (out, "arqos", 4), (out, "arregion", 4),
        (inp, "rvalid", 1), (out, "rready", 1), (inp, "rdata", data_bits), (inp, "rid", 1),
        (inp, "rresp", 2), (inp, "rlast", 1),
    ]


@dataclass(frozen=True)
class Master:
    """The AXI4 master of one array argument."""

    name: str            # the argument's name: the port prefix m_axi_<name>_
    prefix: str          # the kernel top's master port prefix
    module: str
    iw: int              # element index bits
    width: int           # element bits
    base: str            # the base address register, as an expression
    idle: bool = False   # the core reports `<prefix>_mem_idle` (ap_done waits for it)

    @property
    def elem_bytes(self) -> int:
        return 1 << max(0, (self.width - 1).bit_length() - 3)

    @property
    def data_bits(self) -> int:
        return max(32, 8 * self.elem_bytes)

    @property
    def signals(self) -> list[tuple[str, str, int]]:
        return axi4_signals(self.data_bits)


@dataclass(frozen=True)
class Shell:
    module: str
    text: str
    masters: tuple[Master, ...]
    master_texts: dict[str, str]   # master module -> its text


def _reg(name: str) -> str:
    """A register's value in PeakRDL-regblock's hwif (its SystemVerilog names)."""
    from peakrdl_regblock.identifier_filter import kw_filter
    return f"hwif_out.{kw_filter(name)}.data.value"


def _read_value(v: Value, width: int, unused: list[str]) -> str:
    """The register bits of argument `v` as a `width`-bit expression."""
    if v.words == 1:
        if width < 32:
            unused.append(f"{_reg(v.name)}[31:{width}]")
        return f"{_reg(v.name)}[{width - 1}:0]"
    lo, hi = v.registers
    if width < 64:
        unused.append(f"{_reg(hi)}[31:{width - 32}]")
    return f"{{{_reg(hi)}[{width - 33}:0], {_reg(lo)}}}"


def _result_registers(v: Value, width: int) -> list[tuple[str, int, int]]:
    """(register, low bit, bits) of result `v` of `width` bits."""
    from peakrdl_regblock.identifier_filter import kw_filter
    if v.words == 1:
        return [(kw_filter(v.name), 0, width)]
    lo, hi = v.registers
    return [(kw_filter(lo), 0, 32), (kw_filter(hi), 32, width - 32)]


@dataclass(frozen=True)
class CoreInput:
    port: str            # the core's input channel `<port>_*`
    width: int
    arg: int | None      # the argument it carries; None: the start token


@dataclass(frozen=True)
class CoreOutput:
    port: str
    width: int
    result: int | None   # the result it carries; None: the done token


@dataclass(frozen=True)
class CoreMaster:
    prefix: str          # the core's master port `<prefix>_mem_*`
    arg: int             # the array argument behind it
    iw: int              # element index bits
    width: int           # element bits
    idle: bool           # the core has `<prefix>_mem_idle` (a fabric's extmemory)


@dataclass(frozen=True)
class Core:
    """What the shell wraps: the kernel top or a configured fabric, as the
    channels and master ports the kernel uses, and how the rest is tied off."""

    module: str
    inputs: tuple[CoreInput, ...]
    outputs: tuple[CoreOutput, ...]
    masters: tuple[CoreMaster, ...]
    ties: tuple[str, ...] = ()                    # connections of unused ports
    dangling: tuple[tuple[str, int], ...] = ()    # (wire, bits) they drive, read by nobody
    config: bool = False                          # a fabric's configuration stream
    taps: tuple = ()                              # a fabric's input taps (fabric_harness.Tap)


def kernel_core(net: Netlist, top: str) -> Core:
    """The kernel top of `net` (loom.rtl.top): every port used."""
    inputs = tuple(CoreInput(p.name, p.width, p.arg_index if p.width else None)
                   for p in net.inputs)
    results = iter(range(len(net.outputs)))
    outputs = tuple(CoreOutput(p.name, p.width, None if p.name == "done" else next(results))
                    for p in net.outputs)
    masters = []
    for prefix, inst, arg in net.memories:
        fields = dict(inst.spec.port("mem_req").extras)
        masters.append(CoreMaster(prefix, arg, fields["raddr"], fields["wdata"], False))
    return Core(top, inputs, outputs, tuple(masters))


def fabric_core(rtl, bound, func) -> Core:
    """The fabric top of `rtl` (loom.fabric.rtl.top) with the ports the map
    bound (loom.sim.fabric_harness.Binding) to the kernel `func`; the other
    ports are tied off: inputs never valid, outputs always taken, master
    ports never ready and never answering."""
    from loom.sim.fabric_harness import fabric_memories, fabric_taps, top_ports

    ins, outs = top_ports(rtl)
    start = len(func.function_type.inputs.data) - 1
    done = len(func.function_type.outputs.data) - 1
    arg_of = {port: arg for arg, port in bound.inputs.items()}
    result_of = {port: res for res, port in bound.outputs.items()}
    inputs, outputs, masters, ties, dangling = [], [], [], [], []
    for p in ins:
        arg = arg_of.get(p.name)
        if arg is None:
            ties += [f".{p.name}_data('0)", f".{p.name}_valid(1'b0)",
                     f".{p.name}_ready({p.name}_ready_unused)"]
            dangling.append((f"{p.name}_ready_unused", 1))
        else:
            inputs.append(CoreInput(p.name, p.width, None if arg == start else arg))
    for p in outs:
        res = result_of.get(p.name)
        if res is None:
            ties += [f".{p.name}_data({p.name}_data_unused)",
                     f".{p.name}_valid({p.name}_valid_unused)", f".{p.name}_ready(1'b1)"]
            dangling += [(f"{p.name}_data_unused", p.width), (f"{p.name}_valid_unused", 1)]
        else:
            outputs.append(CoreOutput(p.name, p.width, None if res == done else res))
    arg_of_memory = {name: arg for arg, name in bound.memories.items()}
    signals = {name: (d, bits) for d, name, bits in rtl.master}
    for mem in fabric_memories(rtl):
        arg = arg_of_memory.get(mem.name)
        if arg is not None:
            iw = signals[f"{mem.name}_mem_req_raddr"][1]
            masters.append(CoreMaster(mem.name, arg, iw, mem.w, True))
            continue
        for name, (d, bits) in signals.items():
            if name.startswith(f"{mem.name}_mem_"):
                if d == "in":
                    ties.append(f".{name}('0)")
                else:
                    ties.append(f".{name}({name}_unused)")
                    dangling.append((f"{name}_unused", bits))
    return Core(rtl.top, tuple(inputs), tuple(outputs), tuple(masters), tuple(ties),
                tuple(dangling), config=True, taps=tuple(fabric_taps(rtl)))


def render_shell(core: Core, regs: RegisterMap, csr_module: str, addr_bits: int) -> Shell:
    """The shell module `<kernel>_axi` around `core`."""
    unused: list[str] = [w for w, _ in core.dangling]
    by_arg = {v.index: v for v in regs.args}
    inputs = []
    for p in core.inputs:
        if p.arg is None:      # the start token (a fabric's port has data bits too)
            inputs.append(dict(name=p.port, width=p.width, value="'0"))
            continue
        v = by_arg[p.arg]
        bits = min(p.width, v.width)
        value = _read_value(v, bits, unused)
        inputs.append(dict(name=p.port, width=p.width,
                           value=value if bits == p.width else f"{p.width}'({value})"))
    outputs = []
    for i, p in enumerate(core.outputs):
        regs_of = []
        if p.result is None and p.width:    # the done token on a port with data bits
            unused.append(f"{p.port}_data")
        if p.result is not None:
            v = regs.results[p.result]
            regs_of = _result_registers(v, min(p.width, v.width))
            if p.width > v.width:
                unused.append(f"{p.port}_data[{p.width - 1}:{v.width}]")
        outputs.append(dict(name=p.port, width=p.width, index=i, registers=regs_of))
    masters = []
    for m in core.masters:
        v = by_arg[m.arg]
        lo, hi = v.registers
        masters.append(Master(v.name, m.prefix, f"loom_axi_master_i{m.iw}_w{m.width}", m.iw,
                              m.width, f"{{{_reg(hi)}, {_reg(lo)}}}", m.idle))
    if len({m.name for m in masters}) != len(masters):
        raise LoomError(f"{regs.kernel}: an array argument has two memory interfaces; "
                        "the AXI shell takes one per array")
    from loom.sim.fabric_harness import TAG_SHIFT   # the harness's records, the same ids

    env = template_environment()
    module = f"{regs.kernel}_axi"
    text = env.get_template("axi_shell.sv.j2").render(
        module=module, kernel=regs.kernel, top=core.module, csr=csr_module, addr_bits=addr_bits,
        inputs=inputs, outputs=outputs, masters=masters, unused=unused, ties=core.ties,
        dangling=core.dangling, config=core.config, taps=core.taps, tag_shift=TAG_SHIFT)
    texts = {m.module: env.get_template("axi_master.sv.j2").render(
        module=m.module, iw=m.iw, width=m.width, elem_bytes=m.elem_bytes,
        data_bits=m.data_bits, depth=MASTER_DEPTH, axi_signals=m.signals) for m in masters}
    return Shell(module, text, tuple(masters), texts)
