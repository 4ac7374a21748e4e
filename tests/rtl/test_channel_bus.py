"""tb.handshake's Driver and Monitor are cocotb-bus's BusDriver and BusMonitor:
used on their own clock (send(), a monitor coroutine), they carry a stream
through a 2-slot FIFO unchanged, as its golden model (identity) says."""

import pytest
from cocotb_bus.drivers import BusDriver
from cocotb_bus.monitors import BusMonitor

from loom.rtl.units import unit_spec
from tb.handshake import Driver, Monitor
from tb.unit_runner import UnitBuild

pytestmark = pytest.mark.rtl


def test_driver_and_monitor_are_cocotb_bus_components():
    assert issubclass(Driver, BusDriver) and issubclass(Monitor, BusMonitor)


def test_send_and_monitor_carry_a_stream_through_a_fifo():
    build = UnitBuild("channel_bus", [unit_spec("fifo", slots=2, w=16)])
    build.build()
    tokens = [0, 1, 0xFFFF, 1234, 42, 0x8000]
    res = build.run({"input": "u0_ins", "output": "u0_outs", "width": 16, "tokens": tokens},
                    "bus", test_module="tb.channel_bus_cocotb")
    assert res["received"] == tokens and res["queue"] == tokens
