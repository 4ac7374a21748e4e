"""The job of the pyuvm kit (tb/axi_uvm_test.py): one JSON file that says
what to run on an exported kernel.

    registers      name -> byte offset (the control registers, every
                   argument's and result's words)
    bits           "CTRL.ap_done" -> bit position, of the fields the kit uses
    arrays         per AXI4 master: name, argument index, base address,
                   bytes per element, initial contents
    invocations    per invocation, per argument: its registers and value
    results        per result: its registers; result_widths its bits
    bundle         the sim bundle the scoreboard compares against
    seed, busy     the pause generators' seed and share of busy cycles
    config_words   a fabric's configuration, sent on s_axis_config first
    max_cycles     when an invocation is given up as a timeout

`loom export` writes one into the IP folder's tb/ (stall seed 1);
`loom sim --iface axi` one per run.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from loom.bundle import Bundle
from loom.export.register_map import Param, RegisterMap
from loom.export.shell import Master
from loom.sim.profiles import for_seed

# without a golden run to bound it: enough for any kernel of kernels/
DEFAULT_MAX_CYCLES = 50_000_000


def array_base(k: int) -> int:
    """Where the kit puts array k: above 4 GiB, so the high base word matters."""
    return ((k + 1) << 32) | (k + 1) << 12


def kit_job(regs: RegisterMap, masters: tuple[Master, ...], params: list[Param],
            bundle: Bundle, bundle_path: Path, seed: int, ideal: bool,
            max_cycles: int = DEFAULT_MAX_CYCLES,
            config_words: tuple[int, ...] = ()) -> dict[str, Any]:
    elem_bytes = {m.name: m.elem_bytes for m in masters}
    scalars = {si.arg_index: si.data for si in bundle.scalar_inputs}
    regions = {r.memref_arg_index: r.values for r in bundle.memory_regions}
    arrays, bases = [], {}
    for k, v in enumerate(a for a in regs.args if a.is_array and a.name in elem_bytes):
        bases[v.name] = array_base(k)
        values = regions.get(v.index) or [0] * params[v.index].elements
        arrays.append(dict(name=v.name, base=bases[v.name], elem_bytes=elem_bytes[v.name],
                           values=values, index=v.index))
    invocations = []
    for k in range(bundle.start_token_count):
        args = []
        for v in regs.args:
            value = bases.get(v.name, 0) if v.is_array else scalars[v.index][k] & ((1 << v.width) - 1)
            args.append(dict(registers=list(v.registers), value=value))
        invocations.append(args)
    # the control bits the sequences use, from the one register map
    bits = {f"{r}.{f}": regs.bit(r, f) for r, f in (
        ("CTRL", "ap_start"), ("CTRL", "ap_done"), ("CTRL", "ap_idle"), ("ISR", "ap_done"), ("IER", "ap_done"))}
    # the share of cycles each AXI channel pauses: the seed's memory profile
    busy = 0.0 if ideal else (100 - for_seed(seed).mem_ready_pct) / 100
    return dict(registers=regs.offsets(), bits=bits, arrays=arrays, invocations=invocations, seed=seed, busy=busy,
                results=[dict(registers=list(v.registers)) for v in regs.results],
                result_widths=[v.width for v in regs.results], bundle=str(bundle_path),
                max_cycles=max_cycles, config_words=list(config_words))
