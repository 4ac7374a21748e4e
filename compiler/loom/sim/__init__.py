"""The whole flow on Verilator through cocotb (`loom sim`)."""
