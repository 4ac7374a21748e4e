"""`loom config decode`'s output read back by slice, for the mapper's tests:
what a mapping configured, field by field, in the names the layout gives."""

from __future__ import annotations

from pathlib import Path

from loom.cli import main


def decoded_fields(config_bin: Path, adg: Path, capsys,
                   adg_dir: Path | None = None) -> dict[str, dict[str, int]]:
    """{slice: {field: value}} of `loom config decode config_bin --adg adg`
    (`adg_dir`: where a preset's ADG would be written); `capsys` is pytest's."""
    capsys.readouterr()
    argv = ["config", "decode", str(config_bin), "--adg", str(adg)]
    assert main(argv + (["-o", str(adg_dir)] if adg_dir else [])) == 0
    fields: dict[str, dict[str, int]] = {}
    current = ""
    for line in capsys.readouterr().out.splitlines():
        if not line.startswith(" "):
            current = line.split()[0]   # `<slice> (<kind>) words a..b`
        elif "=" in line:   # a field; a temporal PE's `slot k: <unit> on tag t` lines say it again
            name, value = line.split("=")
            fields.setdefault(current, {})[name.strip()] = int(value.split()[0])
    return fields
