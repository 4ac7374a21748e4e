"""add_tag, map_tag and del_tag against LOOM's rules (FabricOpsMemory.cpp)."""

from __future__ import annotations

T1 = "!fabric.tagged<!fabric.bits<32>, i1>"
T2 = "!fabric.tagged<!fabric.bits<32>, i2>"


def chain(map_tag: str, add: str = f"{{tag = 1 : i64}} : i32 -> {T1}", out: str = T2) -> str:
    return f"""module {{
  fabric.module @m(%a: i32) -> (i32) {{
    %t = fabric.add_tag %a {add}
    %m = fabric.map_tag %t {map_tag} : {T1} -> {out}
    %o = fabric.del_tag %m : {out} -> i32
    fabric.yield %o : i32
  }}
}}"""


GOOD = "[table_size = 2] attributes {table = [[1, 0, 3], [1, 1, 2]]}"


def test_tag_bridge_round_trips(checked):
    checked(chain(GOOD))


def test_map_tag_rules(error):
    cases = [
        ("[table_size = 2] attributes {table = [[1, 0, 3]]}", T2, "table length must match table_size"),
        ("[table_size = 3]", T2, "table_size exceeds input tag domain"),
        ("[table_size = 2] attributes {table = [[1, 2, 0], [1, 1, 2]]}", T2,
         "map_tag table src_tag exceeds input tag domain"),
        ("[table_size = 2] attributes {table = [[1, 0, 4], [1, 1, 2]]}", T2,
         "map_tag table dst_tag exceeds output tag domain"),
        ("[table_size = 2] attributes {table = [[2, 0, 0], [1, 1, 2]]}", T2,
         "map_tag table valid bit must be 0 or 1"),
        (GOOD, "!fabric.tagged<!fabric.bits<16>, i2>", "requires identical tagged value types"),
    ]
    for map_tag, out, message in cases:
        err = error(chain(map_tag, out=out))
        assert message in err.message and err.loc is not None and err.loc.line == 4


def test_map_tag_entries_read_both_of_loom_table_forms(checked):
    # LOOM's ConfigGen (getMapTagTableEntries): an integer at position i is
    # the entry valid 1, src_tag i, dst_tag that integer; a triple is itself
    from loom.dialects.fabric_tag import map_tag_entries
    for table, entries in (("[3, 2]", [(1, 0, 3), (1, 1, 2)]),
                           ("[[1, 1, 2], [0, 0, 1]]", [(1, 1, 2), (0, 0, 1)]),
                           ("[[1, 1, 2], 0]", [(1, 1, 2), (1, 1, 0)])):
        module = checked(chain(f"[table_size = 2] attributes {{table = {table}}}"))
        (op,) = [op for op in module.walk() if op.name == "fabric.map_tag"]
        assert map_tag_entries(op) == entries


def test_add_tag_fits_its_tag(error):
    assert "tag 2 does not fit in i1" in error(chain(GOOD, f"{{tag = 2 : i64}} : i32 -> {T1}")).message


def test_tag_ops_only_in_fabric_module(error):
    err = error(f"""module {{
  fabric.spatial_pe @pe(%a: i32) -> ({T1}) {{
    %t = fabric.add_tag %a {{tag = 0 : i64}} : i32 -> {T1}
    fabric.yield
  }}
}}""")
    assert "must appear directly inside fabric.module" in err.message
