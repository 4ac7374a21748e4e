"""temporal_pe and decomposable switches parse but are named as unsupported."""

from __future__ import annotations

from loom.dialects.fabric_support import unsupported_components

B = "!fabric.bits<32>"
T = "!fabric.tagged<!fabric.bits<32>, i1>"


def test_unsupported_components_are_named(checked):
    module = checked(f"""module {{
  fabric.spatial_sw @dsw [connectivity_table = ["11", "11"], decomposable_bits = 8] : ({B}, {B}) -> ({B}, {B})
  fabric.spatial_sw @sw : ({B}, {B}) -> ({B}, {B})
  fabric.temporal_pe @tpe(%a: {T}) -> ({T}) [num_register = 0, num_instruction = 1, reg_fifo_depth = 0] {{
    fabric.function_unit @fu(%x: i32) -> (i32) [latency = 1, interval = 1] {{
      %0 = arith.addi %x, %x : i32
      fabric.yield %0 : i32
    }}
    fabric.yield
  }}
  fabric.module @m(%a: {B}, %b: {B}, %t: {T}) -> ({B}, {B}, {B}, {B}, {T}) {{
    %d:2 = fabric.instance @dsw(%a, %b) {{sym_name = "sw_0_0"}} : ({B}, {B}) -> ({B}, {B})
    %s:2 = fabric.instance @sw(%a, %b) {{sym_name = "sw_0_1"}} : ({B}, {B}) -> ({B}, {B})
    %p = fabric.instance @tpe(%t) {{sym_name = "pe_0_0"}} : ({T}) -> ({T})
    fabric.yield %d#0, %d#1, %s#0, %s#1, %p : {B}, {B}, {B}, {B}, {T}
  }}
}}""")
    found = [(op.attributes["sym_name"].data, reason)
             for op, reason in unsupported_components(module)]
    assert found == [
        ("sw_0_0", "fabric.spatial_sw 'dsw' with decomposable_bits is not supported "
                   "(decomposable switches are not mapped)"),
        ("pe_0_0", "fabric.temporal_pe 'tpe' is not supported (temporal PEs are not mapped)"),
    ]
