"""The control registers as SystemRDL, and what PeakRDL makes of them.

`write_csr` renders the register map (register_map.py) as
<kernel>_control.rdl (templates/export_control.rdl.j2) and runs PeakRDL on
it: regblock for the CSR block with its AXI4-Lite slave (flattened ports,
synchronous active-high reset like the kernel's), cheader for the C
header, html for the register pages. The generated SystemVerilog is
PeakRDL's; its Verilator lint waivers go into <kernel>_csr.vlt (PeakRDL
writes struct members from several always_comb blocks and leaves the
AXI4-Lite protection bits unread), so a -Wall lint of the folder stays clean
on our own files and quiet on PeakRDL's.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

from loom.diagnostics import LoomError, Location
from loom.export.register_map import ACCESSES, RegisterMap
from loom.rtl.render import template_environment

# SystemRDL properties of each access kind of the map. An event bit the
# block sets (COR, TOW) has `precedence = hw`: a read that clears it in the
# cycle the event sets it must not lose the event (the read returns the old
# value; Vitis HLS's control block gives the set priority the same way).
# Found by the AXI test under stall seed 2: a poll of CTRL in ap_done's
# cycle of setting left the host waiting forever.
PROPERTIES = {
    "rw": "sw = rw; hw = r;",
    "rw/coh": "sw = rw; hw = r; hwclr;",
    "r": "sw = r; hw = w;",
    "r/cor": "sw = r; hw = na; hwset; rclr; precedence = hw;",
    "rw/tow": "sw = rw; hw = r; onwrite = wot; hwset; precedence = hw;",
    "r/we": "sw = r; hw = w; we;",
}
assert set(PROPERTIES) == set(ACCESSES)

WAIVED = ("MULTIDRIVEN", "UNUSEDSIGNAL", "UNUSEDPARAM")


@dataclass(frozen=True)
class CsrFiles:
    rdl: Path
    module: str          # the CSR block's module name
    package: Path        # its SystemVerilog package (hwif structs)
    rtl: Path
    header: Path
    html: Path           # the register pages' folder
    waivers: Path        # Verilator configuration for PeakRDL's files


def render_rdl(regs: RegisterMap) -> str:
    return template_environment().get_template("export_control.rdl.j2").render(
        map=regs, properties=PROPERTIES)


def write_csr(regs: RegisterMap, out_dir: Path) -> CsrFiles:
    """The .rdl in out_dir and PeakRDL's outputs for `regs`: the CSR block in
    out_dir/rtl, the C header in out_dir/driver, the pages in out_dir/html."""
    from peakrdl_cheader.c_standards import CStandard
    from peakrdl_cheader.exporter import CHeaderExporter
    from peakrdl_html import HTMLExporter
    from peakrdl_regblock import RegblockExporter
    from peakrdl_regblock.cpuif.axi4lite import AXI4Lite_Cpuif_flattened
    from peakrdl_regblock.udps import ALL_UDPS
    from systemrdl import RDLCompileError, RDLCompiler

    rtl, driver = out_dir / "rtl", out_dir / "driver"
    for d in (rtl, driver):
        d.mkdir(parents=True, exist_ok=True)
    rdl = out_dir / f"{regs.kernel}_control.rdl"
    rdl.write_text(render_rdl(regs))
    compiler = RDLCompiler()
    for udp in ALL_UDPS:
        compiler.register_udp(udp)
    try:
        compiler.compile_file(str(rdl))
        root = compiler.elaborate()
    except RDLCompileError as e:   # the compiler printed where; we say what
        raise LoomError(f"SystemRDL of the register map does not compile: {e}",
                        Location(str(rdl))) from None
    module = f"{regs.kernel}_csr"
    RegblockExporter().export(root, str(rtl), cpuif_cls=AXI4Lite_Cpuif_flattened,
                              module_name=module)
    header = driver / f"{module}.h"
    # gnu11: the struct is packed (a GNU attribute) and size-checked with
    # C11's static_assert; GCC and Clang take it, as do most embedded compilers
    CHeaderExporter().export(root, str(header), std=CStandard.gnu11)
    html = out_dir / "html"
    HTMLExporter().export(root, str(html))
    waivers = rtl / f"{module}.vlt"
    waivers.write_text("`verilator_config\n// PeakRDL-regblock's generated files (see loom/export/csr.py)\n"
                       + "".join(f'lint_off -rule {rule} -file "*/{module}*.sv"\n'
                                 for rule in WAIVED))
    return CsrFiles(rdl, module, rtl / f"{module}_pkg.sv", rtl / f"{module}.sv",
                    header, html, waivers)
