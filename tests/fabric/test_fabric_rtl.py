"""The fabric RTL generator: `loom rtl --adg`, its files, the quality gates
(Verilator lint -Wall, waiving only UNOPTFLAT on the signals of a PE whose
outputs leave through bypassable fifos; Yosys synthesis) and its refusals."""

import re
from pathlib import Path

import pytest

from loom.cli import main
from loom.diagnostics import LoomError
from loom.fabric.presets import preset, presets
from loom.fabric import adg_file
from loom.fabric.rtl.command import write_fabric_rtl
from loom.fabric.rtl.top import fabric_rtl
from loom.rtl.gates import lint, synthesize
from tb.fabric_runner import load_adg
# the component tests' fabrics (pytest puts this directory on sys.path)
import test_fabric_fifo
import test_fabric_fu_mux
import test_fabric_memory_rtl
import test_fabric_spatial_pe
import test_fabric_spatial_sw
import test_fabric_tags
import test_fabric_temporal_pe
import test_fabric_temporal_sw
from loom.fabric.adg_view import adg_view
from loom.dialects import fabric_syntax as fs

COMPONENT_ADGS = {"spatial_sw": test_fabric_spatial_sw.ADG, "fifo": test_fabric_fifo.ADG,
                  "tags": test_fabric_tags.ADG, "spatial_pe": test_fabric_spatial_pe.ADG,
                  "temporal_sw": test_fabric_temporal_sw.ADG, "memory": test_fabric_memory_rtl.ADG,
                  "fu_mux": test_fabric_fu_mux.ADG, "fu_div": test_fabric_fu_mux.DIV_ADG,
                  "temporal_pe": test_fabric_temporal_pe.ADG,
                  "temporal_pe_shared": test_fabric_temporal_pe.SHARED_ADG,
                  "temporal_pe_small": test_fabric_temporal_pe.SMALL_ADG}


def _write(tmp_path: Path, text: str, name: str) -> Path:
    path = tmp_path / f"{name}.fabric.mlir"
    tmp_path.mkdir(parents=True, exist_ok=True)
    path.write_text(text)
    return path


def _gate_files(tmp_path: Path, name: str):
    arts = write_fabric_rtl(adg_file.read_adg(_write(tmp_path, COMPONENT_ADGS[name], name), name), tmp_path)
    return arts, [p.name for p in arts.files]


@pytest.mark.rtl
@pytest.mark.parametrize("name", sorted(COMPONENT_ADGS))
def test_component_fabrics_lint_clean(tmp_path, name):
    arts, files = _gate_files(tmp_path, name)
    for defines in ((), ("LOOM_SIM",)):
        res = lint(tmp_path / "rtl", files, arts.rtl.top, defines)
        assert res.ok, res.output


@pytest.mark.rtl
def test_component_fabrics_synthesize(tmp_path):
    for name in sorted(COMPONENT_ADGS):
        arts, files = _gate_files(tmp_path / name, name)
        res = synthesize(tmp_path / name / "rtl", files, arts.rtl.top)
        assert res.cells > 0 and res.ffs > 0


PRESETS_FAST = ["chess-2x2", "chess-2x2-ext2x2", "chess-2x2-ext1-mem2x2s3", "chess-2x2-t2",
                "chess-2x2-ext1x5s5-b2", "chess-2x2-ext2x2-mem1x1s3-ring", "chess-2x2-ext1x3s2-f",
                "chess-2x2-m2"]
"""The third: the `-mem` grammar's on-chip memories (tagged) beside an
extmemory; the fourth: two links each way between neighbouring switches;
the fifth: bridges as trees of two-lane switches (three levels for 5 lanes);
the sixth: memory lanes round all four sides (`-ring`); the last: PE
outputs without their own buffer, each into a bypassable fifo (`-f`),
whose structural rings the PE template waives UNOPTFLAT on, and a
bypassable fifo after each tagged response lane; then `-m2`'s ALU PE
without the multiplier (pe_alu_nomul, row 1)."""
PRESETS_SLOW = ["chess-4x4", "chess-8x8", "chess-16x16", "chess-16x16-t2", "chess-8x8-ext2x2-mem2",
                "chess-8x8-ext4x4s2-mem2x2s20"]


def _lint_preset(tmp_path: Path, name: str) -> None:
    """Lint, then Verilate (lint misses UNOPTFLAT: design.md section 5)."""
    import subprocess
    arts = write_fabric_rtl(adg_file.load_adg(name, tmp_path), tmp_path)
    files = [p.name for p in arts.files]
    res = lint(tmp_path / "rtl", files, arts.rtl.top)
    assert res.ok, res.output
    proc = subprocess.run(["verilator", "--cc", "-Wall", "--top-module", arts.rtl.top,
                           "-Mdir", str(tmp_path / "obj"), *files], cwd=tmp_path / "rtl",
                          capture_output=True, text=True)
    problems = [line for line in (proc.stdout + proc.stderr).splitlines()
                if line.startswith("%")]
    assert proc.returncode == 0 and not problems, "\n".join(problems[:20])


@pytest.mark.rtl
@pytest.mark.parametrize("name", PRESETS_FAST)
def test_presets_lint_and_verilate_clean(tmp_path, name):
    _lint_preset(tmp_path, name)


@pytest.mark.rtl
@pytest.mark.slow   # 0.5 to 2.5 minutes each, 7.5 for 16x16 (bench/README.md)
@pytest.mark.parametrize("name", PRESETS_SLOW)
def test_large_presets_lint_and_verilate_clean(tmp_path, name):
    _lint_preset(tmp_path, name)


MEMORY_VARIANTS = sorted({p.name.split("-", 2)[2] for p in presets() if p.name.count("-") > 1})
"""Every memory suffix of the named presets (`ext4x4s2-mem2x2s20`, ...): the
mesh sizes above and these memories on a 4x4 mesh cover what every named
preset combines, without a 16x16 lint per variant."""


def _smallest_mesh_for(variant: str) -> str:
    """The variant on 4x4, or on 8x8 when a 4x4's boundary switches would need
    more than a switch's 32 ports for its lanes (sha256_block's 222 lanes)."""
    try:
        preset(f"chess-4x4-{variant}")
        return f"chess-4x4-{variant}"
    except LoomError:
        return f"chess-8x8-{variant}"


@pytest.mark.rtl
@pytest.mark.slow   # about 30 s each (10 variants: 314 s on 0d7fc42+)
@pytest.mark.parametrize("variant", MEMORY_VARIANTS)
def test_every_memory_variant_lints_and_verilates_clean_on_a_small_mesh(tmp_path, variant):
    _lint_preset(tmp_path, _smallest_mesh_for(variant))


# whole presets synthesize hierarchically in tests/fabric/test_fabric_area.py


def test_files_and_file_list(tmp_path):
    arts, files = _gate_files(tmp_path, "spatial_sw")
    assert arts.top_file.name == "spatial_sw_fabric.sv"
    assert "module spatial_sw_fabric (" in arts.top_file.read_text()
    listed = arts.file_list.read_text().split()
    assert listed == files and listed[-1] == "spatial_sw_fabric.sv"
    assert "spatial_sw_fabric_config.sv" in listed
    head = arts.top_file.read_text().splitlines()[:3]
    assert head[0].endswith("rendered from templates/fabric_top.sv.j2")


def test_top_ports_follow_the_contract():
    rtl = fabric_rtl(adg_view(load_adg(test_fabric_spatial_sw.ADG)), "sw")
    top = rtl.modules[-1].text
    for port in ("input  logic cfg_valid", "output logic cfg_ready",
                 "input  logic [31:0] cfg_wdata", "input  logic cfg_last",
                 "input  logic [15:0] in2_data", "output logic [7:0] out3_data"):
        assert port in top
    # data ports are held until configuration is done
    assert "assign arg0_valid = in0_valid & cfg_done;" in top
    assert "assign in0_ready = arg0_ready & cfg_done;" in top
    assert "out0_valid = sw_a_r0_valid & cfg_done;" in top


def test_extmemory_master_port_on_the_top():
    # the direct flow's memory protocol (templates/extmemory.sv.j2, tb/memory_agent.py)
    rtl = fabric_rtl(adg_view(load_adg(test_fabric_memory_rtl.ADG)), "mems")
    top = rtl.modules[-1].text
    for port in ("output logic ext_mem_req_valid", "input  logic ext_mem_req_ready",
                 "output logic ext_mem_req_re", "output logic [31:0] ext_mem_req_raddr",
                 "output logic ext_mem_req_we", "output logic [31:0] ext_mem_req_waddr",
                 "output logic [31:0] ext_mem_req_wdata", "input  logic ext_mem_resp_valid",
                 "output logic ext_mem_resp_ready", "input  logic [31:0] ext_mem_resp_data",
                 "output logic ext_mem_idle"):
        assert port in top
    assert sorted(n for _, n, _ in rtl.master) == sorted(
        f"ext_mem_{s}" for s in ("req_valid", "req_ready", "req_re", "req_raddr", "req_we",
                                 "req_waddr", "req_wdata", "resp_valid", "resp_ready",
                                 "resp_data", "idle"))
    assert "spad_mem" not in top   # an on-chip memory has no master port


B = "!fabric.bits<32>"
LOAD_ONLY_MEMORY = f"""module {{
  fabric.module @m(%a: {B}) -> ({B}, {B}) {{
    %p:2 = fabric.memory @spad [ldCount = 1, stCount = 0, memrefType = memref<16xi32>] (%a)
        : ({B}) -> ({B}, {B})
    fabric.yield %p#0, %p#1 : {B}, {B}
  }}
}}"""
DECOMPOSABLE = f"""module {{
  fabric.module @m(%a: {B}) -> ({B}) {{
    %o = fabric.spatial_sw @s [decomposable_bits = 8] (%a) : ({B}) -> ({B})
    fabric.yield %o : {B}
  }}
}}"""
FANOUT = f"""module {{
  fabric.module @m(%a: {B}) -> ({B}, {B}) {{
    %x = fabric.fifo @f [depth = 2] (%a) : ({B}) -> ({B})
    fabric.yield %x, %x : {B}, {B}
  }}
}}"""


def test_cli_writes_the_fabric(tmp_path, capsys):
    adg = _write(tmp_path, test_fabric_fifo.ADG, "fifos")
    assert main(["rtl", "--adg", str(adg), "-o", str(tmp_path / "out")]) == 0
    assert "fifos_fabric.sv" in capsys.readouterr().out
    assert (tmp_path / "out" / "rtl" / "fifos_fabric.sv").exists()
    assert (tmp_path / "out" / "rtl" / "fifos.f").exists()


@pytest.mark.parametrize("text,message", [
    (DECOMPOSABLE, "with decomposable_bits is not supported"),
    (FANOUT, "fan-out outside a switch is not supported"),
    (LOAD_ONLY_MEMORY, "fabric.memory 'spad' has no store lane: nothing could write it"),
])
def test_cli_refuses_with_one_line(tmp_path, capsys, text, message):
    adg = _write(tmp_path, text, "bad")
    assert main(["rtl", "--adg", str(adg), "-o", str(tmp_path / "out")]) == 2
    lines = capsys.readouterr().err.strip().splitlines()
    assert len(lines) == 1 and message in lines[0] and str(adg) in lines[0]


def test_refusals_are_loom_errors():
    with pytest.raises(LoomError, match="not supported"):
        fabric_rtl(adg_view(load_adg(DECOMPOSABLE)), "d")


def test_names_become_identifiers():
    from loom.rtl.render import identifier
    assert identifier("chess-2x2") == "chess_2x2"
    assert identifier("cross") == "cross_n" and identifier("4x4") == "m_4x4"


def _switch_links(name: str, tmp_path: Path) -> tuple[set[tuple[str, str]], set[tuple[str, str]]]:
    """(every switch-to-switch link, the links with a hop buffer) of a preset's top."""
    import re
    arts = write_fabric_rtl(adg_file.load_adg(name, tmp_path), tmp_path)
    graph = arts.rtl.view
    producer = {id(r): n.name for n in graph.nodes if n.kind == "spatial_sw" for r in n.outputs}
    links, hop_of = set(), {}
    for n in graph.nodes:
        if n.kind == "spatial_sw":
            for k, v in enumerate(n.inputs):
                if id(v) in producer:
                    links.add((producer[id(v)], n.name))
                    hop_of[f"{n.name}_hop{k}"] = (producer[id(v)], n.name)
    top = arts.top_file.read_text()
    buffered = {hop_of[h] for h in re.findall(r"^\s*\w+ (\w+_hop\d+) \($", top, re.M)}
    return links, buffered


def test_switch_rings_get_one_register_per_link_pair(tmp_path):
    # Every ring of switches passes a hop buffer (both handshake paths
    # registered), but a link pair needs only one of them: a route that
    # crosses a buffer per hop takes a cycle per switch.
    links, buffered = _switch_links("chess-4x4", tmp_path)
    assert buffered < links
    assert all(((b, a) in buffered) != ((a, b) in buffered) for a, b in links)
    free = links - buffered
    succ: dict[str, list[str]] = {}
    for a, b in free:
        succ.setdefault(a, []).append(b)
    done: set[str] = set()

    def acyclic_from(node: str, stack: set[str]) -> bool:
        if node in stack:
            return False
        if node in done:
            return True
        ok = all(acyclic_from(nxt, stack | {node}) for nxt in succ.get(node, []))
        done.add(node)
        return ok

    assert all(acyclic_from(n, set()) for n in list(succ))


def test_a_pe_output_into_a_fifo_leaves_without_its_own_buffer():
    # `-f`: the fifo is the output's register; elsewhere the PE's buffer stays
    def pe_modules(name: str) -> list[str]:
        rtl = fabric_rtl(adg_view(preset(name).build()), name)
        return [m.text for m in rtl.modules if m.name.startswith("loom_fabric_spatial_pe_")]

    plain, direct = pe_modules("chess-2x2-ext1"), pe_modules("chess-2x2-ext1-f")
    assert plain and direct
    assert all(re.search(r"\bout_buf3 \(", t) and "UNOPTFLAT" not in t for t in plain)
    assert not any("out_buf" in t for t in direct)
    assert all("lint_off UNOPTFLAT" in t for t in direct)


def test_a_f_preset_links_its_switches_backward_through_bypassable_fifos(tmp_path):
    # `-f`: the link a hop buffer would register (backward in body order) is
    # a bypassable fifo of the hop buffer's slots instead, so the mapper can
    # bypass it where the ring keeps another register; the direct links
    # left form no ring, so every ring of switches still passes a fifo
    from loom.fabric.rtl.latency import LINK_BUFFER_SLOTS

    name = "chess-4x4-ext2-f"
    arts = write_fabric_rtl(adg_file.load_adg(name, tmp_path), tmp_path)
    graph = arts.rtl.view
    assert graph.switch_rings and not adg_view(preset("chess-4x4-ext2").build()).switch_rings
    assert not re.search(r"_hop\d+ \(", arts.top_file.read_text())   # no hop buffer
    producer = {id(r): n for n in graph.nodes for r in n.outputs}
    direct: dict[str, list[str]] = {}
    through: set[tuple[str, str]] = set()
    for n in graph.nodes:
        if n.kind != "spatial_sw":
            continue
        for v in n.inputs:
            src = producer.get(id(v))
            if src is not None and src.kind == "spatial_sw":
                direct.setdefault(src.name, []).append(n.name)
            elif src is not None and src.kind == "fifo" and \
                    (up := producer.get(id(src.inputs[0]))) is not None and up.kind == "spatial_sw":
                assert "bypassable" in src.definition.attributes
                assert fs.int_param(src.definition, "depth", 0) == LINK_BUFFER_SLOTS
                through.add((up.name, n.name))
    pairs = {(a, b) for a, bs in direct.items() for b in bs}
    assert through and {(b, a) for a, b in through} == pairs   # one way direct, one way a fifo
    done: set[str] = set()

    def acyclic_from(node: str, stack: frozenset[str]) -> bool:
        if node in stack:
            return False
        if node not in done:
            if not all(acyclic_from(nxt, stack | {node}) for nxt in direct.get(node, [])):
                return False
            done.add(node)
        return True

    assert all(acyclic_from(n, frozenset()) for n in list(direct))
    # the switches and the top on those rings carry the UNOPTFLAT waiver, the plain ones not
    rtl = arts.rtl
    switches = [m.text for m in rtl.modules if m.name.startswith("loom_fabric_spatial_sw_")]
    assert switches and all("lint_off UNOPTFLAT" in t for t in switches)
    assert "lint_off UNOPTFLAT" in arts.top_file.read_text()
    plain = fabric_rtl(adg_view(preset("chess-4x4-ext2").build()), "chess-4x4-ext2")
    assert not any("UNOPTFLAT" in m.text for m in plain.modules)


@pytest.mark.rtl
def test_a_long_unused_list_stays_under_verilators_line_limit(tmp_path):
    """A 16x16 `-f` top leaves some 3,800 config ranges unread; on one line
    they passed Verilator's 40,000 preprocessor tokens a line and the build
    failed. 8,000 ranges through the `unused` macro lint clean."""
    from loom.fabric.rtl.sv import Ref
    from loom.rtl.render import template_environment
    n = 8000
    text = template_environment().from_string(
        '{% import "fabric_sv.sv.j2" as sv %}'
        "module many_unused (input logic [{{ n * 2 - 1 }}:0] cfg_bits);\n"
        '{{ sv.unused(es, "every other bit") }}\n'
        "endmodule\n").render(n=n, es=[Ref("cfg_bits", 2 * k + 1, 2 * k) for k in range(n)])
    (tmp_path / "many_unused.sv").write_text(text)
    res = lint(tmp_path, ["many_unused.sv"], "many_unused")
    assert res.ok, res.output[:2000]
