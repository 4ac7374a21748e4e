"""The simulation harness of a kernel: tb_<name> (templates/kernel_tb.sv.j2),
the memory images and the plusargs of one run."""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

from loom.bundle import Bundle, bits
from loom.rtl.netlist import Netlist
from loom.rtl.units import master_signals
from loom.rtl.render import template_environment
from loom.sim.profiles import RunSettings

ROOT = Path(__file__).resolve().parents[3]
MEM_MODEL = ROOT / "rtl" / "loom_mem_model.sv"


@dataclass
class MemoryPort:
    prefix: str
    arg_index: int
    depth: int
    w: int
    aw: int
    signals: tuple[str, ...]
    """The master port's request and response wires, without the prefix."""


def memory_ports(net: Netlist) -> list[MemoryPort]:
    out = []
    for prefix, inst, arg in net.memories:
        ctx = inst.spec.context
        # mem_idle stays inside the kernel top (its done waits for it)
        signals = tuple(sig for _, sig, _ in master_signals(inst.spec) if sig != "mem_idle")
        out.append(MemoryPort(prefix, arg, ctx["depth"], ctx["w"], ctx["dw"], signals))
    return out


def render_tb(net: Netlist, top_module: str, invocations: int = 1) -> tuple[str, str]:
    """(module name, text) of the harness around `top_module`, running
    `invocations` invocations back to back."""
    module = f"tb_{net.name}"
    text = template_environment().get_template("kernel_tb.sv.j2").render(
        name=net.name, top=top_module, inputs=net.inputs, outputs=net.outputs,
        invocations=invocations, memories=memory_ports(net))
    return module, text


def run_plusargs(net: Netlist, bundle: Bundle, run_dir: Path,
                 settings: RunSettings) -> list[str]:
    """Plusargs of one run; writes the scalars' values (one line per
    invocation) and the memory images into run_dir."""
    args = [f"+loom_seed={settings.seed}", f"+loom_in_idle_pct={settings.in_idle_pct}",
            f"+loom_out_ready_pct={settings.out_ready_pct}",
            f"+loom_mem_ready_pct={settings.mem_ready_pct}",
            f"+loom_mem_max_latency={settings.mem_max_latency}",
            f"+loom_watchdog={settings.watchdog}", f"+loom_drain={settings.drain}",
            f"+loom_trace={run_dir / 'trace.bin'}", f"+loom_summary={run_dir / 'summary.txt'}",
            f"+loom_progress={run_dir / 'progress.txt'}"]
    for p in net.inputs:
        if not p.width or p.arg_index is None or bundle.scalar(p.arg_index) is None:
            continue
        values = [bundle.scalar(p.arg_index, k) for k in range(bundle.start_token_count)]
        image = run_dir / f"in_{p.name}.hex"
        image.write_text("".join(f"{bits(v, p.width):x}\n" for v in values))
        args.append(f"+loom_scalar_{p.name}={image}")
    for m in memory_ports(net):
        region = bundle.region(m.arg_index)
        image = run_dir / f"mem_{m.prefix}.hex"
        values = region.values if region else []
        image.write_text("".join(f"{bits(v, m.w):x}\n" for v in values))
        args += [f"+loom_mem_{m.prefix}={image}", f"+loom_memout_{m.prefix}={run_dir / f'out_{m.prefix}.hex'}"]
    return args
