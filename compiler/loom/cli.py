"""The `loom` command line (design.md section 7).

Exit status: 0 pass; 1 the design is wrong (mismatch, deadlock, leftover
token); 2 bad input or usage, with a one-line `file:line: error:` message.
"""

from __future__ import annotations

import argparse
import gc
import importlib
import os
import re
import sys
from collections.abc import Callable, Sequence

from loom.diagnostics import LoomError, NotBuiltError
from loom.ordering_modes import ORDERINGS
from loom.sim.profiles import SEED_RULE

MAP_ROUNDS = 15
"""The mapper's default round budget as the help says it (loom.mapper.mapping.ROUNDS,
not imported here: the parser stays light; a test keeps the two equal)."""
MAP_TUNE_ROUNDS = 4
"""The throughput rounds after a fit (loom.mapper.mapping.TUNE_ROUNDS, likewise)."""

# --- the ranges of the numeric arguments -------------------------------------------
# Every number on the command line goes through one of the types below, so a
# value out of its range is argparse's one line `loom CMD: error: argument
# --X: ...` with exit status 2, before any work starts (issue 29: `loom fuzz
# --count -1` ended in an IndexError traceback).

SEED_MAX = 2**32 - 1
"""Seeds are 0 to 2^32-1: the testbenches read `+loom_seed` into an `int
unsigned` (templates/kernel_tb.sv.j2, rtl/loom_mem_model.sv), so a larger or a
negative stall seed would silently run another seed's stalls; the mapper's and
fuzz's seeds take the same range (a negative fuzz seed names no C function)."""
COUNT_MAX = 100_000
"""Fuzz programs in one run, and stall seeds of one `loom regress --seeds`, at
most: `make fuzz` runs 1,000 and the nightly profile 100 seeds; a run of
100,000 takes days, and a count of billions would exhaust memory listing them."""
JOBS_MAX = 256
"""Parallel jobs (`-j`) at most: each job is a process (a Verilator build
and simulation, or a pytest-xdist worker), started up front."""
MAX_JOIN_FANIN = 64
"""The largest `--max-join-fanin` (loom.lowering.legalize.MAX_HARDWARE_JOIN_FANIN,
the config encoding's ceiling; not imported here, a test keeps the two equal);
the smallest is 2, as a tree of joins needs two inputs per join."""
ADG_GRAMMAR = ("chess-<R>x<C>[-t<T>][-ext<N>[x<L>[s<S>]]][-mem<N>[x<L>[s<S>]]][-ring][-b<F>][-d<K>]"
               "[-m<K>][-p][-tpe<S>][-fp][-f[<D>]]")
ADG_LIMITS = ("rows R and columns C 1 to 32, tracks T 1 to 7, memories N 1 to 64 of each "
              "kind, lanes L and S 1 to 256 per memory, bridge fan-in F 2 to 32, dividers and "
              "multipliers every K 1 to 32, temporal PE slots S 1 to 16, PE input slots D 1 "
              "to 64")
"""The preset grammar and its limits as `loom adg --help` says them
(loom.fabric.presets.GRAMMAR and LIMITS; not imported here, a test keeps them equal)."""

MUTATION_OPERATORS = ("logic", "compare", "negation", "term", "reset", "constant")
CONFIG_MUTATION_OPERATORS = ("route", "drop", "opcode", "bit")
PYTHON_MUTATION_OPERATORS = ("binary", "compare", "unary", "not", "number", "boolean", "loop")
PYTHON_MUTATION_AREAS = ("lowering", "golden")
"""loom.mutation.template_mutants.OPERATORS, config_mutants.CONFIG_OPERATORS,
python_mutants.PYTHON_OPERATORS and AREAS (not imported here: the parser
stays light; a test keeps them equal)."""

_INTEGER = re.compile(r"[+-]?[0-9]+")
_DIGITS_MAX = 30
"""A number of more digits is past every range here (and int() of thousands
of digits raises)."""


def _integer(text: str) -> int:
    """`text` as an integer, or ArgumentTypeError (argparse's one-line error)."""
    text = text.strip()
    if not _INTEGER.fullmatch(text):
        raise argparse.ArgumentTypeError(f"'{text}' is not a whole number")
    if len(text.lstrip("+-")) > _DIGITS_MAX:
        raise argparse.ArgumentTypeError(f"'{text[:_DIGITS_MAX]}...' is too large")
    return int(text)


def int_range(lo: int, hi: int | None = None) -> Callable[[str], int]:
    """An argparse type: an integer from `lo` to `hi` (no upper bound when None)."""
    span = f"from {lo} to {hi}" if hi is not None else f"{lo} or more"

    def parse(text: str) -> int:
        value = _integer(text)
        if value < lo or (hi is not None and value > hi):
            raise argparse.ArgumentTypeError(f"must be {span}, not {text.strip()}")
        return value
    parse.__name__ = f"integer {span}"
    return parse


positive_int = int_range(1)
seed_int = int_range(0, SEED_MAX)
count_int = int_range(1, COUNT_MAX)
jobs_int = int_range(1, JOBS_MAX)
join_fanin_int = int_range(2, MAX_JOIN_FANIN)


SNAPSHOT_SECONDS_MAX = 1e6
"""A snapshot interval longer than this (11 days) is past any mapper run."""


def snapshot_rounds(text: str) -> int:
    """An argparse type: a snapshot interval in mapper rounds, -1 (off) or 1 or more."""
    value = _integer(text)
    if value != -1 and value < 1:
        raise argparse.ArgumentTypeError(f"must be -1 (off) or 1 or more, not {text.strip()}")
    return value


def _number(text: str) -> float:
    try:
        return float(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"'{text.strip()}' is not a number") from None


def snapshot_seconds(text: str) -> float:
    """An argparse type: a snapshot interval in seconds, -1 (off) or more than 0
    (at most SNAPSHOT_SECONDS_MAX)."""
    value = _number(text)
    if value != -1 and not 0 < value <= SNAPSHOT_SECONDS_MAX:
        raise argparse.ArgumentTypeError(
            f"must be -1 (off) or more than 0 and at most {SNAPSHOT_SECONDS_MAX:g}, "
            f"not {text.strip()}")
    return value


def _above_zero(text: str, high: float, unit: str = "") -> float:
    """A number more than 0 and at most `high` (in `unit`), or a usage error."""
    value = _number(text)
    if not 0 < value <= high:
        raise argparse.ArgumentTypeError(
            f"must be more than 0 and at most {high:g}{unit}, not {text.strip()}")
    return value


def positive_seconds(text: str) -> float:
    """An argparse type: seconds, more than 0 and at most SNAPSHOT_SECONDS_MAX."""
    return _above_zero(text, SNAPSHOT_SECONDS_MAX)


FREQ_MAX_MHZ = 1000.0


def clock_mhz(text: str) -> float:
    """An argparse type: a clock in MHz, more than 0 and at most FREQ_MAX_MHZ."""
    return _above_zero(text, FREQ_MAX_MHZ, " MHz")


def seed_list(text: str) -> str:
    """An argparse type: stall seeds such as `1-5,9` (each 0 to SEED_MAX, a range
    low to high, at most COUNT_MAX seeds); the text is kept, loom regress passes
    it on to its pytest plugin."""
    spans = []
    for part in text.split(","):
        m = re.fullmatch(r"\s*([0-9]+)\s*(?:-\s*([0-9]+)\s*)?", part)
        if not m:
            raise argparse.ArgumentTypeError(
                f"takes seeds and ranges such as 1-5,9, not '{text}'")
        try:
            first = seed_int(m[1])
            last = seed_int(m[2]) if m[2] else first
        except argparse.ArgumentTypeError as err:
            raise argparse.ArgumentTypeError(f"a seed {err}") from None
        if last < first:
            raise argparse.ArgumentTypeError(f"the range {part.strip()} runs backwards")
        spans.append((first, last))
    distinct, end = 0, -1
    for first, last in sorted(spans):
        distinct += max(0, last - max(first, end + 1) + 1)
        end = max(end, last)
    if distinct > COUNT_MAX:
        raise argparse.ArgumentTypeError(
            f"names {distinct} seeds, at most {COUNT_MAX} (such as 1-100)")
    return text


def shard_spec(text: str) -> str:
    """An argparse type: `i/N`, the i-th of N shards, 1 <= i <= N; the text is kept."""
    m = re.fullmatch(r"\s*([0-9]+)\s*/\s*([0-9]+)\s*", text)
    if not m or len(m[1]) > _DIGITS_MAX or len(m[2]) > _DIGITS_MAX \
            or not 1 <= int(m[1]) <= int(m[2]):
        raise argparse.ArgumentTypeError(f"takes i/N with 1 <= i <= N, such as 2/4, not '{text}'")
    return text

# command -> (module, function) implementing it; imported lazily so that
# `loom --help` stays fast and a stage's import errors stay in that stage.
HANDLERS: dict[str, tuple[str, str]] = {
    "compile": ("loom.frontend.command", "compile_main"),
    "run": ("loom.golden.command", "run_main"),
    "rtl": ("loom.rtl.command", "rtl_main"),
    "sim": ("loom.sim.command", "sim_main"),
    "fuzz": ("loom.fuzz.command", "fuzz_main"),
    "regress": ("loom.regress.command", "regress_main"),
    "adg": ("loom.fabric.command", "adg_main"),
    "map": ("loom.mapper.command", "map_main"),
    "config": ("loom.mapper.decode_command", "config_main"),
    "mutate": ("loom.mutation.command", "mutate_main"),
    "export": ("loom.export.command", "export_main"),
    "fpga": ("loom.export.command", "fpga_main"),
}

KERNEL_HELP = (
    "the kernel: a .c, .scf.mlir or .dfg.mlir file; a bare name means "
    "kernels/<name>.c"
)


class _Parser(argparse.ArgumentParser):
    """argparse with the tool's one-line error format and exit status 2."""

    def error(self, message: str) -> None:  # type: ignore[override]
        sys.stderr.write(f"{self.prog}: error: {message}\n")
        sys.exit(2)


def _add_c_flags(p: argparse.ArgumentParser, kernel_optional: bool = False) -> None:
    p.add_argument("kernel", metavar="K", help=KERNEL_HELP,
                   nargs="?" if kernel_optional else None)
    p.add_argument("--top", metavar="F",
                   help="the top function (default: the file's stem)")
    p.add_argument("-I", dest="include_dirs", action="append", default=[],
                   metavar="DIR", help="include directory, for clang and the native build")
    p.add_argument("-D", dest="defines", action="append", default=[],
                   metavar="NAME[=VALUE]", help="macro, for clang and the native build")
    p.add_argument("-o", dest="out_dir", metavar="DIR",
                   help="output directory (default: gen/<name>)")
    p.add_argument("--max-join-fanin", type=join_fanin_int, default=MAX_JOIN_FANIN, metavar="N",
                   help="largest handshake.join the target supports, 2 to "
                        f"{MAX_JOIN_FANIN} (loom.adg_max_join_fanin; default {MAX_JOIN_FANIN})")
    p.add_argument("--flat-memrefs", action="store_true",
                   help="one index per memory access (a[i][j] as a[i*C + j], memrefs of "
                        "rank 1), as a fabric's memories take; loom map always does this")
    _add_ordering(p)


def _add_ordering(p: argparse.ArgumentParser) -> None:
    p.add_argument("--ordering", choices=ORDERINGS, default=None,
                   help="memory ordering: 'analysis' keeps only the orderings dependence "
                        "analysis cannot rule out; 'seed' keeps seed 000's full program order "
                        "of each array's accesses; 'lsq' is analysis plus a load-store queue "
                        "for an array argument whose chain keeps an innermost loop in order "
                        "(default: analysis, seed on a fabric)")


def _add_progress(p: argparse.ArgumentParser, what: str) -> None:
    p.add_argument("--progress", action=argparse.BooleanOptionalAction, default=None,
                   help=f"show {what} while they run (default: only when stderr is a "
                        "terminal; in a log, --progress prints a line every few seconds)")


def build_parser() -> argparse.ArgumentParser:
    parser = _Parser(
        prog="loom",
        description="LOOM-py: C loop kernels to verified elastic dataflow hardware.",
        epilog="Exit status: 0 pass, 1 the design is wrong (mismatch, deadlock, "
               "leftover token), 2 bad input or usage.",
    )
    parser.add_argument("--version", action="store_true",
                        help="print the versions of the tools in use (clang, mlir-opt, "
                             "Verilator, cocotb, xDSL) and which LLVM the front end runs")
    sub = parser.add_subparsers(dest="command", metavar="COMMAND", parser_class=_Parser)

    p = sub.add_parser("compile", help="C to .ll, .llvm.mlir, .cf.mlir, .scf.mlir, .dfg.mlir",
                       description="Write the stage artifacts of the kernel "
                                   "(<name>.ll .llvm.mlir .cf.mlir .scf.mlir .dfg.mlir) "
                                   "and the native run's sim bundle.")
    _add_c_flags(p)
    p.add_argument("--explain-ordering", action="store_true",
                   help="print, per array, its chains of ordered accesses and, per loop, "
                        "whether its iterations overlap or which two accesses keep them in order")

    p = sub.add_parser("run", help="golden-model run, compared with the native run or a bundle",
                       description="Run one invocation on the golden model (or, with "
                                   "--stage, on the SCF/CF reference interpreter), write "
                                   "<name>.golden.json and compare results and memories "
                                   "with the native C run or the bundle's expectations.")
    _add_c_flags(p)
    p.add_argument("--bundle", metavar="B.json",
                   help="sim bundle with inputs and expectations (default: the native run)")
    p.add_argument("--stage", choices=["dfg", "scf", "cf"], default="dfg",
                   help="which stage to execute (default: dfg, the golden model)")
    p.add_argument("--max-steps", type=positive_int, default=50_000_000, metavar="N",
                   help="firing budget before the run is reported as a livelock, 1 or more "
                        "(default 50000000)")
    p.add_argument("--traces", action=argparse.BooleanOptionalAction, default=True,
                   help="write every channel's tokens to <name>.golden.json (default); "
                        "--no-traces writes each channel's count and digest instead "
                        "(memory flat in the token count; no per-loop counts)")
    _add_progress(p, "the golden model's firings")

    p = sub.add_parser("rtl", help="SystemVerilog netlist, units and a file list",
                       description="Write DIR/rtl/<name>_top.sv, the specialized units "
                                   "and DIR/rtl/<name>.f; with --adg A (and no kernel), "
                                   "the fabric RTL: DIR/rtl/<adg>_fabric.sv, its component "
                                   "modules and DIR/rtl/<adg>.f.")
    _add_c_flags(p, kernel_optional=True)
    p.add_argument("--adg", metavar="A",
                   help="an ADG (.fabric.mlir file or preset name): write its fabric RTL")

    p = sub.add_parser("export", help="the kernel as an IP folder: AXI shell, registers, driver",
                       description="Write an IP folder into DIR (default gen/<name>/ip): the "
                                   "kernel inside an AXI shell with Vitis HLS's ap_ctrl_hs "
                                   "register map on AXI4-Lite and an AXI4 master per array, "
                                   "the SystemRDL map with PeakRDL's CSR block, C header and "
                                   "HTML pages, a C driver, a file list and a README.")
    _add_c_flags(p)
    p.add_argument("--adg", metavar="A",
                   help="the kernel mapped onto a fabric (an ADG file, preset or auto): the "
                        "configured fabric inside the shell, its configuration words sent "
                        "on an AXI4-Stream slave s_axis_config")
    p.add_argument("--map-seed", type=seed_int, default=0, metavar="N",
                   help=f"with --adg: the mapper's placement seed, 0 to {SEED_MAX} (default 0)")
    p.add_argument("--map-rounds", type=positive_int, default=None, metavar="N",
                   help=f"with --adg: routing rounds at most, 1 or more (default {MAP_ROUNDS})")

    p = sub.add_parser("fpga", help="LUTs, FFs, DSPs, BRAMs and Fmax on an ECP5 (Yosys, nextpnr)",
                       description="Synthesize the exported IP (loom export; with --no-shell "
                                   "the kernel top alone) with Yosys synth_ecp5 and place and "
                                   "route it out of context with nextpnr-ecp5 on an "
                                   "LFE5UM5G-85F, speed grade 8; print the utilization, the "
                                   "maximum clock and the units on the critical path.")
    _add_c_flags(p)
    p.add_argument("--shell", action=argparse.BooleanOptionalAction, default=True,
                   help="the IP with its AXI shell (default), or --no-shell: the kernel top")
    p.add_argument("--freq", type=clock_mhz, default=100.0, metavar="MHZ",
                   help="the clock constraint nextpnr optimizes for, more than 0 to "
                        f"{FREQ_MAX_MHZ:g} MHz (default 100)")

    p = sub.add_parser("sim", help="the whole flow on Verilator through cocotb",
                       description="Compile, run the golden model, emit RTL and simulate "
                                   "it under random stalls; compare every channel's tokens, "
                                   "the results and the memories.")
    _add_c_flags(p)
    p.add_argument("--bundle", metavar="B.json",
                   help="sim bundle with inputs and expectations (default: the native run)")
    run = p.add_mutually_exclusive_group()
    run.add_argument("--seed", type=seed_int, default=1, metavar="S",
                     help=f"stall and memory-latency seed, 0 to {SEED_MAX} (default 1): "
                          + SEED_RULE.replace("%", "%%"))
    run.add_argument("--ideal", action="store_true",
                     help="no stalls, for throughput: inputs never idle, outputs always "
                          "ready, memory ready every cycle with latency exactly 1; still "
                          "checked channel by channel")
    p.add_argument("--waves", action="store_true", help="write an FST waveform")
    p.add_argument("--iface", choices=["direct", "axi"], default="direct",
                   help="direct: the kernel top's own ports (default); axi: the IP of "
                        "loom export (AXI4-Lite control, an AXI4 master per array) driven "
                        "by cocotbext-axi's AxiLiteMaster and AxiRam, paused on every "
                        "channel by the seed's memory profile (none with --ideal)")
    p.add_argument("--adg", metavar="A",
                   help="run on a fabric: an ADG (.fabric.mlir file, preset name, or auto); "
                        "the kernel is compiled for it, mapped, and config.bin streamed "
                        "into the fabric RTL (one Verilator build per ADG, in "
                        "gen/fabric_build/)")
    p.add_argument("--map-seed", type=seed_int, default=0, metavar="N",
                   help=f"with --adg: the mapper's placement seed, 0 to {SEED_MAX} (default 0)")
    p.add_argument("--map-rounds", type=positive_int, default=None, metavar="N",
                   help=f"with --adg: the mapper's routing rounds at most, 1 or more (default "
                        f"{MAP_ROUNDS}; see loom map --rounds)")
    _add_progress(p, "golden firings, then simulated cycles and tokens (with the time left)")
    p.add_argument("--trace", action="store_true",
                   help="record every channel's transfers in DIR/sim/<run>/trace.bin "
                        "(default: per-channel summaries, and a full trace only when "
                        "they differ from the golden run)")

    p = sub.add_parser("fuzz", help="random C kernels through every stage",
                       description="Generate random UB-free C kernels (one per seed) and run "
                                   "each through UBSan, the native run, the SCF reference, "
                                   "the golden model and the RTL under two stall seeds; "
                                   "print a summary by outcome. Exit 1 when any failed.")
    p.add_argument("--count", type=count_int, default=20, metavar="N",
                   help=f"number of programs, 1 to {COUNT_MAX} (default 20)")
    p.add_argument("--first-seed", type=seed_int, default=0, metavar="S",
                   help=f"seed of the first program, 0 to {SEED_MAX}; program k uses S+k "
                        "(default 0)")
    p.add_argument("-j", "--jobs", type=jobs_int, default=2, metavar="J",
                   help=f"programs run in parallel, 1 to {JOBS_MAX} (default 2)")
    p.add_argument("--size", choices=["normal", "small"], default="normal",
                   help="program size: small keeps each Verilator build short "
                        "(default normal)")
    p.add_argument("--keep", action="store_true",
                   help="keep every program's directory under DIR/work (default: only "
                        "failing ones; a Verilator build is about 100 MB)")
    p.add_argument("--no-rtl", action="store_true",
                   help="stop after the golden model (no Verilator)")
    p.add_argument("--reduce", action="store_true",
                   help="shrink every failing program with cvise into DIR/reduced/")
    p.add_argument("-o", dest="out_dir", metavar="DIR",
                   help="output directory (default gen/fuzz)")

    p = sub.add_parser("regress", help="kernels x stall seeds as a sharded, parallel pytest run",
                       description="Run every kernel of a profile under each of its stall "
                                   "seeds (pytest with pytest-xdist); write OUT/junit.xml, "
                                   "OUT/regress.jsonl (one line per run: kernel, seed, "
                                   "status, cycles, tokens, wall) and print a summary "
                                   "table. --shard i/N runs the i-th of N deterministic, "
                                   "disjoint parts, for a CI matrix. Arguments after -- "
                                   "go to pytest.")
    p.add_argument("--profile", choices=["quick", "full", "nightly"], default="quick",
                   help="quick: kernels but the slow ones, seeds 1 and 2 (default); full: "
                        "every kernel, seeds 1 and 2; nightly: every kernel, seeds 1 to 100")
    p.add_argument("--kernels", metavar="K1,K2", help="these kernels instead of the profile's")
    p.add_argument("--seeds", type=seed_list, metavar="S",
                   help="these stall seeds instead of the profile's (such as 1-5,9; each 0 "
                        f"to {SEED_MAX}, at most {COUNT_MAX} of them)")
    p.add_argument("--shard", type=shard_spec, default="1/1", metavar="i/N",
                   help="run the i-th of N contiguous parts of the sorted runs, 1 <= i <= N "
                        "(default 1/1)")
    p.add_argument("-j", "--jobs", type=jobs_int, default=2, metavar="J",
                   help=f"pytest-xdist workers, 1 to {JOBS_MAX}; a kernel's runs stay on one "
                        "worker (default 2)")
    p.add_argument("--keep", action="store_true",
                   help="keep every program's directory under DIR/work (default: only "
                        "failing ones; a Verilator build is about 100 MB)")
    p.add_argument("--no-rtl", action="store_true",
                   help="golden model against the native run only (no Verilator)")
    p.add_argument("--junit", metavar="FILE", help="JUnit XML file (default OUT/junit.xml)")
    p.add_argument("-o", dest="out_dir", metavar="OUT",
                   help="builds and reports (default gen/regress)")
    p.add_argument("pytest_args", nargs=argparse.REMAINDER, metavar="-- ARGS",
                   help="passed to pytest")

    p = sub.add_parser("adg", help="write a preset ADG, list the presets, or check an ADG file",
                       description="loom adg PRESET -o DIR writes DIR/PRESET.fabric.mlir and "
                                   "its .fabric.viz.json sidecar; loom adg --list lists the "
                                   "presets; loom adg check FILE parses and verifies an ADG "
                                   "(LOOM's fabric.mlir) and prints one summary line "
                                   "(components, ports, config words, largest join). "
                                   "PRESET is a name of --list or any name "
                                   f"{ADG_GRAMMAR} within the limits {ADG_LIMITS} (a 32x32 "
                                   "builds in seconds); a name past them is refused in one "
                                   "line.")
    p.add_argument("target", nargs="?", metavar="PRESET|check",
                   help="a preset name (see --list; any name of its grammar within the "
                        "limits above), or `check`")
    p.add_argument("file", nargs="?", metavar="FILE", help="with check: the ADG file")
    p.add_argument("--list", action="store_true", help="list the presets, one line each")
    p.add_argument("--for", dest="kernels", metavar="K1,K2,...",
                   help="the smallest preset (--list order) that maps every kernel named; "
                        "prints each preset passed over with the kernel and constraint that "
                        "stopped it, then each kernel's share of the one chosen (ops, PEs, "
                        "memories, expected II against its direct RTL's)")
    p.add_argument("--for-file", dest="kernel_file", metavar="FILE",
                   help="as --for, the kernels named in FILE (one a line, # comments)")
    p.add_argument("--progress", action=argparse.BooleanOptionalAction, default=None,
                   help="with --for: a status line (default: on a terminal)")
    p.add_argument("-o", dest="out_dir", metavar="DIR",
                   help="output directory for a preset (default gen/adg); with --for, of "
                        "each kernel's compiled files (default gen/adg-for)")

    p = sub.add_parser("map", help="place and route a kernel onto an ADG",
                       description="Compile the kernel for the ADG (joins legalized to its "
                                   "largest join fan-in), place and route it, check C1-C11 and "
                                   "write DIR/<dfg>.<adg>.{map.json,map.txt,config.json,"
                                   "config.bin,config.h,viz.html}. A kernel that does not fit: one line "
                                   "naming the constraint, exit 2, the partial map written.")
    p.add_argument("kernel", metavar="K", help=KERNEL_HELP)
    p.add_argument("--adg", required=True, metavar="A",
                   help="a .fabric.mlir file, a preset name (loom adg --list), or auto: the "
                        "first preset of loom adg --list (smallest first) the kernel maps onto")
    p.add_argument("--seed", type=seed_int, default=0, metavar="N",
                   help=f"placement seed, 0 to {SEED_MAX} (default 0); the same seed gives the "
                        "same artifacts")
    p.add_argument("--rounds", type=positive_int, default=None, metavar="N",
                   help=f"routing rounds at most, 1 or more (default {MAP_ROUNDS}): the first "
                        "placement's, "
                        "then repairs that re-place around the crowded switches; more rounds "
                        "fit more kernels at more time, and a kernel that fits in fewer maps "
                        f"the same; once it fits, up to {MAP_TUNE_ROUNDS} throughput rounds "
                        "more re-place its critical recurrences")
    _add_progress(p, "the routing round, annealing moves and routed nets")
    p.add_argument("--snapshot-interval-rounds", "--mapper-snapshot-interval-rounds",
                   dest="snapshot_rounds", type=snapshot_rounds, default=-1, metavar="N",
                   help="N: 1 or more, or -1 (off, the default): write the best mapping so far "
                        "every N routing, repair or throughput rounds to DIR/mapper-snapshots/"
                        "<dfg>.<adg>.snapshot-<serial>.<trigger>.mapper-<n>.{map.json,viz.html} "
                        "(LOOM's option and names; not with --adg auto)")
    p.add_argument("--snapshot-interval-seconds", "--mapper-snapshot-interval-seconds",
                   dest="snapshot_seconds", type=snapshot_seconds, default=-1, metavar="X",
                   help="X: more than 0 to 1e6 seconds, or -1 (off, the default): the same at "
                        "the first round after every X seconds of mapping; not together with "
                        "--snapshot-interval-rounds")
    _add_ordering(p)
    p.add_argument("--top", metavar="F", help="the top function (default: the file's stem)")
    p.add_argument("-I", dest="include_dirs", action="append", default=[], metavar="DIR",
                   help="include directory, for clang and the native build")
    p.add_argument("-D", dest="defines", action="append", default=[], metavar="NAME[=VALUE]",
                   help="macro, for clang and the native build")
    p.add_argument("-o", dest="out_dir", metavar="DIR",
                   help="output directory (default: gen/<name>)")

    p = sub.add_parser("config", help="decode a fabric configuration",
                       description="loom config decode X.config.bin --adg A prints every "
                                   "slice's fields by name (A: the ADG the words configure).")
    p.add_argument("action", metavar="decode", help="decode")
    p.add_argument("file", metavar="X.config.bin", help="config words (32-bit little-endian)")
    p.add_argument("--adg", required=True, metavar="A",
                   help="a .fabric.mlir file or a preset name")
    p.add_argument("-o", dest="out_dir", metavar="DIR",
                   help="where a preset's ADG file is written (default gen/adg)")

    p = sub.add_parser("mutate", help="seed faults in the RTL templates or a fabric "
                                      "configuration, count what the checks catch",
                       description="Make one-fault mutants of templates/*.sv.j2 (operators "
                                   "logic, compare, negation, term, reset, constant), run each "
                                   "template's own test module on each in a copy of the "
                                   "sources, and write DIR/mutants.jsonl (resumable) and a "
                                   "table of verdicts. With --config, mutate a mapped kernel's "
                                   "config words instead (operators route, drop, opcode, "
                                   "bit) and judge each by fabric runs under stall seeds 1 and 2. "
                                   "Run from the repository's root.")
    p.add_argument("--template", dest="templates", action="append", default=[], metavar="T",
                   help="a template (templates/T.sv.j2); repeatable; default every template")
    p.add_argument("--config", dest="configs", action="append", default=[], metavar="K@A",
                   help="kernel K mapped onto ADG A (as `loom sim K --adg A`): mutate its "
                        "config words; repeatable")
    p.add_argument("--python", dest="areas", action="append", default=[], metavar="AREA",
                   choices=PYTHON_MUTATION_AREAS,
                   help=f"mutate the compiler's Python instead, with cosmic-ray's operators: "
                        f"area {' or '.join(PYTHON_MUTATION_AREAS)} (compiler/loom/lowering, "
                        "judged by tests/lowering; compiler/loom/golden/ops, judged by "
                        "tests/golden and tests/lowering: every kernel's golden run against "
                        "native C); "
                        "repeatable")
    p.add_argument("--operator", dest="operators", action="append", metavar="OP",
                   choices=MUTATION_OPERATORS + CONFIG_MUTATION_OPERATORS
                   + PYTHON_MUTATION_OPERATORS,
                   help=f"a mutation operator, repeatable (default all: "
                        f"{', '.join(MUTATION_OPERATORS)}; with --config "
                        f"{', '.join(CONFIG_MUTATION_OPERATORS)}; with --python "
                        f"{', '.join(PYTHON_MUTATION_OPERATORS)})")
    p.add_argument("--sample", type=positive_int, metavar="N",
                   help="N (1 or more) mutants drawn at random, the same ones for the same "
                        "--seed")
    p.add_argument("--seed", type=seed_int, default=0, metavar="S",
                   help=f"the sample's seed, 0 to {SEED_MAX} (default 0)")
    p.add_argument("--list", action="store_true", help="list the mutants, run nothing")
    p.add_argument("--equivalent", metavar="FILE",
                   help="a JSON object of mutant id -> the reviewed reason it is equivalent: "
                        "those are recorded `equivalent`, not run")
    p.add_argument("--survivors", metavar="FILE",
                   help="a JSON object of mutant id -> the reviewed reason no check sees it: "
                        "a survivor listed there carries its reason in mutants.jsonl; the "
                        "report lists the survivors without one")
    p.add_argument("-j", dest="jobs", type=jobs_int, default=1, metavar="N",
                   help=f"mutants judged at once, 1 to {JOBS_MAX}, each in its own copy of the "
                        "sources (default 1)")
    p.add_argument("--timeout", type=positive_seconds, default=600.0, metavar="S",
                   help=f"seconds (more than 0 to {SNAPSHOT_SECONDS_MAX:g}) one mutant's tests "
                        "may take before it counts as a timeout (default 600)")
    p.add_argument("--budget", type=positive_seconds, default=None, metavar="S",
                   help=f"start no mutant after S seconds (more than 0 to "
                        f"{SNAPSHOT_SECONDS_MAX:g}; default: no limit); a second run with the "
                        "same -o goes on")
    _add_progress(p, "the mutants judged so far")
    p.add_argument("-o", dest="out_dir", metavar="DIR",
                   help="where mutants.jsonl goes (default gen/mutate)")
    return parser


def _handler(command: str) -> Callable[[argparse.Namespace], int]:
    module_name, func_name = HANDLERS[command]
    try:
        module = importlib.import_module(module_name)
    except ModuleNotFoundError as exc:
        if exc.name and module_name.startswith(exc.name):
            raise NotBuiltError(f"'loom {command}' is not built yet") from None
        raise
    return getattr(module, func_name)


GC_THRESHOLD = 50_000
"""Allocations between young collections (CPython's default is 700). A
command holds its IR for the whole run: a 16x16 ADG is millions of small
objects that live to the end, and at the default the cyclic collector walked
them again and again: a fifth of `loom map` on chess-16x16-t2-ext8x9s3-f
(gemm 16.3 to 17.6 s, 12.4 to 13.4 s at this threshold)."""


def collect_less() -> None:
    """GC_THRESHOLD for this process: `loom`, and the bench scripts that
    time what it does."""
    gc.set_threshold(GC_THRESHOLD, *gc.get_threshold()[1:])


def main(argv: Sequence[str] | None = None) -> int:
    parser = build_parser()
    args = parser.parse_args(argv)
    collect_less()
    try:
        return _dispatch(parser, args)
    except BrokenPipeError:
        # `loom ... | head` closed our stdout: stop quietly, as Unix tools do.
        _silence_stdout()
        return 141
    except LoomError as err:
        sys.stderr.write(err.format() + "\n")
        return err.exit_status
    except KeyboardInterrupt:
        sys.stderr.write("loom: interrupted\n")
        return 130


def _dispatch(parser: argparse.ArgumentParser, args: argparse.Namespace) -> int:
    if args.version:
        from loom.version import version_text
        print(version_text(), flush=True)
        return 0
    if args.command is None:
        parser.print_help()
        return 2
    return _handler(args.command)(args)


def _silence_stdout() -> None:
    """Point stdout at /dev/null so the interpreter's final flush cannot raise again."""
    devnull = os.open(os.devnull, os.O_WRONLY)
    os.dup2(devnull, sys.stdout.fileno())


if __name__ == "__main__":
    sys.exit(main())
