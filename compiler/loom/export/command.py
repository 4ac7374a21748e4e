"""`loom export K -o DIR`: the kernel as an IP folder (package.py)."""

from __future__ import annotations

import argparse
from pathlib import Path

from loom.export.package import export_ip
from loom.frontend.driver import kernel_name, resolve_kernel
from loom.inputs import KernelSource


def export_main(args: argparse.Namespace) -> int:
    source = KernelSource.from_args(args)
    out = Path(args.out_dir) if args.out_dir else \
        Path("gen") / kernel_name(resolve_kernel(args.kernel)) / "ip"
    if args.adg is not None:
        from loom.export.package import export_fabric_ip
        from loom.mapper.command import map_request
        ip = export_fabric_ip(map_request(args, args.map_seed, args.map_rounds), out)
    else:
        ip = export_ip(source, out)
    print(f"export: {ip.out_dir}/ (top {ip.shell.module}, {len(ip.files)} SystemVerilog files "
          f"in {ip.file_list.name})")
    print(f"        registers {ip.csr.rdl.name}: {len(ip.registers.args)} argument(s), "
          f"{len(ip.registers.results)} result(s), {ip.registers.end} bytes; "
          f"driver {ip.driver[0].parent.name}/{ip.driver[1].name}")
    if ip.config_words:
        print(f"        fabric configuration: {len(ip.config_words)} words for s_axis_config "
              f"(tb/job.json)")
    return 0


def sim_axi_main(args: argparse.Namespace) -> int:
    """`loom sim K --iface axi`: the exported IP under cocotbext-axi (loom.export.sim)."""
    from loom.export.sim import axi_run, axi_setup

    source = KernelSource.from_args(args)
    name = kernel_name(resolve_kernel(args.kernel))
    out = Path(args.out_dir) if args.out_dir else Path("gen") / name
    print(f"sim: {name}: export to {out / 'ip'}, golden run, Verilator build", flush=True)
    from loom.mapper.command import map_request
    s = axi_setup(source, out / "ip", adg=map_request(args, args.map_seed, args.map_rounds)
                  if args.adg is not None else None)
    run = "ideal (no AXI pauses)" if args.ideal else f"seed {args.seed}"
    print(f"sim: running {run} through AxiLiteMaster and AxiRam", flush=True)
    result = axi_run(s, args.seed, args.ideal)
    verdict = "PASS" if result.passed else "FAIL"
    cycles = ", ".join(map(str, result.cycles)) or "none"
    print(f"{verdict}: {name} axi {'ideal' if args.ideal else f'seed {args.seed}'}: "
          f"ap_start to ap_done {cycles} cycles (build {s.build_seconds:.1f} s, "
          f"simulate {result.report['seconds']['simulate']:.1f} s)")
    for line in result.problems[:10]:
        print(f"  {line}")
    if s.edges is not None:
        print(f"  {result.report['edges_compared']} DFG edges of the fabric compared where "
              "their routes end (PE and memory inputs; the results by the scoreboard)")
    print(f"  report {result.report_path}; IP folder {s.ip.out_dir}")
    return 0 if result.passed else 1


def fpga_main(args: argparse.Namespace) -> int:
    """`loom fpga K`: the exported IP (or with --no-shell the kernel top) on an ECP5."""
    from loom.export.fpga import ECP5_85K, implement
    from loom.golden.run import find_func
    from loom.inputs import prepare
    from loom.ir import load_module
    from loom.rtl.command import write_rtl

    source = KernelSource.from_args(args)
    name = kernel_name(resolve_kernel(args.kernel))
    out = Path(args.out_dir) if args.out_dir else Path("gen") / name
    if args.shell:
        ip = export_ip(source, out / "ip")
        workdir, sources, top, net = ip.out_dir, ["-f", ip.file_list.name], ip.shell.module, \
            ip.netlist
    else:
        inputs = prepare(source, need_bundle=False)
        func = find_func(load_module(inputs.dfg), args.top, str(inputs.dfg))
        arts = write_rtl(func, str(inputs.dfg), inputs.out_dir, inputs.name)
        workdir, sources, top, net = arts.file_list.parent, ["-f", arts.file_list.name], \
            arts.top_module, arts.netlist
    print(f"fpga: {top} on {ECP5_85K.name} at {args.freq:g} MHz (Yosys synth_ecp5, "
          "nextpnr-ecp5 out of context)", flush=True)
    fig = implement(workdir, sources, top, freq=args.freq)
    origins = {f"u_kernel.{i.name}" if args.shell else i.name: i.origin for i in net.instances}
    print(f"fpga: {top}: {fig.luts} LUT4, {fig.ffs} FF, {fig.dsps} DSP (MULT18X18D), "
          f"{fig.brams} BRAM (DP16KD), {fig.lutram} LUT RAM; Fmax {fig.fmax_mhz:.1f} MHz "
          f"({'meets' if fig.fmax_mhz >= args.freq else 'misses'} {args.freq:g} MHz); "
          f"{fig.seconds:.0f} s")
    print("  critical path through: " + " -> ".join(
        f"{u} ({origins[u]})" if u in origins else u for u in fig.critical))
    return 0
