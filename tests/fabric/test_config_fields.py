"""Config field names are one protocol (config_layout's helpers): every field
of a preset's layout is read by the fabric RTL, and every value the mapper
writes names a field of its slice."""

from __future__ import annotations

import pytest

from loom.fabric.adg_view import adg_view
from loom.fabric.config_layout import fabric_layout
from loom.fabric.presets import preset
from loom.fabric.rtl import modules
from loom.fabric.rtl.top import fabric_rtl
from loom.mapper.config_values import fabric_config
from loom.mapper.mapping import map_dfg
from tests.mapper.test_mapping import MULADD, _body

PRESETS = ["chess-2x2", "chess-2x2-ext2x2", "chess-4x4-ext2x3-ring-b2", "chess-2x2-ext1-mem1"]


class _Reads(dict):
    """field_offsets' dict, recording every name the RTL looks up."""

    def __init__(self, values, seen: set[tuple[str, str]], slice_name: str):
        super().__init__(values)
        self.seen, self.slice_name = seen, slice_name

    def __getitem__(self, key):
        self.seen.add((self.slice_name, key))
        return super().__getitem__(key)

    def __contains__(self, key):
        self.seen.add((self.slice_name, key))
        return super().__contains__(key)

    def get(self, key, default=None):
        self.seen.add((self.slice_name, key))
        return super().get(key, default)


@pytest.mark.parametrize("name", PRESETS)
def test_every_field_of_the_layout_is_read_by_the_rtl(name, monkeypatch):
    seen: set[tuple[str, str]] = set()
    plain = modules.field_offsets

    def recording(s):
        return _Reads(plain(s), seen, s.name if s is not None else "")

    monkeypatch.setattr(modules, "field_offsets", recording)
    import loom.fabric.rtl.memory as memory
    monkeypatch.setattr(memory, "field_offsets", recording)
    view = adg_view(preset(name).build())
    fabric_rtl(view, name)
    layout = fabric_layout(view)
    # a PE's unit payload (fu.*) is read by the unit's own wrapper by position
    missing = [(s.name, f.name) for s in layout.slices for f in s.fields
               if (s.name, f.name) not in seen and not f.name.startswith("fu.")]
    assert missing == []


@pytest.mark.parametrize("name", ["chess-2x2"])
def test_every_value_the_mapper_writes_names_a_field(name):
    view = adg_view(preset(name).build())
    m = map_dfg(_body(MULADD), view, seed=0)
    assert m.ok
    config = fabric_config(m, view)
    layout = fabric_layout(view)
    for slice_name, values in config.values.items():
        s = layout.slice(slice_name)
        names = {f.name for f in s.fields}
        if s.fu_layouts:
            names |= {f.name for f in s.fu_layouts[values.get("opcode", 0)].fields()}
        assert set(values) <= names, slice_name
