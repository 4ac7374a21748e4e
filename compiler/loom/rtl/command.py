"""`loom rtl`: the kernel's SystemVerilog netlist, its units and a file list.

Writes DIR/rtl/<name>_top.sv, one file per specialized unit module and
DIR/rtl/<name>.f (relative paths, units first) for FPGA and ASIC flows.
"""

from __future__ import annotations

import argparse
from dataclasses import dataclass
from pathlib import Path

from xdsl.ir import Operation

from loom.diagnostics import LoomError
from loom.inputs import KernelSource, prepare
from loom.ir import load_module
from loom.golden.run import find_func
from loom.rtl.netlist import Netlist, build_netlist
from loom.rtl.render import render_spec
from loom.rtl.units import ExternalMemory
from loom.rtl.top import render_top


@dataclass
class RtlArtifacts:
    top_module: str
    top_file: Path
    file_list: Path
    unit_files: list[Path]
    netlist: Netlist


def write_rtl(func: Operation, source: str, out_dir: Path, name: str,
              memory: ExternalMemory = ExternalMemory()) -> RtlArtifacts:
    """The RTL of `func` (a handshake.func read from `source`) into out_dir/rtl/,
    for `memory` behind its master ports (loom.rtl.netlist.build_netlist)."""
    net = build_netlist(func, source, memory)
    rtl_dir = out_dir / "rtl"
    rtl_dir.mkdir(parents=True, exist_ok=True)
    units: dict[str, str] = {}
    for inst in net.instances:
        if inst.spec.module not in units:
            units[inst.spec.module] = render_spec(inst.spec, inst.origin)
    unit_files = []
    for mod, text in sorted(units.items()):
        path = rtl_dir / f"{mod}.sv"
        if not path.exists() or path.read_text() != text:
            path.write_text(text)
        unit_files.append(path)
    top_module, top_text = render_top(net, name, source)
    top_file = rtl_dir / f"{name}_top.sv"
    top_file.write_text(top_text)
    file_list = rtl_dir / f"{name}.f"
    file_list.write_text("".join(f"{p.name}\n" for p in unit_files) + f"{top_file.name}\n")
    return RtlArtifacts(top_module, top_file, file_list, unit_files, net)


def rtl_main(args: argparse.Namespace) -> int:
    if args.adg is not None:
        from loom.fabric.rtl.command import fabric_rtl_main
        return fabric_rtl_main(args)
    if args.kernel is None:
        raise LoomError("loom rtl: give a kernel K, or --adg A for the fabric RTL")
    args.bundle = None
    inputs = prepare(KernelSource.from_args(args), need_bundle=False)
    func = find_func(load_module(inputs.dfg), args.top, str(inputs.dfg))
    arts = write_rtl(func, str(inputs.dfg), inputs.out_dir, inputs.name)
    print(f"rtl: {arts.top_file} ({len(arts.netlist.instances)} instances, "
          f"{len(arts.unit_files)} unit modules, {arts.netlist.buffers} buffers)")
    print(f"     buffers placed by {arts.netlist.placement}")
    print(f"     file list {arts.file_list}")
    return 0
