"""memory and extmemory against LOOM's rules (FabricOpsMemory.cpp): one port
per family whatever the lane count, tagged families when a family has more
than one lane, and the region table."""

from __future__ import annotations

import pytest

from loom.dialects.fabric_memory import family_tag_width

B = "!fabric.bits<64>"


def tagged(k: int) -> str:
    return f"!fabric.tagged<{B}, i{k}>"


def ext(ld: int, st: int, ins: list[str], outs: list[str], extra: str = "") -> str:
    return (f"module {{\n  fabric.extmemory @ext [ldCount = {ld}, stCount = {st}, lsqDepth = 0, "
            f"memrefType = memref<?xi32>{extra}] : (memref<?xi32>, {', '.join(ins)}) -> "
            f"({', '.join(outs)})\n}}")


def mem(ld: int, st: int, ins: list[str], outs: list[str], extra: str = "", runtime: str = "") -> str:
    return (f"module {{\n  fabric.memory @mem [ldCount = {ld}, stCount = {st}, "
            f"memrefType = memref<256xi32>{extra}]{runtime} : ({', '.join(ins)}) -> "
            f"({', '.join(outs)})\n}}")


def test_single_lane_families_may_be_untagged(checked):
    checked(ext(1, 0, [B], [B, B]))
    checked(ext(1, 1, [B, B, B], [B, B, B]))
    checked(mem(1, 1, [B, B, B], [B, B, B]))
    checked(mem(1, 0, [tagged(1)], [tagged(1), tagged(1)]))  # optional tag on one lane


def test_multi_lane_families_are_tagged(checked, error):
    checked(ext(2, 1, [tagged(1), B, B], [tagged(1), tagged(1), B]))
    checked(ext(4, 0, [tagged(2)], [tagged(2), tagged(2)]))
    assert "multi-lane memory family must be tagged" in error(
        ext(2, 0, [B], [B, B])).message
    assert "tagged memory family tag width is too small: 1 < 2" in error(
        ext(4, 0, [tagged(1)], [tagged(2), tagged(2)])).message


@pytest.mark.parametrize(("lanes", "width"), [(1, 1), (2, 1), (3, 2), (4, 2), (5, 3), (16, 4)])
def test_family_tag_width_is_max_1_clog2(lanes, width):
    assert family_tag_width(lanes) == width


@pytest.mark.parametrize(("text", "message"), [
    (ext(1, 0, [B, B], [B, B]), "function_type must have 2 input(s), got 3"),
    (ext(1, 1, [B, B, B], [B, B]), "function_type must have 3 result(s), got 2"),
    (mem(2, 0, [tagged(1), tagged(1)], [tagged(1), tagged(1)]),
     "function_type must have 1 input(s), got 2"),
    (mem(1, 0, [B], [B, B], ", is_private = false"), "function_type must have 3 result(s), got 2"),
    (mem(1, 0, [B], [B, B], ", numRegion = 0"), "numRegion must be >= 1"),
])
def test_one_port_per_family(error, text, message):
    err = error(text)
    assert message in err.message and err.loc is not None and err.loc.line == 2


def test_public_memory_exports_its_memref(checked):
    checked(mem(1, 0, [B], [B, B, "memref<256xi32>"], ", is_private = false"))


def table(values: list[int]) -> str:
    return f" attributes {{addr_offset_table = array<i64: {', '.join(map(str, values))}>}}"


def test_region_table(checked, error):
    two = ", numRegion = 2"
    checked(mem(1, 0, [B], [B, B], two, table([1, 0, 1, 0, 2, 1, 1, 2, 4096, 2])))
    checked(mem(1, 0, [B], [B, B], two, table([1, 0, 1, 0, 2, 0, 0, 0, 0, 0])))
    for values, message in [
        ([1, 0, 1, 0, 2], "addr_offset_table length must be numRegion * 5"),
        ([1, 0, 2, 0, 2, 1, 1, 3, 0, 2], "addr_offset_table tag ranges must not overlap"),
        ([1, 1, 1, 0, 2, 0, 0, 0, 0, 0], "addr_offset_table requires start_tag < end_tag"),
        ([2, 0, 1, 0, 2, 0, 0, 0, 0, 0], "addr_offset_table valid flag must be 0 or 1"),
    ]:
        assert message in error(mem(1, 0, [B], [B, B], two, table(values))).message


def test_extmemory_operand_is_its_memref(checked, error):
    text = f"""module {{
  fabric.module @m(%mem: memref<?xi32>, %addr: {B}) -> ({B}, {B}) {{
    %e:2 = fabric.extmemory @ext [ldCount = 1, stCount = 0, memrefType = memref<?xi32>] (%mem, %addr) : (memref<?xi32>, {B}) -> ({B}, {B})
    fabric.yield %e#0, %e#1 : {B}, {B}
  }}
}}"""
    checked(text)
    assert "function type input 0 must match memrefType" in error(
        text.replace("memrefType = memref<?xi32>", "memrefType = memref<?xi16>")).message
