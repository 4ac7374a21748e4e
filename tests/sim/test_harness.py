"""The kernel harness (templates/kernel_tb.sv.j2): when a run is over, and
several invocations back to back. Expected values come from the native C run
or from Python models of the kernels, never from our own output."""

from __future__ import annotations

from concurrent.futures import ThreadPoolExecutor
from dataclasses import replace
from pathlib import Path

import pytest

from loom.bundle import Bundle, ExpectedOutput, MemoryRegion, ScalarInput
from loom.frontend.driver import compile_kernel
from loom.inputs import Inputs
from loom.sim.compare import read_trace
from loom.sim.flow import run_seed, setup
from loom.sim import profiles

from sim_inputs import SIM_ROOT, kernel_inputs

HERE = Path(__file__).parent
BUMP_DFG = HERE.parent / "golden" / "data" / "bump.dfg.mlir"   # bump.c beside it
SEEDS = [profiles.for_seed(seed) for seed in profiles.STALL_SEEDS]


def test_a_result_long_after_done_is_waited_for(tmp_path):
    """Class 3 of issue 9: the run used to end 64 cycles after `done`, and
    the late result was reported as 0."""
    arts = compile_kernel(HERE / "data" / "gcd_sub.c", None, [], [], tmp_path / "c")
    assert [o.data for o in arts.bundle.expected_outputs] == [[1]]   # the native run
    s = setup(kernel_inputs(arts, SIM_ROOT / "gcd_sub"), None)
    for settings in SEEDS:
        result = run_seed(s, settings)
        assert result.passed, f"seed {settings.seed}: " + "\n".join(result.problems)
        assert result.report["cycles"] > 10 * 64   # far past done + the old 64-cycle drain
        assert result.report["tokens"] == s.golden_tokens


@pytest.mark.xdist_group("fill_last")   # the seeds share SIM_ROOT/fill_last: one worker
@pytest.mark.parametrize("seed", [1, 2, 3, 4])
def test_done_waits_until_the_last_write_reached_memory(tmp_path, seed):
    """Done means ordered: a store's done token comes at acceptance, so the
    top's done also waits for every bridge to drain. With no drain cycles
    the memories are dumped right after done was taken; under a slow memory
    the last writes are still in flight at that point unless done waited."""
    arts = compile_kernel(HERE / "data" / "fill_last.c", None, [], [], tmp_path / "c")
    assert arts.bundle.expected_memory_regions[0].values == [7 * i + 1 for i in range(6)]
    s = setup(kernel_inputs(arts, SIM_ROOT / "fill_last"), None)
    settings = profiles.RunSettings(seed=seed, in_idle_pct=0, out_ready_pct=100, mem_ready_pct=15,
                                    mem_max_latency=9, drain=0)
    result = run_seed(s, settings)
    assert result.passed, f"seed {seed}: " + "\n".join(result.problems)


def _bump(ks: list[int]) -> tuple[list[int], list[int]]:
    """bump.c in Python: per-invocation sums and the array after the last."""
    a, sums = [1, 2, 3, 4], []
    for k in ks:
        a = [x + k for x in a]
        sums.append(sum(a))
    return sums, a


def _bump_setup(tmp_path: Path, ks: list[int]):
    sums, after = _bump(ks)
    bundle = Bundle("bump", start_token_count=len(ks), scalar_inputs=[ScalarInput(1, ks)],
                    memory_regions=[MemoryRegion(0, 4, [1, 2, 3, 4])],
                    expected_memory_regions=[MemoryRegion(0, 4, after)],
                    expected_outputs=[ExpectedOutput(0, sums)])
    path = tmp_path / "bump.bundle.json"
    bundle.save(path)
    return setup(Inputs("bump", SIM_ROOT / f"bump{len(ks)}", BUMP_DFG, path), None), sums


def test_invocations_run_back_to_back_on_the_rtl(tmp_path):
    s, _ = _bump_setup(tmp_path, [1, 2, -7])
    net = s.rtl.netlist
    for settings in SEEDS:
        result = run_seed(s, settings, full_trace=True)
        assert result.passed, f"seed {settings.seed}: " + "\n".join(result.problems)
        assert result.report["tokens"] == s.golden_tokens
        assert result.report["invocations"] == 3
        # invocation k+1's start token enters only after every output of invocation k
        trace = read_trace(Path(result.report["artifacts"]["trace"]))
        cycles = lambda ch: [c for c, _ in trace.transfers[(ch.copy_of or ch).index]]  # noqa: E731
        outs = [cycles(p.channel) for p in net.outputs]
        for p in net.inputs:   # the start token and the scalar k
            for k, began in enumerate(cycles(p.channel)[1:]):
                assert all(began > out[k] for out in outs), (p.name, k, began, outs)


def test_an_rtl_mismatch_names_its_invocation(tmp_path):
    s, sums = _bump_setup(tmp_path, [1, 2])
    wrong = replace(s.bundle, expected_outputs=[ExpectedOutput(0, [sums[0], sums[1] + 1])])
    result = run_seed(replace(s, bundle=wrong), SEEDS[0])
    assert result.problems == [f"mismatch against the bundle {tmp_path / 'bump.bundle.json'}: "
                               "invocation 1: result 0: "
                               f"expected {sums[1] + 1}, got {sums[1]}"]


def test_a_divergence_names_its_invocation(tmp_path):
    """The RTL is fed k = 5 where the golden run had k = 2 in invocation 1."""
    s, _ = _bump_setup(tmp_path, [1, 2])
    fed = replace(s.bundle, scalar_inputs=[ScalarInput(1, [1, 5])])
    result = run_seed(replace(s, bundle=fed), SEEDS[0])
    assert result.problems[0].startswith(
        "first divergence on channel 'arg1' (from the top input to "), result.problems
    assert "token 1 (invocation 1): expected 2, got 5 at cycle " in result.problems[0]


def test_two_runs_in_one_directory_take_turns(tmp_path):
    """Two runs of one seed with different inputs in one output directory (two
    pytest workers did this): each must see its own inputs, not the other's
    (a fresh-clone make test once reported no divergence for the k = 5 run)."""
    s, _ = _bump_setup(tmp_path, [1, 2])
    fed = replace(s, bundle=replace(s.bundle, scalar_inputs=[ScalarInput(1, [1, 5])]))
    for _ in range(3):
        with ThreadPoolExecutor(2) as pool:
            right, wrong = pool.map(lambda x: run_seed(x, SEEDS[0]), [s, fed])
        assert right.passed, right.problems
        assert "token 1 (invocation 1): expected 2, got 5 at cycle " in wrong.problems[0]


def test_an_unused_scalar_argument_is_discarded_by_golden_and_rtl(tmp_path):
    """Class 4 of issue 9: the golden model drops the unused argument's token
    (seed 003: discard semantics); the RTL top must take and drop it too."""
    arts = compile_kernel(HERE / "data" / "unused_arg.c", None, [], [], tmp_path / "c")
    assert arts.bundle.scalar(1) == 5 and arts.bundle.expected_outputs[0].data == [31]
    s = setup(kernel_inputs(arts, SIM_ROOT / "unused_arg"), None)
    assert s.golden.ok, s.golden.problems()
    for settings in SEEDS:
        result = run_seed(s, settings)
        assert result.passed, f"seed {settings.seed}: " + "\n".join(result.problems)
        assert result.report["tokens"] == s.golden_tokens
