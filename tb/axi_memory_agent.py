"""A pyuvm component holding one cocotbext-axi AxiRam per AXI4 master.

Each array of the job sits at its base address in its own AxiRam, filled
from the bundle's contents (little endian, the element's bytes); `dump`
reads the arrays back. The agent also counts, per master, the transfers
on AR, AW, R and B and the cycles a request waited for the memory
(xVALID && !xREADY), which the run's report carries, and checks every
accepted AR and AW against the sideband values a Vitis HLS m_axi adapter
drives (SIDEBAND): `problems` lists the first difference per signal.
"""

from __future__ import annotations

from cocotb.triggers import RisingEdge
from cocotbext.axi import AxiBus, AxiRam
from pyuvm import uvm_component

RAM_BYTES = 1 << 48   # a sparse memory; the test puts the arrays above 4 GiB
SIDEBAND = {"BURST": 0b01, "LOCK": 0, "CACHE": 0b0011, "PROT": 0b000, "QOS": 0, "REGION": 0}
"""AR and AW fields as Vitis HLS's m_axi adapter drives them (UG1399: INCR
bursts, its default CACHE_VALUE 0011 and PROT_VALUE 000; no exclusive
access, QoS or region): an interconnect or a memory controller that reads
them sees what it sees from an HLS block."""


class AxiMemoryAgent(uvm_component):
    def __init__(self, name, parent, dut, arrays: list[dict], clock, reset,
                 reset_active_level=False):
        super().__init__(name, parent)
        self.dut, self.arrays, self.clock = dut, arrays, clock
        self.rams: dict[str, AxiRam] = {}
        self.counts: dict[str, dict[str, int]] = {}
        self.problems: list[str] = []
        for a in arrays:
            ram = AxiRam(AxiBus.from_prefix(dut, f"m_axi_{a['name']}"), clock, reset,
                         reset_active_level=reset_active_level, size=RAM_BYTES)
            size, mask = a["elem_bytes"], (1 << (8 * a["elem_bytes"])) - 1
            ram.write(a["base"], b"".join((v & mask).to_bytes(size, "little")
                                          for v in a["values"]))
            self.rams[a["name"]] = ram
            self.counts[a["name"]] = {f"{ch}_{k}": 0 for ch in ("ar", "aw", "r", "b")
                                      for k in ("fire", "wait")}

    def channels(self) -> list:
        """Every channel of every AxiRam, for pause generators."""
        out = []
        for ram in self.rams.values():
            w, r = ram.write_if, ram.read_if
            out += [w.aw_channel, w.w_channel, w.b_channel, r.ar_channel, r.r_channel]
        return out

    def dump(self) -> dict[str, list[int]]:
        out = {}
        for a in self.arrays:
            size = a["elem_bytes"]
            data = self.rams[a["name"]].read(a["base"], size * len(a["values"]))
            out[a["name"]] = [int.from_bytes(data[i:i + size], "little")
                              for i in range(0, len(data), size)]
        return out

    async def run_phase(self) -> None:
        pins = {name: {ch: (getattr(self.dut, f"m_axi_{name}_{ch.upper()}VALID"),
                            getattr(self.dut, f"m_axi_{name}_{ch.upper()}READY"))
                       for ch in ("ar", "aw", "r", "b")} for name in self.rams}
        while True:
            await RisingEdge(self.clock)
            for name, chans in pins.items():
                counts = self.counts[name]
                for ch, (valid, ready) in chans.items():
                    if int(valid.value):
                        counts[f"{ch}_{'fire' if int(ready.value) else 'wait'}"] += 1
                        if ch in ("ar", "aw") and int(ready.value):
                            self._check_sideband(name, ch)

    def _check_sideband(self, name: str, ch: str) -> None:
        for field, want in SIDEBAND.items():
            got = int(getattr(self.dut, f"m_axi_{name}_{ch.upper()}{field}").value)
            said = f"m_axi_{name}_{ch.upper()}{field}"
            if got != want and not any(p.startswith(said) for p in self.problems):
                self.problems.append(f"{said} is {got:#x} on an accepted request "
                                     f"(Vitis HLS drives {want:#x})")
