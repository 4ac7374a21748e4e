"""`<dfg>.<adg>.viz.html` (issue 14 deliverable 4), rendered in headless Chromium
(tests/mapper/chromium.py): no console errors, no request leaves the file, the
page lists every op map.json places with its C line (found in the C source),
a screenshot shows the placement colour on exactly the PEs map.json names, and
clicking an op highlights the routes map.json gives its edges.
"""

from __future__ import annotations

import json
import shutil
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from loom.cli import main
from loom.ir import load_module
from loom.mapper.viz_html import _script_json, grid_layout, sidecar
from loom.fabric.adg_view import adg_view
from tests.mapper.chromium import Chromium, Page, png_pixels, unavailable

MAC = """int mac(int a, int b, int c) {
  int p = a * b;
  return p + c;
}

int main(void) { return mac(3, 4, 5) == 17 ? 0 : 1; }
"""
"""Two ops on two lines: a muli (line 2) and an addi (line 3)."""

WIDTH, HEIGHT = 1400, 900
KERNELS = Path(__file__).resolve().parents[2] / "kernels"


@pytest.fixture(scope="module")
def browser() -> Iterator[Chromium]:
    why = unavailable()
    if why is not None:
        pytest.skip(why)
    with Chromium() as b:
        yield b


def _map(kernel: Path, adg: str, out: Path) -> tuple[Path, dict[str, Any]]:
    assert main(["map", str(kernel), "--adg", adg, "-o", str(out)]) == 0
    stem = f"{kernel.name.split('.')[0]}.{Path(adg).name.split('.')[0]}"
    return out / f"{stem}.viz.html", json.loads((out / f"{stem}.map.json").read_text())


def _open(browser: Chromium, html: Path) -> Page:
    page = browser.open(html, WIDTH, HEIGHT)
    assert page.evaluate("document.body.dataset.ready") == "1", page.problems()
    assert page.problems() == []
    assert [u for u in page.requests() if not u.startswith("file:")] == []
    return page


def _rows(page: Page) -> dict[str, list[str]]:
    """The op list: name -> [C line, placed on], placed ops only."""
    cells = page.evaluate("[...document.querySelectorAll('#op-list tr.op-row.placed')]"
                          ".map(tr => [...tr.cells].map(td => td.textContent))")
    return {name: rest for name, *rest in cells}


def _boxes(page: Page, selector: str) -> dict[str, dict[str, float]]:
    return page.evaluate(
        f"Object.fromEntries([...document.querySelectorAll({json.dumps(selector)})].map(g => {{"
        "const b = g.querySelector('rect').getBoundingClientRect();"
        "return [g.dataset.name, {x: b.x, y: b.y, width: b.width, height: b.height}]; }))")


def _share(page: Page, box: dict[str, float], rgb: tuple[int, int, int]) -> float:
    """The share of the box's screenshot pixels within a few levels of rgb."""
    pixels = png_pixels(page.screenshot(box))
    near = [p for p in pixels if all(abs(a - b) <= 12 for a, b in zip(p, rgb))]
    return len(near) / max(1, len(pixels))


def _placed_fill(page: Page) -> tuple[int, int, int]:
    fill = page.evaluate("getComputedStyle(document.querySelector('g.comp.placed rect')).fill")
    return tuple(int(v) for v in fill.removeprefix("rgb(").removesuffix(")").split(","))


def _hosts(mapping: dict[str, Any]) -> dict[str, str]:
    """map.json's placement: `pe/unit` (or the memory) -> sw_op."""
    return {f"{r['pe_name']}/{r['hw_name']}" if r["pe_name"] else r["hw_name"]: r["sw_op"]
            for r in mapping["node_mappings"]}


def _check_placement_shown(page: Page, mapping: dict[str, Any], tmp_path: Path) -> None:
    (tmp_path / "shot.png").write_bytes(page.screenshot())
    rows = _rows(page)
    hosts = _hosts(mapping)
    # every placed op is listed once, on the unit map.json names, named after its op kind
    assert sorted(placed for _, placed in rows.values()) == sorted(hosts)
    for name, (_, placed) in rows.items():
        assert name.rstrip("0123456789") == hosts[placed].split(".", 1)[1]
    # the placement colour is on exactly the components that host an op
    placed = _boxes(page, "g.comp.placed")
    assert set(placed) == {h.split("/")[0] for h in hosts}
    rgb = _placed_fill(page)
    for name, box in placed.items():
        assert _share(page, box, rgb) > 0.3, name
    idle = _boxes(page, "g.comp.kind-spatial_pe:not(.placed)")
    for name, box in list(idle.items())[:3]:
        assert _share(page, box, rgb) < 0.05, name


def test_small_preset_page_shows_ops_c_lines_and_routes(browser, tmp_path):
    kernel = tmp_path / "mac.c"
    kernel.write_text(MAC)
    html, mapping = _map(kernel, "chess-2x2", tmp_path / "o")
    text = html.read_text()
    assert "<script src" not in text and "<link" not in text
    page = _open(browser, html)
    _check_placement_shown(page, mapping, tmp_path)

    # C lines, from the C source: the muli is `a * b`, the addi `p + c`
    lines = MAC.splitlines()
    rows = _rows(page)
    for kind, expr in (("muli", "a * b"), ("addi", "p + c")):
        (loc,) = [loc for name, (loc, _) in rows.items() if name.startswith(kind)]
        line = next(k for k, text in enumerate(lines, 1) if expr in text)
        assert loc.startswith(f"mac.c:{line}:"), (kind, loc)

    # each argument enters at the module input its routes start from in map.json
    entries = page.evaluate("[...document.querySelectorAll('#op-list tr.boundary')]"
                            ".map(tr => tr.cells[2].textContent)")
    starts = {mapping["port_table"][r["path"][0]]["index"] for r in mapping["edge_routings"]
              if mapping["port_table"][r["path"][0]].get("kind") == "module_in"}
    assert sorted(int(e.split("[")[1].split("]")[0]) for e in entries) == sorted(starts)

    # the page carries map.json and the ADG's viz sidecar as they were written
    assert json.loads(page.evaluate("JSON.stringify(MAPPING_DATA)")) == mapping
    adg_viz = json.loads((tmp_path / "o" / "chess-2x2.fabric.viz.json").read_text())
    assert json.loads(page.evaluate("JSON.stringify(ADG_LAYOUT_DATA)")) == adg_viz

    # clicking the muli's row highlights the routes of the edges at its unit's ports
    muli = next(name for name in rows if name.startswith("muli"))
    row = page.evaluate(f"(() => {{ const b = document.querySelector('tr[data-op=\"{muli}\"]')"
                        ".getBoundingClientRect(); return [b.x + b.width / 2, b.y + b.height / 2];"
                        " })()")
    page.click(*row)
    pe, unit = rows[muli][1].split("/")
    ports = {p["id"] for p in mapping["port_table"]
             if p.get("kind") == "fu" and p["pe"] == pe and p["fu"] == unit}
    expected = {r["sw_edge"] for r in mapping["edge_routings"]
                if r["path"] and (r["path"][0] in ports or r["path"][-1] in ports)}
    selected = page.evaluate("[...document.querySelectorAll('.route.selected')]"
                             ".map(e => Number(e.dataset.edge))")
    assert set(selected) == expected and len(expected) == 3   # a, b in; p out
    assert "int p = a * b;" in page.evaluate("document.getElementById('details').textContent")
    (tmp_path / "selected.png").write_bytes(page.screenshot())
    assert page.problems() == []


def test_an_adg_without_a_sidecar_is_drawn_on_a_grid(browser, tmp_path):
    kernel = tmp_path / "mac.c"
    kernel.write_text(MAC)
    main(["adg", "chess-2x2", "-o", str(tmp_path / "adg")])
    adg = tmp_path / "bare.fabric.mlir"   # its viz_file names a sidecar that is not there
    shutil.copy(tmp_path / "adg" / "chess-2x2.fabric.mlir", adg)
    html, mapping = _map(kernel, str(adg), tmp_path / "o")
    page = _open(browser, html)
    assert "grid layout" in page.evaluate("document.getElementById('status-bar').textContent")
    _check_placement_shown(page, mapping, tmp_path)


def test_a_failed_mapping_page_shows_what_was_placed(browser, tmp_path):
    # three multiplications, and chess-2x2 has two PEs with a multiplier (C1)
    kernel = tmp_path / "mul3.c"
    kernel.write_text("int mul3(int a, int b, int c) {\n  return a * b * c * a;\n}\n\n"
                      "int main(void) { return mul3(1, 2, 3) == 6 ? 0 : 1; }\n")
    assert main(["map", str(kernel), "--adg", "chess-2x2", "-o", str(tmp_path / "o")]) == 2
    mapping = json.loads((tmp_path / "o" / "mul3.chess-2x2.map.json").read_text())
    page = _open(browser, tmp_path / "o" / "mul3.chess-2x2.viz.html")
    _check_placement_shown(page, mapping, tmp_path)
    unplaced = page.evaluate("[...document.querySelectorAll('#op-list tr.unplaced')]"
                             ".map(tr => tr.dataset.op)")
    placed_ops = {r["sw_node"] for r in mapping["node_mappings"]}
    assert len(unplaced) == 3 - len(placed_ops) and all(n.startswith("muli") for n in unplaced)
    assert "UNROUTED" in page.evaluate("document.getElementById('status-bar').textContent")


@pytest.mark.slow
def test_16x16_page_renders_and_shows_every_placed_op(browser, tmp_path):
    html, mapping = _map(KERNELS / "vecadd.c", "chess-16x16-ext4", tmp_path / "o")
    page = _open(browser, html)
    assert page.evaluate("document.querySelectorAll('g.comp').length") == len(
        json.loads((tmp_path / "o" / "chess-16x16-ext4.fabric.viz.json").read_text())["components"])
    _check_placement_shown(page, mapping, tmp_path)


def test_the_browser_check_reports_errors_and_requests(browser, tmp_path):
    # the checker must not pass a broken page: an exception, a console error, a request
    bad = tmp_path / "bad.html"
    bad.write_text("<html><body><img src='http://127.0.0.1:9/x.png'>"
                   "<script>console.error('broken'); null.x;</script></body></html>")
    page = browser.open(bad, 200, 200)
    problems = " ".join(page.problems())
    assert "broken" in problems and "exception" in problems
    assert "http://127.0.0.1:9/x.png" in page.requests()


def test_script_json_cannot_close_its_script_element():
    assert "</" not in _script_json({"loc": "</script><script>alert(1)"})


def test_grid_layout_places_every_component_once():
    adg = {"components": [{"name": f"c{k}", "kind": "spatial_sw"} for k in range(5)],
           "links": [{"from": "module_in", "from_port": 1, "to": "c0", "to_port": 0},
                     {"from": "c0", "from_port": 0, "to": "c4", "to_port": 2}]}
    layout = grid_layout(adg)
    centers = {(c["center_x"], c["center_y"]) for c in layout["components"]}
    assert len(centers) == 5
    assert [len(r["points"]) for r in layout["routes"]] == [2, 2]


def test_sidecar_is_found_beside_the_adg(tmp_path):
    main(["adg", "chess-2x2", "-o", str(tmp_path)])
    adg = tmp_path / "chess-2x2.fabric.mlir"
    doc, why = sidecar(adg_view(load_module(adg)), adg)
    assert why == "" and doc == json.loads((tmp_path / "chess-2x2.fabric.viz.json").read_text())
    (tmp_path / "chess-2x2.fabric.viz.json").unlink()
    doc, why = sidecar(adg_view(load_module(adg)), adg)
    assert doc is None and "no viz sidecar" in why


def test_auto_draws_the_chosen_preset_by_its_sidecar(tmp_path, capsys):
    # `--adg auto` wrote the chosen preset's ADG and sidecar, but its page
    # drew a grid ("the ADG names no viz_file"): the view it mapped onto was
    # built without the sidecar's name. The page now carries the sidecar as
    # written: the mesh as the builder placed it, each PE between switches
    kernel = tmp_path / "mac.c"
    kernel.write_text(MAC)
    assert main(["map", str(kernel), "--adg", "auto", "-o", str(tmp_path)]) == 0
    chosen = capsys.readouterr().out.split("adg: auto chose ")[1].split()[0]
    text = (tmp_path / f"mac.{chosen}.viz.html").read_text()
    layout = json.loads(text.split("ADG_LAYOUT_DATA = ")[1].split(";\n")[0])
    assert layout == json.loads((tmp_path / f"{chosen}.fabric.viz.json").read_text())
    at = {c["name"]: (c["center_x"], c["center_y"]) for c in layout["components"]}
    assert at["sw_0_0"] < at["pe_0_0"] < at["sw_1_1"]
