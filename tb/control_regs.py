"""A pyuvm register model of an exported kernel's control registers.

Built from the register table of loom.export's register map (name ->
offset, as the job file carries it): one 32-bit register per table entry,
in a map on the AXI4-Lite agent's sequencer (AxiLiteAdapter). The block's
fields are plain 32-bit words: the model addresses registers by name; the
meaning of their bits is the sequences' business (tb/kernel_sequences.py).
"""

from __future__ import annotations

from pyuvm import uvm_endianness_e, uvm_reg, uvm_reg_block, uvm_reg_field, uvm_status_e


class ControlRegs(uvm_reg_block):
    def __init__(self, name: str, table: dict[str, int]):
        super().__init__(name)
        self.map = self.create_map("map", 0, 4, uvm_endianness_e.UVM_LITTLE_ENDIAN)
        self.regs: dict[str, uvm_reg] = {}
        for reg_name, offset in table.items():
            reg = uvm_reg(reg_name, 32)
            reg.configure(self)
            data = uvm_reg_field("data")
            data.configure(reg, 32, 0, "RW", True, 0)
            self.map.add_reg(reg, offset, "RW")
            self.regs[reg_name] = reg
        self.lock_model()

    def attach(self, sequencer, adapter) -> None:
        self.map.set_sequencer(sequencer, adapter)

    async def write(self, name: str, value: int) -> None:
        status = await self.regs[name].write(value, map=self.map)
        if status != uvm_status_e.UVM_IS_OK:
            raise RuntimeError(f"write of {name} failed")

    async def read(self, name: str) -> int:
        status, value = await self.regs[name].read(map=self.map)
        if status != uvm_status_e.UVM_IS_OK:
            raise RuntimeError(f"read of {name} failed")
        return value

    async def write_value(self, names: list[str], value: int) -> None:
        """A value over consecutive registers, low word first."""
        for k, name in enumerate(names):
            await self.write(name, (value >> (32 * k)) & 0xFFFF_FFFF)

    async def read_value(self, names: list[str]) -> int:
        value = 0
        for k, name in enumerate(names):
            value |= await self.read(name) << (32 * k)
        return value
