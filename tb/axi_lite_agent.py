"""A pyuvm agent for an AXI4-Lite slave, on cocotbext-axi's AxiLiteMaster.

AxiLiteItem is one 32-bit read or write; AxiLiteDriver performs it with
AxiLiteMaster (whose channels may carry pause generators); AxiLiteAdapter
lets a pyuvm register model (uvm_reg_block, tb/control_regs.py) run its
reads and writes on the agent's sequencer.
"""

from __future__ import annotations

from cocotbext.axi import AxiLiteBus, AxiLiteMaster
from pyuvm import (uvm_access_e, uvm_agent, uvm_driver, uvm_reg_adapter, uvm_sequence_item,
                   uvm_sequencer, uvm_status_e)


class AxiLiteItem(uvm_sequence_item):
    def __init__(self, name: str = "axil", write: bool = False, addr: int = 0, data: int = 0):
        super().__init__(name)
        self.write, self.addr, self.data = write, addr, data
        self.ok = False

    def __str__(self) -> str:
        return f"{'write' if self.write else 'read'} {self.addr:#x} {self.data:#x}"


class AxiLiteDriver(uvm_driver):
    """Performs each item on the bus; a read's data comes back in the item."""

    def __init__(self, name, parent, master: AxiLiteMaster):
        super().__init__(name, parent)
        self.master = master

    async def run_phase(self) -> None:
        while True:
            item = await self.seq_item_port.get_next_item()
            if item.write:
                await self.master.write_dword(item.addr, item.data)
            else:
                item.data = await self.master.read_dword(item.addr)
            item.ok = True
            self.seq_item_port.item_done()


class AxiLiteAgent(uvm_agent):
    """Sequencer and driver on the DUT's `<prefix>_*` AXI4-Lite slave."""

    def __init__(self, name, parent, dut, prefix: str, clock, reset, reset_active_level=False):
        super().__init__(name, parent)
        self.master = AxiLiteMaster(AxiLiteBus.from_prefix(dut, prefix), clock, reset,
                                    reset_active_level=reset_active_level)

    def build_phase(self) -> None:
        self.seqr = uvm_sequencer("seqr", self)
        self.driver = AxiLiteDriver("driver", self, self.master)

    def connect_phase(self) -> None:
        self.driver.seq_item_port.connect(self.seqr.seq_item_export)

    def channels(self) -> list:
        """The five channels, for pause generators."""
        w, r = self.master.write_if, self.master.read_if
        return [w.aw_channel, w.w_channel, w.b_channel, r.ar_channel, r.r_channel]


class AxiLiteAdapter(uvm_reg_adapter):
    """uvm_reg_bus_op <-> AxiLiteItem, for a register model on the agent."""

    def __init__(self, name: str = "axil_adapter"):
        super().__init__(name)

    def reg2bus(self, rw) -> AxiLiteItem:
        return AxiLiteItem(write=rw.kind == uvm_access_e.UVM_WRITE, addr=rw.addr, data=rw.data)

    def bus2reg(self, bus_item: AxiLiteItem, rw) -> None:
        rw.kind = uvm_access_e.UVM_WRITE if bus_item.write else uvm_access_e.UVM_READ
        rw.addr, rw.data = bus_item.addr, bus_item.data
        rw.status = uvm_status_e.UVM_IS_OK if bus_item.ok else uvm_status_e.UVM_NOT_OK
