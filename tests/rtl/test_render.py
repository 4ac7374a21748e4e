"""The renderer and the quality gates on every catalog unit: mangled names,
headers, no zero-width ports, one-line errors on bad parameters, Verilator
lint with -Wall (no waivers) and Yosys synthesis. The real Verilator build of
every unit happens in the per-template simulation tests."""

import re
from pathlib import Path

import pytest

from loom.diagnostics import LoomError, Location
from loom.rtl.catalog import CATALOG
from loom.rtl.gates import lint, synthesize, write_unit
from loom.rtl.render import render_unit

ROOT = Path(__file__).resolve().parents[2]
WORK = ROOT / "gen" / "rtl_gates"
ALL = [(f, p) for f, sets in CATALOG.items() for p in sets]


def _id(fp):
    f, p = fp
    return f + "-" + "-".join(f"{k}{v}" for k, v in p.items() if k != "extras") + (
        "-x" if p.get("extras") else "")


def test_names_are_mangled_per_parameter_set():
    assert render_unit("fork", n=2, w=32)[0] == "loom_fork_n2_w32"
    assert render_unit("stream", step_op="+=", cont_cond="<", w=64)[0] == "loom_stream_add_lt_w64"
    assert render_unit("cmpi", predicate="slt", w=32)[0] == "loom_cmpi_slt_w32"
    assert render_unit("mux", n=2, w=32, extras=(("tag", 2), ("spec", 1)))[0] == \
        "loom_mux_n2_w32_xtag2_xspec1"
    names = [render_unit(f, **p)[0] for f, p in ALL]
    assert len(set(names)) == len(names)


def test_header_names_template_parameters_and_origin():
    name, text = render_unit("fork", n=3, w=8, origin="handshake.fork at k.c:12")
    lines = text.splitlines()
    assert lines[0] == "// loom_fork_n3_w8: rendered from templates/fork.sv.j2"
    assert "n=3" in lines[1] and "w=8" in lines[1]
    assert lines[2] == "// for: handshake.fork at k.c:12"
    assert f"module {name} (" in text


@pytest.mark.parametrize("family", ["fork", "cond_br", "mux", "merge", "oehb", "tehb", "gate",
                                    "carry", "invariant"])
def test_control_channels_have_no_data_port(family):
    params = dict(CATALOG[family][0])
    params["w"] = 0
    _, text = render_unit(family, **params)
    ports = text.split(");", 1)[0]
    data_ports = re.findall(r"logic (?:\[[^\]]*\] )?(\w+_data)\b", ports)
    # only genuine 1-bit data channels (conditions) remain
    assert set(data_ports) <= {"cond_data", "before_cond_data", "after_cond_data", "d_data",
                               "sel_data"}
    assert "[-1:0]" not in text and "[0:1]" not in text


@pytest.mark.parametrize("family,params,message", [
    ("fork", dict(n=0, w=32), "parameter 'n' must be an integer in [1, 256], got 0"),
    ("fork", dict(n=2), "missing parameter 'w'"),
    ("fork", dict(n=2, w=32, depth=3), "unknown parameter(s) depth"),
    ("stream", dict(step_op="%=", cont_cond="<"), "parameter 'step_op' must be one of"),
    ("cmpi", dict(predicate="lt", w=32), "parameter 'predicate' must be one of"),
    ("constant", dict(w=4, value=16), "representable in 4 bits"),
    ("extsi", dict(w_in=32, w_out=16), "must be wider"),
    ("mux", dict(n=2, w=0, extras=(("tag", 2),)), "control channel (w=0) cannot carry"),
    ("fork", dict(n=2, w=8, extras=(("valid", 1),)), "reserved"),
    ("memory", dict(ld=1, st=0, shape=(4,), w=8), "without store ports or contents"),
    ("memory", dict(ld=1, st=1, shape=(2,), w=8, init=(1, 2)), "read-only: no store ports"),
    ("memory", dict(ld=1, st=0, shape=(2,), w=8, init=(1, 2, 3)), "must be 2 integers of 8 bits"),
    ("memory", dict(ld=1, st=0, shape=(2,), w=8, init=(1, 256)), "must be 2 integers of 8 bits"),
    ("memory", dict(ld=1, st=1, shape=(1 << 20,), w=8, aw=16), "cannot index"),
    ("frobnicate", dict(), "no RTL unit family 'frobnicate'"),
])
def test_bad_parameters_are_one_line_errors(family, params, message):
    loc = Location("k.dfg.mlir", 7, 3)
    with pytest.raises(LoomError) as err:
        render_unit(family, loc=loc, **params)
    text = err.value.format()
    assert message in text
    assert text.startswith("k.dfg.mlir:7:3: error: ") and "\n" not in text


@pytest.mark.parametrize("fp", ALL, ids=[_id(fp) for fp in ALL])
def test_lint_clean(fp):
    family, params = fp
    name, text = render_unit(family, **params)
    write_unit(WORK, name, text)
    configs = [()] + ([("LOOM_SIM",)] if "LOOM_SIM" in text else [])
    for defines in configs:
        result = lint(WORK, [f"{name}.sv"], name, defines)
        assert result.ok, f"{name} {defines}:\n{result.output}"


def _cheap(sets):
    """One parameter set per family for the default run: the first one of at
    most 32 bits (a 64-bit divider takes Yosys about 12 s; see bench/unit_area.py)."""
    return next(p for p in sets if p.get("w", 0) <= 32) if len(sets) > 1 else sets[0]


SYNTH = [(f, _cheap(sets)) for f, sets in CATALOG.items()]


@pytest.mark.parametrize("fp", SYNTH, ids=[_id(fp) for fp in SYNTH])
def test_synthesizes(fp):
    family, params = fp
    name, text = render_unit(family, **params)
    write_unit(WORK, name, text)
    result = synthesize(WORK, [f"{name}.sv"], name)
    assert result.cells >= 0
    if any(k in text for k in ("always_ff",)):
        assert result.ffs > 0, f"{name}: state was optimized away"


SLOW_SYNTH = [fp for fp in ALL if fp not in SYNTH]


@pytest.mark.slow
@pytest.mark.parametrize("fp", SLOW_SYNTH, ids=[_id(fp) for fp in SLOW_SYNTH])
def test_synthesizes_all(fp):
    family, params = fp
    name, text = render_unit(family, **params)
    write_unit(WORK, name, text)
    synthesize(WORK, [f"{name}.sv"], name)
