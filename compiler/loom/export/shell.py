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
# The kernel's bridges see the master's two registers (a beat into its
# entry, R into the entry) around a memory that answers AR in 2 cycles
# (cocotbext-axi's AxiRam, a block RAM behind a register slice): 4 cycles
# from a beat's acceptance to its response, 1 for the test harness's memory.
AXI_MEMORY = ExternalMemory(in_flight=MASTER_DEPTH, latency=4)


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


def render_shell(net: Netlist, top: str, regs: RegisterMap, csr_module: str,
                 addr_bits: int) -> Shell:
    """The shell module `<kernel>_axi` around kernel top `top`."""
    unused: list[str] = []
    by_arg = {v.index: v for v in regs.args}
    inputs = []
    for p in net.inputs:
        if p.width == 0:      # the start token
            inputs.append(dict(name=p.name, width=0))
            continue
        v = by_arg[p.arg_index]
        inputs.append(dict(name=p.name, width=p.width, value=_read_value(v, p.width, unused)))
    outputs = []
    results = iter(regs.results)
    for i, p in enumerate(net.outputs):
        regs_of = _result_registers(next(results), p.width) if p.width else []
        outputs.append(dict(name=p.name, width=p.width, index=i, registers=regs_of))
    masters = []
    for prefix, inst, arg in net.memories:
        fields = dict(inst.spec.port("mem_req").extras)
        v = by_arg[arg]
        iw, width = fields["raddr"], fields["wdata"]
        lo, hi = v.registers
        masters.append(Master(v.name, prefix, f"loom_axi_master_i{iw}_w{width}", iw, width,
                              f"{{{_reg(hi)}, {_reg(lo)}}}"))
    if len({m.name for m in masters}) != len(masters):
        raise LoomError(f"{net.name}: an array argument has two memory interfaces; "
                        "the AXI shell takes one per array")
    env = template_environment()
    module = f"{regs.kernel}_axi"
    text = env.get_template("axi_shell.sv.j2").render(
        module=module, kernel=regs.kernel, top=top, csr=csr_module, addr_bits=addr_bits,
        inputs=inputs, outputs=outputs, masters=masters, unused=unused)
    texts = {m.module: env.get_template("axi_master.sv.j2").render(
        module=m.module, iw=m.iw, width=m.width, elem_bytes=m.elem_bytes,
        data_bits=m.data_bits, depth=MASTER_DEPTH, axi_signals=m.signals) for m in masters}
    return Shell(module, text, tuple(masters), texts)
