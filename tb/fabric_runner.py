"""Component and whole-fabric tests of the fabric RTL in cocotb.

A test writes a small fabric.module (one or a few components wired to the
module ports), gets its RTL from loom.fabric.rtl, and runs episodes: each
episode resets the fabric, streams a configuration (encoded by
loom.fabric.config_layout) through the cfg port and drives random tokens on
the data ports under random idle cycles and backpressure, while the data
ports are held until the last config word is in. The expected token stream
of every port comes from the reference models (loom.fabric.models).

The simulation side is tb.unit_cocotb (the same drivers, monitors and
protocol checkers as the unit tests): a wrapper `tb_<name>` renames the
config stream to the channel `cfg` with the extra signal `last`.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from xdsl.dialects.builtin import ModuleOp

from loom.fabric.config_layout import FabricLayout
from loom.fabric.adg_view import adg_view
from loom.fabric.rtl.top import FabricRtl, fabric_rtl
from loom.ir import parse
from loom.inputs import KernelSource
from loom.mapper.kernel_map import MapRequest
from loom.sim import fabric_flow
from loom.sim.fabric_flow import FabricSetup
from loom.sim.runner import UNOPTIMIZED_MAKEFLAGS, file_lock
from tb.scoreboard import Scoreboard
from tb.unit_runner import PROFILES, Profile, UnitBuild, assert_episode_clean, rand_value


@dataclass
class FabricCase:
    """One episode's configuration, stimulus and expectation, by top port name."""

    config: Mapping[str, Mapping[str, int]]
    inputs: dict[str, list[int]]
    outputs: dict[str, list[int]]
    consumed: dict[str, int]
    words: list[int] = field(default_factory=list)
    memories: dict[str, list[int]] = field(default_factory=dict)
    """extmemory instance -> contents behind its master port (a MemoryAgent)."""
    final_memories: dict[str, list[int]] = field(default_factory=dict)
    """extmemory instance -> the contents expected after the episode."""
    by_tag: dict[str, int] = field(default_factory=dict)
    """output port -> its value bits: its tokens are compared per tag (the
    lanes of a memory family interleave by timing; each lane keeps order)."""


def load_adg(text: str, name: str = "adg.fabric.mlir") -> ModuleOp:
    from loom.ir import verify_module
    parsed = parse(text, name)
    verify_module(parsed.module, name, parsed.op_positions)
    return parsed.module


def wrapper(rtl: FabricRtl, top: str) -> str:
    """`top` around the fabric: the cfg stream as channel `cfg` (data + `last`)."""
    ins, outs = rtl.port_names()
    widths = _port_widths(rtl)
    ports = ["input logic clk", "input logic rst", "input logic [31:0] cfg_data",
             "input logic [0:0] cfg_last", "input logic cfg_valid", "output logic cfg_ready"]
    conns = [".clk(clk)", ".rst(rst)", ".cfg_wdata(cfg_data)", ".cfg_last(cfg_last[0])",
             ".cfg_valid(cfg_valid)", ".cfg_ready(cfg_ready)"]
    for name in ins:
        ports += [f"input logic [{widths[name] - 1}:0] {name}_data",
                  f"input logic {name}_valid", f"output logic {name}_ready"]
    for name in outs:
        ports += [f"output logic [{widths[name] - 1}:0] {name}_data",
                  f"output logic {name}_valid", f"input logic {name}_ready"]
    for name in ins + outs:
        conns += [f".{name}_{s}({name}_{s})" for s in ("data", "valid", "ready")]
    for d, name, bits in rtl.master:
        ports.append(f"{'output' if d == 'out' else 'input'} logic [{bits - 1}:0] {name}")
        conns.append(f".{name}({name})")
    return (f"// generated test wrapper\nmodule {top} (\n  " + ",\n  ".join(ports)
            + f"\n);\n  {rtl.top} dut (\n    " + ",\n    ".join(conns) + "\n  );\nendmodule\n")


def _port_widths(rtl: FabricRtl) -> dict[str, int]:
    from loom.fabric.rtl.graph import wire_width
    from xdsl.dialects.builtin import MemRefType
    widths = {f"in{k}": wire_width(a.type) for k, a in enumerate(rtl.view.args)
              if not isinstance(a.type, MemRefType)}
    widths |= {f"out{i}": wire_width(v.type) for i, v in enumerate(rtl.view.results)}
    return widths


class FabricBuild(UnitBuild):
    """The Verilator build of one fabric and its wrapper."""

    makeflags = UNOPTIMIZED_MAKEFLAGS   # short random episodes on a large design

    def __init__(self, name: str, rtl: FabricRtl):
        super().__init__(f"fabric_{name}", [])
        self.rtl = rtl

    def sources(self) -> dict[str, str]:
        files = {f"{m.name}.sv": m.text for m in self.rtl.modules}
        files[f"{self.top}.sv"] = wrapper(self.rtl, self.top)
        return files


def random_tokens(rng: random.Random, width: int, n: int) -> list[int]:
    return [rand_value(rng, width) for _ in range(n)]


MakeCase = Callable[[random.Random, FabricLayout, int], FabricCase]
"""(rng, layout, tokens per input) -> the episode's case."""


def cycling(choices: Sequence[Any],
            case: Callable[[random.Random, Any, int], FabricCase]) -> MakeCase:
    """Episode k runs `case(rng, choices[k % len(choices)], n)`: every choice
    (an opcode, a mode) gets its episodes in turn."""
    episodes = iter(range(1 << 30))

    def make_case(rng: random.Random, layout: FabricLayout, n: int) -> FabricCase:
        return case(rng, choices[next(episodes) % len(choices)], n)
    return make_case


def run_fabric(name: str, adg_text: str, make_case: MakeCase, seed: int = 1,
               tokens: int = 200, episodes: int = 6,
               profiles: Sequence[Profile] = PROFILES) -> list[FabricCase]:
    """Runs `episodes` random configurations (cycling through `profiles`) on
    the fabric of `adg_text`; AssertionError names the first divergence."""
    rtl = fabric_rtl(adg_view(load_adg(adg_text, f"{name}.fabric.mlir")), name)
    build = FabricBuild(name, rtl)
    # one build directory a component: a test of another ADG of it (the
    # temporal PE's tests have four) may not rebuild it between this build
    # and this run (pytest-xdist workers raced so)
    with file_lock(build.dir.parent / f".{name}.use.lock"):
        build.build()
        return _run_episodes(name, rtl, build, make_case, seed, tokens, episodes, profiles)


def _run_episodes(name: str, rtl: FabricRtl, build: FabricBuild, make_case: MakeCase,
                  seed: int, tokens: int, episodes: int,
                  profiles: Sequence[Profile]) -> list[FabricCase]:
    widths = _port_widths(rtl)
    rng = random.Random(f"{name}:{seed}")
    plan, cases = [], []
    for e in range(episodes):
        prof = profiles[e % len(profiles)]
        case = make_case(rng, rtl.layout, tokens)
        case.words = rtl.layout.encode(case.config)
        cases.append(case)
        cfg = [[w, int(k == len(case.words) - 1)] for k, w in enumerate(case.words)]
        drivers = [{"channel": "cfg", "width": 32, "extras": [["last", 1]], "tokens": cfg,
                    "seed": rng.getrandbits(32), "idle": rng.uniform(*prof.idle),
                    "consume": len(cfg), "gates": None}] if cfg else []
        for port, stream in case.inputs.items():
            drivers.append({"channel": port, "width": widths[port], "extras": [],
                            "tokens": stream, "seed": rng.getrandbits(32),
                            "idle": rng.uniform(*prof.idle), "consume": case.consumed[port],
                            "gates": None})
        receivers = [{"channel": port, "width": widths[port], "extras": [],
                      "seed": rng.getrandbits(32), "ready": rng.uniform(*prof.ready),
                      "expect": len(stream), "valid_may_drop": False}
                     for port, stream in case.outputs.items()]
        total = len(cfg) + sum(map(len, case.inputs.values())) + sum(
            map(len, case.outputs.values()))
        memories = [{"prefix": f"{inst}_mem", "contents": contents,
                     "latency": list(prof.mem_latency), "req_ready": rng.uniform(*prof.ready),
                     "seed": rng.getrandbits(32)} for inst, contents in case.memories.items()]
        plan.append({"name": f"{prof.name}{e}", "drivers": drivers, "receivers": receivers,
                     "memories": memories, "drain": 30, "max_cycles": 300 + 40 * total})
    results = build.run({"episodes": plan}, f"seed{seed}", rng.getrandbits(31))
    for ep, res, case in zip(plan, results["episodes"], cases):
        _check(name, ep, res, case)
    return cases


def _check(name: str, ep: dict[str, Any], res: dict[str, Any], case: FabricCase) -> None:
    problems = list(res["violations"]) + list(res["memory_errors"])
    sb = Scoreboard()
    for port, stream in case.outputs.items():
        got = [tuple(t) for t in res["transfers"][port]]
        if port not in case.by_tag:
            sb.expect(port, stream)
            sb.observe(port, got)
            continue
        bits = case.by_tag[port]
        for tag in sorted({x >> bits for x in stream} | {v >> bits for _, v in got}):
            sb.expect(f"{port} tag {tag}", [x for x in stream if x >> bits == tag])
            sb.observe(f"{port} tag {tag}", [(c, v) for c, v in got if v >> bits == tag])
    for inst, expected in case.final_memories.items():
        final = res["memories"][f"{inst}_mem"]
        if final != expected:
            i = next(i for i, (a, b) in enumerate(zip(final, expected)) if a != b)
            problems.append(f"{inst}: final memory differs first at element {i}: "
                            f"expected {expected[i]}, got {final[i]}")
    for port, n in case.consumed.items():
        got = len(res["transfers"][port])
        if got != n:
            problems.append(f"{port}: consumed {got} tokens, the model consumes {n}")
    assert_episode_clean(f"{name}, episode {ep['name']} (config {dict(case.config)})", res, sb,
                         problems)


def mapped_c_kernel(c_text: str, name: str, adg: str, root: Path) -> FabricSetup:
    """A C kernel written to root/<name>.c, mapped onto `adg` and its fabric
    built, as `loom sim <name>.c --adg <adg>` does (outputs under root/out)."""
    src = root / f"{name}.c"
    src.write_text(c_text)
    return fabric_flow.setup(MapRequest(KernelSource(str(src), out_dir=root / "out"), adg))
