"""Write a mapping's artifacts (seed 003's names): `<stem>.map.json`,
`.map.txt`, `.config.json`, `.config.bin` and `.config.h`, where stem is
`<dfg>.<adg>`, and the page that shows them, `.viz.html` (LOOM's
`loom viz`; viz_html.py). The map files carry the mapping's throughput
model (throughput.py). A failed mapping is written too, for inspection (LOOM
does the same)."""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path


from loom.mapper.checks import Violation, check
from loom.mapper.config_files import config_bin, config_header, config_json
from loom.mapper.config_values import FabricConfig, fabric_config
from loom.mapper.map_json import map_json
from loom.mapper.map_text import map_text
from loom.mapper.mapping import Mapping
from loom.mapper.throughput import Throughput, throughput
from loom.fabric.adg_view import AdgView
from loom.mapper.inventory import hw_memories
from loom.mapper.viz_html import viz_html

SUFFIXES = ("map.json", "map.txt", "config.json", "config.bin", "config.h", "viz.html")


@dataclass
class Written:
    config: FabricConfig
    violations: list[Violation]
    paths: dict[str, Path]
    throughput: Throughput


def write_artifacts(m: Mapping, view: AdgView, out_dir: Path, stem: str,
                    adg_path: Path | None = None) -> Written:
    """`adg_path`: the ADG file, whose viz sidecar the page's layout comes from."""
    config = fabric_config(m, view)
    violations = check(m, view, config)
    out_dir.mkdir(parents=True, exist_ok=True)
    paths = {s: out_dir / f"{stem}.{s}" for s in SUFFIXES}
    regions = {hw.name: hw.num_region for hw in hw_memories(view)}
    model = throughput(m, view)
    mapping = map_json(m, config, view, model)
    paths["map.json"].write_text(mapping)
    paths["map.txt"].write_text(map_text(m, config, regions, model))
    paths["config.json"].write_text(config_json(config, m.adg))
    paths["config.bin"].write_bytes(config_bin(config.words))
    paths["config.h"].write_text(config_header(config, paths["config.h"].name))
    paths["viz.html"].write_text(viz_html(m, view, mapping, stem, adg_path))
    return Written(config, violations, paths, model)


def write_snapshot(m: Mapping, view: AdgView, out_dir: Path, stem: str,
                   adg_path: Path | None = None) -> Path:
    """A mapper snapshot (mapper/snapshots.py): the map.json and viz.html of a
    mapping the search has not finished, maybe partial; the page's path."""
    out_dir.mkdir(parents=True, exist_ok=True)
    mapping = map_json(m, fabric_config(m, view), view, throughput(m, view))
    (out_dir / f"{stem}.map.json").write_text(mapping)
    page = out_dir / f"{stem}.viz.html"
    page.write_text(viz_html(m, view, mapping, stem, adg_path))
    return page


__all__ = ["SUFFIXES", "Written", "write_artifacts", "write_snapshot"]
