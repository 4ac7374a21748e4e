"""Verification kit: cocotb components (drivers, monitors, backpressure,
protocol checks, memory agent), a scoreboard, and the unit-test runner that
builds rendered units under Verilator and runs them against the golden model."""
