"""Every kernel of make test's list through its AXI shell (loom sim --iface axi).

cocotbext-axi's AxiLiteMaster programs and starts each invocation (polling
and interrupt both used), an AxiRam per array holds the native run's
arrays; under a stall seed every AXI channel pauses (make test: each kernel
under one of the two, in turn; both behind slow). Results and final
memories must equal the native run's, every channel of the kernel inside
the golden model's; inside a fabric, every DFG edge where it ends.
"""

from __future__ import annotations

import json
from dataclasses import replace
from pathlib import Path

import pytest

from loom.export.sim import AxiSetup, axi_run, axi_setup
from loom.fabric.adg_view import adg_view
from loom.fabric.config_layout import fabric_layout
from loom.fabric.presets import preset
from loom.inputs import KernelSource
from loom.regress.plan import SLOW_KERNELS, all_kernels
from loom.sim import profiles

ROOT = Path(__file__).resolve().parents[2]
AXI_ROOT = ROOT / "gen" / "test_axi"


def _params() -> list:
    """(kernel, stall seed) for every kernel and both seeds: in make test each
    kernel under one seed, the mild and the harsh in turn down the list, so
    each seed covers half the kernels; its other seed (and the slow kernels)
    behind slow."""
    seeds = profiles.STALL_SEEDS
    return [pytest.param(name, seed, marks=pytest.mark.slow) if name in SLOW_KERNELS
            or seed != seeds[i % len(seeds)] else (name, seed)
            for i, name in enumerate(all_kernels()) for seed in seeds]


@pytest.mark.parametrize("name,seed", _params())
def test_kernel_through_the_axi_shell(name, seed):
    # a directory per seed: the two may run at once on two workers
    s = axi_setup(KernelSource(name), AXI_ROOT / f"{name}-seed{seed}")
    result = axi_run(s, seed)
    assert result.passed, f"seed {seed}: " + "\n".join(result.problems)
    assert len(result.cycles) == s.bundle.start_token_count


def _drop_read_after_write_order(ip) -> None:
    """The master's RAW check removed: a read of an element an older beat in
    flight writes goes to the memory at once, which may answer it before
    the write (AXI does not order them)."""
    for path in ip.files:
        if path.name.startswith("loom_axi_master_"):
            text = path.read_text()
            assert text.count("ar_blocked = 1'b1;") == 1
            path.write_text(text.replace("ar_blocked = 1'b1;", "ar_blocked = 1'b0;"))


def test_a_master_without_read_after_write_order_is_caught():
    # histogram: bins[k] read, incremented and written back, k from the data:
    # back-to-back iterations hit the same bin
    s = axi_setup(KernelSource("histogram"), AXI_ROOT / "histogram.no-raw",
                  mutate=_drop_read_after_write_order)
    results = [axi_run(s, seed, ideal) for seed, ideal in ((1, True), *((k, False) for k in
                                                                     profiles.STALL_SEEDS))]
    assert not all(r.passed for r in results)


def test_a_fabric_through_the_axi_shell():
    """dot mapped onto chess-8x8-ext2 (one build for both parts): the
    configuration words go in on s_axis_config (an AxiStreamSource, paused
    too), then the invocation; dot's arrays sit behind two of the fabric's
    extmemories, each through its own AXI4 master. Results and memories
    against the native run; every DFG edge that ends at a PE or memory input
    against the golden model where it ends (the others end at result ports,
    which the scoreboard reads)."""
    from loom.mapper.kernel_map import MapRequest
    source = KernelSource("dot")
    s = axi_setup(source, AXI_ROOT / "dot.chess-8x8-ext2",
                  adg=MapRequest(source, "chess-8x8-ext2"))
    assert s.ip.config_words and s.ip.netlist is None and s.ip.edges is not None
    routed = {p.edge for p in s.ip.edges.probes}
    into_outputs = {p.edge for p in s.ip.edges.probes if p.output is not None}
    for seed in profiles.STALL_SEEDS:
        result = axi_run(s, seed)
        assert result.passed, f"seed {seed}: " + "\n".join(result.problems)
        assert result.report["edges_compared"] == len(routed - into_outputs) > 0
    _broken_constant_is_caught_on_its_edge(s)


def _broken_constant_is_caught_on_its_edge(s: AxiSetup) -> None:
    """The constant that starts dot's sum (0, the carry's initial value, on
    a PE of its own: a carry hosts no constant) set to 5 through the
    configuration layout: the first divergence is on the constant's edge into
    the carry, expected 0, got 5, as `loom sim --adg` would report it."""
    assert s.ip.edges is not None
    report = next((s.ip.out_dir / "build").glob("*.map.json")).read_text()
    rows = {r["sw_node"]: r for r in json.loads(report)["node_mappings"]}
    (edge,) = [p for p in s.ip.edges.probes if p.src in rows and p.dst in rows
               and rows[p.src]["sw_op"] == "handshake.constant"
               and rows[p.dst]["sw_op"] == "dataflow.carry"]
    layout = fabric_layout(adg_view(preset("chess-8x8-ext2").build()))
    values = layout.decode(list(s.ip.config_words))
    pe = rows[edge.src]["pe_name"]
    assert values[pe]["fu.0.value"] == 0
    values[pe]["fu.0.value"] = 5
    broken = replace(s, ip=replace(s.ip, config_words=tuple(layout.encode(values))))
    result = axi_run(broken, 1)
    first = [p for p in result.problems if p.startswith("first divergence on DFG edge")]
    assert first and first[0].startswith(f"first divergence on DFG edge {edge.edge} ")
    assert "token 0: expected 0, got 5" in first[0]   # dot's one invocation
