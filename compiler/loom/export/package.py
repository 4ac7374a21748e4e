"""`loom export`'s folder: the kernel as an IP block an integrator takes as it is.

    DIR/rtl/            the kernel top and its units, the AXI masters, the
                        CSR block (PeakRDL) and the shell <kernel>_axi
    DIR/<kernel>.f      the file list, packages first, the shell last
    DIR/<kernel>_control.rdl, DIR/html/   the register map and its pages
    DIR/driver/         <kernel>_csr.h (PeakRDL-cheader) and a host driver
    DIR/README.md       ports, clock and reset, register map, memory, latency
    DIR/tb/             the pyuvm kit, its job (the native run's invocations)
                        and tb/run_kit.py
    DIR/build/          the compile's intermediate files and sim bundle
"""

from __future__ import annotations

import json
import os
import shutil
from dataclasses import dataclass, replace
from pathlib import Path

from xdsl.dialects.builtin import MemRefType
from xdsl.ir import Operation
from xdsl.utils.hints import isa

from loom.dialects.channel_types import data_type, data_width
from loom.export.csr import CsrFiles, write_csr
from loom.export.register_map import Param, RegisterMap, register_map
from loom.export.shell import (AXI_MEMORY, MASTER_DEPTH, Core, Shell, fabric_core, kernel_core,
                               render_shell)
from loom.fabric.rtl.command import write_fabric_rtl
from loom.frontend.signature import Signature
from loom.golden.run import find_func
from loom.inputs import Inputs, KernelSource, prepare
from loom.mapper.kernel_map import MapRequest
from loom.ir import load_module
from loom.rtl.command import write_rtl
from loom.rtl.netlist import Netlist
from loom.rtl.render import template_environment
from loom.sim.fabric_edges import EdgeMap, edge_map


# the pyuvm kit (tb/), copied into the folder's tb/ (tb/axi_kit_env.py says what is what)
KIT_MODULES = ("axi_lite_agent", "control_regs", "axi_memory_agent", "kernel_scoreboard",
               "kernel_sequences", "axi_kit_env", "axi_uvm_test")
KIT_SOURCE = Path(__file__).resolve().parents[3] / "tb"


@dataclass(frozen=True)
class KitFiles:
    folder: Path
    public: Path          # Verilator configuration: what cocotb may reach
    job: Path | None      # the native run's invocations (none without a bundle)
    runner: Path          # tb/run_kit.py


@dataclass(frozen=True)
class ExportedIp:
    out_dir: Path
    kernel: str
    shell: Shell               # the top module to instantiate and its masters
    registers: RegisterMap
    params: list[Param]        # the function's arguments, in order
    dfg: Path
    netlist: Netlist | None    # the kernel top's; None for a fabric
    file_list: Path
    files: tuple[Path, ...]    # the SystemVerilog, in compile order
    csr: CsrFiles
    driver: tuple[Path, Path]  # header, source
    readme: Path
    bundle: Path | None        # the native run's inputs and expectations
    expectations: str          # where they come from, for reports
    kit: KitFiles
    config_words: tuple[int, ...] = ()   # a fabric's configuration, for s_axis_config
    edges: EdgeMap | None = None         # a fabric's DFG edges, compared at its taps in simulation


def _is_float(t) -> bool:
    return type(t).__name__.startswith("Float")


def kernel_params(func: Operation, signature: Signature | None) -> tuple[list[Param], list[Param]]:
    """The function's arguments (without the start token) and results (without
    done) as the register map sees them, named from the C signature if known."""
    ftype = func.function_type
    args, outs = list(ftype.inputs.data[:-1]), list(ftype.outputs.data[:-1])
    names = [p.name for p in signature.params] if signature is not None else \
        func.arg_names or [f"arg{i}" for i in range(len(args))]
    params = []
    for name, t in zip(names, args):
        if isa(t, MemRefType):
            n = 1
            for d in t.get_shape():
                n *= d
            params.append(Param(name, data_width(t.element_type), True,
                                _is_float(t.element_type), n))
        else:
            params.append(Param(name, data_width(t), False, _is_float(data_type(t))))
    results = [Param("ap_return" if len(outs) == 1 else f"ap_return_{i}", data_width(t), False,
                     _is_float(data_type(t))) for i, t in enumerate(outs)]
    return params, results


@dataclass(frozen=True)
class _Compiled:
    """What the folder is made of: the kernel compiled (and for a fabric,
    mapped and configured) with the core the shell wraps."""

    inputs: Inputs
    func: Operation
    core: Core
    core_files: tuple[Path, ...]      # the core's SystemVerilog, in compile order
    netlist: Netlist | None           # the kernel top's (None for a fabric)
    config_words: tuple[int, ...] = ()
    edges: EdgeMap | None = None      # a fabric's DFG edges and the taps they end at


def export_ip(source: KernelSource, out_dir: Path) -> ExportedIp:
    """Compile `source` and write its IP folder (the kernel top in the shell) into out_dir."""
    inputs = prepare(replace(source, out_dir=out_dir / "build"), need_bundle=False)
    func = find_func(load_module(inputs.dfg), source.top, str(inputs.dfg))
    _clear(out_dir / "rtl")
    arts = write_rtl(func, str(inputs.dfg), out_dir, inputs.name, AXI_MEMORY)
    arts.file_list.unlink()   # the kernel-only list: the folder's list replaces it
    core = kernel_core(arts.netlist, arts.top_module)
    return _write_folder(_Compiled(inputs, func, core, (*arts.unit_files, arts.top_file),
                                   arts.netlist), out_dir)


def export_fabric_ip(req: MapRequest, out_dir: Path) -> ExportedIp:
    """Compile and map `req` onto its ADG and write the IP folder (the
    configured fabric in the shell, its configuration words for
    s_axis_config) into out_dir."""
    from loom.mapper.config_files import read_config_bin
    from loom.mapper.kernel_map import map_kernel
    from loom.sim.fabric_harness import binding, fabric_taps

    mapped = map_kernel(replace(req, source=replace(req.source, out_dir=out_dir / "build")))
    _clear(out_dir / "rtl")
    arts = write_fabric_rtl(mapped.target, out_dir)
    arts.file_list.unlink()
    words = read_config_bin(mapped.written.paths["config.bin"].read_bytes())
    core = fabric_core(arts.rtl, binding(mapped.mapping), mapped.func)
    edges = edge_map(mapped.mapping, mapped.func, fabric_taps(arts.rtl), str(mapped.inputs.dfg))
    return _write_folder(_Compiled(mapped.inputs, mapped.func, core, arts.files, None,
                                   tuple(words), edges), out_dir)


def _clear(folder: Path) -> None:
    if folder.exists():
        shutil.rmtree(folder)


def _write_folder(c: _Compiled, out_dir: Path) -> ExportedIp:
    name = c.inputs.name
    params, results = kernel_params(c.func, c.inputs.signature)
    regs = register_map(name, params, results)
    rtl_dir = out_dir / "rtl"
    csr = write_csr(regs, out_dir)
    shell = render_shell(c.core, regs, csr.module, regs.addr_bits)
    shell_files = [_write(rtl_dir / f"{m}.sv", t) for m, t in sorted(shell.master_texts.items())]
    shell_file = _write(rtl_dir / f"{shell.module}.sv", shell.text)
    files = (csr.package, *c.core_files, *shell_files, csr.rtl, shell_file)
    file_list = _write(out_dir / f"{name}.f",
                       "".join(f"{p.relative_to(out_dir)}\n" for p in files))
    driver = _write_driver(regs, csr, out_dir / "driver")
    env = template_environment()
    readme = _write(out_dir / "README.md", env.get_template("export_README.md.j2").render(
        map=regs, params=params, shell=shell, config=c.core.config,
        config_words=len(c.config_words), depth=MASTER_DEPTH,
        files=[p.relative_to(out_dir) for p in files],
        vlt=csr.waivers.relative_to(out_dir), addr_bits=regs.addr_bits))
    kit = _write_kit(out_dir, shell, regs, params, c.netlist, c.inputs.bundle, file_list,
                     csr.waivers, c.config_words)
    return ExportedIp(out_dir, name, shell, regs, params, c.inputs.dfg, c.netlist, file_list,
                      files, csr, driver, readme, c.inputs.bundle, c.inputs.expectations, kit,
                      c.config_words, c.edges)


def _write(path: Path, text: str) -> Path:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(text)
    return path


def _write_driver(regs: RegisterMap, csr: CsrFiles, out: Path) -> tuple[Path, Path]:
    """The host driver beside PeakRDL's header (templates/export_driver.*.j2)."""
    from peakrdl_cheader.identifier_filter import kw_filter   # the header's C names
    env = template_environment()
    ctx = dict(map=regs, csr_header=csr.header.name, c_name=kw_filter)
    h = _write(out / f"{regs.kernel}_driver.h", env.get_template("export_driver.h.j2").render(**ctx))
    c = _write(out / f"{regs.kernel}_driver.c", env.get_template("export_driver.c.j2").render(**ctx))
    return h, c


def _write_kit(out_dir: Path, shell: Shell, regs: RegisterMap, params: list[Param],
               net: Netlist | None, bundle: Path | None, file_list: Path, waivers: Path,
               config_words: tuple[int, ...]) -> KitFiles:
    """The pyuvm kit in out_dir/tb: its modules, the job of the native run's
    invocations, what cocotb may reach, and a runner script."""
    tb = out_dir / "tb"
    tb.mkdir(parents=True, exist_ok=True)
    _write(tb / "__init__.py", "")
    for m in KIT_MODULES:
        shutil.copyfile(KIT_SOURCE / f"{m}.py", tb / f"{m}.py")
    # cocotb reaches the shell's ports and the kernel's watchdog only; the
    # rest stays private, which Verilator simulates fastest
    watchdog = f'public_flat_rw -module "{net.name}_top" -var "loom_deadlock"\n' if net else ""
    public = _write(tb / "public.vlt", "`verilator_config\n"
                    f'public_flat_rw -module "{shell.module}" -var "*"\n' + watchdog)
    job = None
    if bundle is not None:
        from loom.bundle import load_bundle
        from loom.export.kit_job import kit_job
        data = kit_job(regs, shell.masters, params, load_bundle(bundle),
                       Path(os.path.relpath(bundle, tb)), seed=1, ideal=False,
                       config_words=config_words)
        job = _write(tb / "job.json", json.dumps(data))
    runner = _write(tb / "run_kit.py", template_environment().get_template(
        "export_run_kit.py.j2").render(shell=shell.module, file_list=file_list.name,
                                       waivers=waivers.relative_to(out_dir)))
    return KitFiles(tb, public, job, runner)
