"""Unit tests of rendered RTL units against the golden op classes.

One Verilator build per test module: every parameter set of a family is
instantiated side by side in a generated wrapper (`tb_<name>`, instances
`u0`, `u1`, ... with flattened channel ports `u0_outs1_valid`, ...), and one
simulation runs all of them concurrently through several episodes (reset in
between) with different idle/backpressure profiles. Builds are cached by a
hash of their sources under gen/rtl_units/<name>/, each behind a lock of
its own directory (loom.sim.runner.dir_lock).

The expected stream of every output channel comes from the golden actor
fed the same input streams; the RTL must also consume exactly the input
tokens the actor consumes.
"""

from __future__ import annotations

import hashlib
import json
import os
import random
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from loom.golden.actor import Actor, drive_actor
from loom.golden.channel import Channel
from loom.rtl.ports import Port
from loom.rtl.render import render_spec
from loom.rtl.units import UnitSpec
from loom.sim.runner import (DEFINES, QUICK_MAKEFLAGS, X_ARGS, dir_lock, verilator_version,
                             x_plusargs)
from tb.scoreboard import Scoreboard

ROOT = Path(__file__).resolve().parents[1]
BUILD_ROOT = ROOT / "gen" / "rtl_units"


# ---------------------------------------------------------------- golden side

def golden_streams(actor: Actor, inputs: Sequence[Sequence[Any]],
                   max_firings: int = 10_000_000) -> tuple[list[list[Any]], list[int]]:
    """Output streams of `actor` fed `inputs`, and how many tokens it took
    from each input (the RTL must take exactly as many)."""
    return drive_actor(actor, inputs, max_firings)


def golden_stepwise(actor: Actor, n_inputs: int,
                    batches: Sequence[Sequence[tuple[int, Any]]]) -> tuple[list[list[Any]], list[int]]:
    """Like golden_streams, but the tokens arrive in batches of (operand,
    token), the actor running to quiescence after each batch: the order a
    test imposes with gates (e.g. mutually exclusive merge inputs)."""
    ins = [Channel(f"in{i}") for i in range(actor.n_in)]
    outs = [Channel(f"out{i}") for i in range(actor.n_out)]
    pushed = [0] * n_inputs
    for batch in batches:
        for k, token in batch:
            ins[k].q.append(token)
            pushed[k] += 1
        while actor.fire(ins, outs):
            pass
    consumed = [pushed[k] - len(ins[k].q) for k in range(n_inputs)]
    return [ch.trace for ch in outs], consumed


# ---------------------------------------------------------------- stimulus

def edge_values(w: int) -> list[int]:
    if w <= 0:
        return [0]
    m = (1 << w) - 1
    return sorted({0, 1 & m, m, 1 << (w - 1), m >> 1, (1 << (w - 1)) + 1 & m, 2 & m})


def rand_value(rng: random.Random, w: int) -> Any:
    """A random w-bit pattern biased to edge cases; None for a control token."""
    if w == 0:
        return None
    r = rng.random()
    if r < 0.25:
        return rng.choice(edge_values(w))
    if r < 0.45:
        return rng.randrange(min(1 << w, 16))
    return rng.getrandbits(w)


def rand_token(rng: random.Random, port: Port) -> Any:
    data = rand_value(rng, port.width)
    if not port.extras:
        return data
    return (data, *[rng.getrandbits(w) for _, w in port.extras])


# ---------------------------------------------------------------- cases

# a token waits until each named channel has seen at least `count` transfers
Gate = list[tuple[str, int]] | None


@dataclass
class Stimulus:
    """Input streams in golden operand order, with optional per-token gates."""

    inputs: list[list[Any]]
    gates: dict[int, list[Gate]] = field(default_factory=dict)   # operand -> gates
    meta: dict[str, Any] = field(default_factory=dict)           # for the expected side


@dataclass
class Expected:
    outputs: list[list[Any]]
    consumed: list[int]
    prefix_only: set[int] = field(default_factory=set)   # outputs compared as a prefix
    memory: list[int] | None = None                      # final contents (extmemory)


@dataclass
class UnitCase:
    """How to test one unit (one parameter set)."""

    spec: UnitSpec
    stimulus: Callable[[random.Random, int], Stimulus]
    expected: Callable[[Stimulus], Expected]
    # unit channel names in golden operand / result order (default: port order)
    in_channels: list[str] | None = None
    out_channels: list[str] | None = None
    tokens_scale: float = 1.0
    # outputs whose valid may legally drop without a transfer (a lazy fork's
    # valid waits for the other outputs' ready): data-stability only
    valid_may_drop: bool = False
    # plain inputs held at a value for the run (a configured field: cmpi's
    # predicate, the ALU's op_sel), tied in the wrapper
    ties: dict[str, int] = field(default_factory=dict)

    def ins(self) -> list[str]:
        if self.in_channels is not None:
            return self.in_channels
        return [c for p in self.spec.inputs if not p.name.startswith("mem_") and not p.plain
                for c in p.channel_names()]

    def outs(self) -> list[str]:
        if self.out_channels is not None:
            return self.out_channels
        return [c for p in self.spec.outputs if not p.name.startswith("mem_")
                for c in p.channel_names()]


def actor_case(spec: UnitSpec, make_actor: Callable[[], Actor],
               stimulus: Callable[[random.Random, int], Stimulus] | None = None,
               **kw: Any) -> UnitCase:
    """A case whose expected streams come from one golden actor."""

    def expected(stim: Stimulus) -> Expected:
        outs, consumed = golden_streams(make_actor(), stim.inputs)
        return Expected(outs, consumed)

    case = UnitCase(spec, stimulus or (lambda rng, n: Stimulus([])), expected, **kw)
    if stimulus is None:
        case.stimulus = lambda rng, n: Stimulus(
            [[rand_token(rng, _port_of(spec, c)) for _ in range(n)] for c in case.ins()])
    return case


def _port_of(spec: UnitSpec, channel: str) -> Port:
    for p in spec.ports:
        if channel in p.channel_names():
            return p
    raise KeyError(channel)


# ---------------------------------------------------------------- wrapper

def _decl(direction: str, bits: int, name: str) -> str:
    rng = f"[{bits - 1}:0] " if bits > 1 else ""
    return f"  {direction:6} logic {rng}{name}"


def wrapper_sv(top: str, instances: list[tuple[str, UnitSpec, dict[str, int]]]) -> str:
    """A top that instantiates every unit with flattened per-channel ports,
    each instance's tied plain inputs held at their values."""
    ports = [_decl("input", 1, "clk"), _decl("input", 1, "rst")]
    body: list[str] = []
    for prefix, spec, ties in instances:
        conns = [".clk(clk)", ".rst(rst)"] if spec.clocked else []
        for p in spec.ports:
            if p.plain and p.name in ties:   # a configured field, fixed for the run
                bits = max(p.width, 1)
                conns.append(f".{p.name}({bits}'d{ties[p.name]})")
                continue
            if p.plain:   # a status wire: one top port of the same name
                ports.append(_decl("output" if p.direction == "out" else "input", 1,
                                   f"{prefix}_{p.name}"))
                conns.append(f".{p.name}({prefix}_{p.name})")
                continue
            for direction, sig, bits in p.signals():
                suffix = sig[len(p.name) + 1:]          # data, valid, ready, <extra>
                per = bits // p.n
                bus = f"{prefix}__{sig}"
                body.append(f"  logic [{bits - 1}:0] {bus};")
                for i, ch in enumerate(p.channel_names()):
                    top_sig = f"{prefix}_{ch}_{suffix}"
                    ports.append(_decl(direction, per, top_sig))
                    sl = f"{bus}[{i * per + per - 1}:{i * per}]"
                    body.append(f"  assign {top_sig} = {sl};" if direction == "output"
                                else f"  assign {sl} = {top_sig};")
                conns.append(f".{sig}({bus})")
        body.append(f"  {spec.module} {prefix} (\n    " + ",\n    ".join(conns) + "\n  );")
    return (f"// generated test wrapper\nmodule {top} (\n" + ",\n".join(ports)
            + "\n);\n" + "\n".join(body) + "\nendmodule\n")


# ---------------------------------------------------------------- build + run

class UnitBuild:
    """The Verilator build of one wrapper around several units."""

    # short runs driven from Python: unoptimized C++ in one file builds faster
    # (test_arith_binary and test_dataflow_stream: 46 s against 52 s with MAKEFLAGS)
    makeflags = QUICK_MAKEFLAGS

    def __init__(self, name: str, specs: Sequence[UnitSpec],
                 ties: Sequence[dict[str, int]] = ()):
        self.name = name
        self.top = f"tb_{name}"
        self.dir = BUILD_ROOT / name
        held = list(ties) or [{} for _ in specs]
        self.instances = [(f"u{i}", s, t) for i, (s, t) in enumerate(zip(specs, held))]

    def sources(self) -> dict[str, str]:
        files: dict[str, str] = {}
        for _, spec, _ in self.instances:
            files.setdefault(f"{spec.module}.sv", render_spec(spec))
        files[f"{self.top}.sv"] = wrapper_sv(self.top, self.instances)
        return files

    def build(self) -> None:
        from cocotb_tools.runner import get_runner

        files = self.sources()
        src = self.dir / "src"
        key = hashlib.sha256(json.dumps([sorted(files.items()), DEFINES, X_ARGS,
                                         self.makeflags, verilator_version()]).encode()).hexdigest()
        with dir_lock(self.dir):
            stamp = self.dir / "build.key"
            if stamp.exists() and stamp.read_text() == key and (self.dir / "sim" / self.top).exists():
                return
            src.mkdir(parents=True, exist_ok=True)
            for old in src.glob("*.sv"):
                if old.name not in files:
                    old.unlink()
            for fname, text in files.items():
                (src / fname).write_text(text)
            runner = get_runner("verilator")
            old_flags = os.environ.get("MAKEFLAGS")
            os.environ["MAKEFLAGS"] = self.makeflags
            try:
                runner.build(sources=[src / f for f in sorted(files)], hdl_toplevel=self.top,
                             build_dir=self.dir / "sim", defines=DEFINES, build_args=X_ARGS,
                             timescale=("1ns", "1ps"), log_file=self.dir / "build.log")
            finally:
                if old_flags is None:
                    os.environ.pop("MAKEFLAGS", None)
                else:
                    os.environ["MAKEFLAGS"] = old_flags
            stamp.write_text(key)

    def run(self, plan: dict[str, Any], tag: str, x_seed: int = 1,
            test_module: str = "tb.unit_cocotb") -> dict[str, Any]:
        from cocotb_tools.runner import get_runner

        rundir = self.dir / f"run_{tag}"
        rundir.mkdir(parents=True, exist_ok=True)
        plan_path, res_path = rundir / "plan.json", rundir / "results.json"
        plan_path.write_text(json.dumps(plan))
        if res_path.exists():
            res_path.unlink()
        runner = get_runner("verilator")
        runner.test(test_module=test_module, hdl_toplevel=self.top, hdl_toplevel_lang="verilog",
                    build_dir=self.dir / "sim", test_dir=rundir, plusargs=x_plusargs(x_seed),
                    results_xml=str(rundir / "results.xml"), log_file=rundir / "sim.log",
                    extra_env={"LOOM_UNIT_PLAN": str(plan_path),
                               "LOOM_UNIT_RESULTS": str(res_path),
                               "PYTHONPATH": os.pathsep.join([str(ROOT), os.environ.get("PYTHONPATH", "")])})
        if not res_path.exists():
            raise RuntimeError(f"simulation wrote no results; see {rundir / 'sim.log'}")
        return json.loads(res_path.read_text())


# ---------------------------------------------------------------- profiles

@dataclass(frozen=True)
class Profile:
    """Idle and ready probabilities of one episode (drawn per channel)."""

    name: str
    idle: tuple[float, float]
    ready: tuple[float, float]
    mem_latency: tuple[int, int] = (1, 6)   # response latency range of memory agents


PROFILES = (
    Profile("full_rate", (0.0, 0.0), (1.0, 1.0)),
    Profile("random", (0.0, 0.5), (0.3, 1.0)),
    Profile("stalls", (0.5, 0.8), (0.1, 0.4)),
)


def _channel_meta(spec: UnitSpec, channel: str) -> tuple[int, list[tuple[str, int]]]:
    p = _port_of(spec, channel)
    return p.width, [list(x) for x in p.extras]   # type: ignore[misc]


def _jsonable(v: Any) -> Any:
    return list(v) if isinstance(v, tuple) else v


def run_cases(name: str, cases: Sequence[UnitCase], seed: int = 1, tokens: int = 600,
              profiles: Sequence[Profile] = PROFILES) -> dict[str, Any]:
    """Builds one wrapper for all cases, runs every profile as an episode and
    checks every channel against the golden streams. Raises AssertionError
    naming the first divergence; returns a summary per episode: its cycles
    and, per memory agent, the most request beats it had in flight at once."""
    build = UnitBuild(name, [c.spec for c in cases], [c.ties for c in cases])
    build.build()
    rng = random.Random(f"{name}:{seed}")
    episodes, checks = [], []
    for prof in profiles:
        ep: dict[str, Any] = {"name": prof.name, "drivers": [], "receivers": [],
                              "memories": [], "drain": 30}
        total = 0
        per_ep: list[tuple[str, UnitCase, Expected]] = []
        for (prefix, _, _), case in zip(build.instances, cases):
            n = max(1, int(tokens * case.tokens_scale))
            stim = case.stimulus(rng, n)
            exp = case.expected(stim)
            per_ep.append((prefix, case, exp))
            for k, (ch, stream) in enumerate(zip(case.ins(), stim.inputs)):
                width, extras = _channel_meta(case.spec, ch)
                gates = stim.gates.get(k)
                ep["drivers"].append({
                    "channel": f"{prefix}_{ch}", "width": width, "extras": extras,
                    "tokens": [_jsonable(t) for t in stream], "seed": rng.getrandbits(32),
                    "idle": rng.uniform(*prof.idle), "consume": exp.consumed[k],
                    "gates": None if gates is None else
                    [None if g is None else [[f"{prefix}_{c}", k] for c, k in g] for g in gates]})
                total += len(stream)
            for k, ch in enumerate(case.outs()):
                width, extras = _channel_meta(case.spec, ch)
                ep["receivers"].append({
                    "channel": f"{prefix}_{ch}", "width": width, "extras": extras,
                    "seed": rng.getrandbits(32), "ready": rng.uniform(*prof.ready),
                    "expect": len(exp.outputs[k]), "valid_may_drop": case.valid_may_drop})
                total += len(exp.outputs[k])
            if "memory" in stim.meta:   # initial contents behind mem_req / mem_resp
                ep["memories"].append({
                    "prefix": f"{prefix}_mem", "contents": stim.meta["memory"],
                    "latency": list(prof.mem_latency), "req_ready": rng.uniform(*prof.ready),
                    "seed": rng.getrandbits(32)})
        ep["max_cycles"] = 200 + 40 * total
        episodes.append(ep)
        checks.append(per_ep)
    results = build.run({"episodes": episodes}, f"seed{seed}", rng.getrandbits(31))
    summary = {}
    for ep, res, per_ep in zip(episodes, results["episodes"], checks):
        _check_episode(name, ep, res, per_ep)
        summary[ep["name"]] = {"cycles": res["cycles"],
                               "mem_in_flight": res.get("memory_in_flight", {})}
    return summary


def _check_episode(name: str, ep: dict[str, Any], res: dict[str, Any],
                   per_ep: list[tuple[str, UnitCase, Expected]]) -> None:
    where = f"{name}, episode {ep['name']}"
    problems = list(res["violations"]) + list(res["memory_errors"])
    sb = Scoreboard()
    for prefix, case, exp in per_ep:
        for k, ch in enumerate(case.outs()):
            full = f"{prefix}_{ch}"
            sb.expect(f"{full} ({case.spec.module})", exp.outputs[k], k in exp.prefix_only)
            sb.observe(f"{full} ({case.spec.module})", [tuple(t) for t in res["transfers"][full]])
        for k, ch in enumerate(case.ins()):
            full = f"{prefix}_{ch}"
            got = len(res["transfers"][full])
            if got != exp.consumed[k]:
                problems.append(f"{full} ({case.spec.module}): consumed {got} tokens, "
                                f"golden consumes {exp.consumed[k]}")
        if exp.memory is not None:
            final = res["memories"][f"{prefix}_mem"]
            if final != exp.memory:
                i = next(i for i, (a, b) in enumerate(zip(final, exp.memory)) if a != b)
                problems.append(f"{prefix} ({case.spec.module}): final memory differs first at "
                                f"element {i}: expected {exp.memory[i]}, got {final[i]}")
    assert_episode_clean(where, res, sb, problems)


def assert_episode_clean(where: str, res: dict[str, Any], sb: Scoreboard,
                         problems: list[str]) -> None:
    """Fails the test with everything wrong in one episode: the scoreboard's
    first divergence, a timeout with the stuck channels, then `problems`."""
    report = sb.report()
    if res["timeout"]:
        problems.insert(0, f"timeout after {res['cycles']} cycles; stuck at valid && !ready: "
                           f"{', '.join(res['stuck']) or 'none'}")
    if report:
        problems.insert(0, report)
    assert not problems, f"{where}: " + "\n  ".join(problems)
