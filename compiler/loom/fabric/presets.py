"""Named ADG presets: integer chess-mesh fabrics for the kernels our lowering emits.

Names: `chess-<R>x<C>`, then `-t<T>` for T links each way between
neighbouring switches (default 1, LOOM's chess mesh), then memory suffixes:
none, `-ext<N>` (N extmemories with one load and one store lane each,
untagged) or `-ext<N>x<L>[s<S>]` (N extmemories with L load lanes and S
store lanes, default 1, tagged, with LOOM's tag bridges); then, the same
way, `-mem<N>[x<L>[s<S>]]` for N on-chip memories (`fabric.memory`,
ON_CHIP_TYPE); then `-ring` for memory lanes around all four sides
(fabric/lane_ring.py; else each memory on the left or right side); then
`-b<F>` for bridge switches of at most F lanes (default 32, LOOM's switch
limit; more lanes make a tree, fabric/memory_bridge.py); `-d<K>` for the
dividers in one PE of K * K (default 4, DIVIDER_EVERY); `-m<K>` for the
multipliers in the ALU PEs of one row in K (default 2 from 8x8 on, 1 below:
every ALU PE but the dividers'); `-p` for a pair of branches on one
condition in every PE; `-tpe<S>` for temporal PEs of S slots in the ALU
cells but the dividers' (fabric.temporal_pe, each port behind a tag op);
`-fp` for float units in the divider PEs; last `-f` for a
bypassable fifo on every PE output link in place of the PE's own output
buffer, a deeper one on every PE input link, and one on every backward
switch link and after every tagged memory response lane in place of their
link buffers (the mapper bypasses all it can: mapper/bufferization.py).
Sizes 2x2, 4x4, 8x8, 16x16 and 20x20; `preset(name)` also
builds any other size, track or memory count of the same grammar within its
limits (MESH_MAX, TRACKS_MAX, MEMORIES_MAX, LANES_MAX): `parse_preset`
refuses a name past them in one line before anything is built.

How the fabric was chosen:

- Datapath: every network port is `!fabric.bits<64>`, so i64 and 64-bit
  values travel unsplit; narrower values ride LSB-aligned.
- Widths: the mapper's width rule (mapper/port_types.py) lets an op use a
  wider unit only where it reads the low bits of its operands (add, sub,
  mul, logic, shli's value, trunci, data through select, mux, branches,
  carry, gate, invariant, loads and stores); compares, division and
  remainder, right shifts, shift amounts, extensions, casts, streams and
  every condition need a unit of the operand's exact width, and `index`
  only an index unit. So the low-bit ops have one i64 unit each, and the
  others one unit per width our lowering emits for C integer kernels
  (measured over kernels/*.c): i32 (C int) and i64 for arithmetic, compares,
  shifts, division and streams; i1, i8, i16 also for compares (eq/ne of
  chars and shorts, i1 equality); extensions from i1/i8/i16/i32 to i64 (the
  result may be narrower: extui i8 -> i32 is the low half of extui i8 ->
  i64); index constants, branches, invariants, gates, carries and streams;
  index casts from i32 and i64 and back to i64. Conditions are i1, so
  handshake.mux selects on i1.
- Ops: one unit per op kind our lowering emits (lowering/region.py's
  ARITH_OPS, the control ops of lowering/builder.py, rtl/op_units.py):
  addi subi muli divsi divui remsi remui andi ori xori shli shrsi shrui,
  cmpi, select, extsi extui trunci index_cast index_castui, handshake
  constant join mux cond_br load store, and dataflow stream gate carry
  invariant (-1/-1, seed 001). LOOM does not allow arith.minsi/maxsi/minui/
  maxui in a unit body; its mapper maps them onto a cmpi+select body, which
  `fu_minmax` (i64) and `fu_minmax_i32` provide. Forks and buffers are
  routing, sink is not a unit (design.md section 9).
- PE kinds (4 inputs, 4 outputs, one per corner switch): a spatial PE runs
  one unit at a time, so the kinds every kernel needs many of (cond_br,
  constant, carry, invariant, i32 -> index cast, addi, i32 cmpi: the
  measured top of the DFG op counts) sit in every PE, and with `-p` a pair
  of branches on one condition too (`fu_cond_br2`, function_units.
  cond_br_pair: a loop's condition steers every value it carries;
  bsearch_u16's 26 branches take 15 PEs so; about 900 Yosys cells a PE,
  which would take chess-8x8 and chess-16x16 past their area targets, so
  the default mix has none); the rest is spread in
  a checkerboard like LOOM's heterogeneous meshes: `pe_ctrl` on cells with
  r+c odd (streams, gates, mux, join, load, store, index carry), `pe_alu`
  on even cells (the other arithmetic, compares, compare-select, casts),
  and `pe_alu_div` (an i32 and an i64 divider, the largest units, each
  doing divsi, divui, remsi or remui as configured: one `fabric.mux` unit,
  one datapath; beside the common units, or with `-m1` and below 8x8 beside
  an ALU PE's without the multiplier) on one even cell in
  16 (`-d4`, divider_cell; `-d<K>` for one in K * K); the other ALU PEs of
  one row in K keep the 64-bit multiplier (`-m<K>`, multiplier_cell; K 2
  from 8x8 on, 1 below: multiplier_default), the others are `pe_alu_nomul`.
  With `-fp` the divider PEs
  also hold float units (`pe_alu_div_fp`): addf, subf, mulf, divf, sqrt,
  negf, absf, minnumf, maxnumf and cmpf, its predicate configured, on f32
  and on f64, conversions from and to integers and between f32 and f64
  (_floats), the direct flow's units at their default latencies; a float
  value rides the integer PEs' data-moving units (carry, branch, load,
  store) bit for bit (mapper/port_types.py); one named variant has them
  (FLOAT_VARIANTS; on 16x16, LARGE_FLOAT_VARIANTS). A 2x2 already holds
  every kind; larger grids hold each many times. A PE slice is 3 config words (the 64-bit
  constant is the widest payload).
- Timing: LOOM's builder default 1/1, except muli (4, our unit's default
  depth) and div/rem (their units' default depth, rtl/units.divider_latency:
  8 at 32 and 64 bits, the least LOOM's RTL generator accepts).
- Join: 4 inputs (a PE has 4 inputs), so `max_join_fanin` is 4 and the
  compiler legalizes wider joins into trees (seed 003).
- Memories: a DFG memory binds to one hardware memory with at least its
  lanes (mapper/memory_binding.py), and every C array is one extmemory.
  Measured
  over the kernels/*.c with 1-D accesses: up to 6 arrays, 6 load lanes
  (kmp) and 3 store lanes (clamp, fib64) on one array, most need at most 4
  arrays of 4 load and 2 store lanes. The 2x2 and 4x4 meshes (at most 16
  ops) host no kernel that needs more than two arrays, so only 8x8 and
  16x16 get the larger variants (LARGE_MEMORY_VARIANTS), smallest first.
  16x16 adds 8 arrays of 9 load lanes (WIDE_MEMORY_VARIANTS: seidel_2d's
  9 loads of one array, md_knn's 7 arrays).
- On-chip memories: a local C array (memref.alloca) is a handshake.memory,
  bound to one fabric.memory that holds all its elements
  (mapper/memory_binding.py)
  and has its lanes. Measured over kernels/*.c: up to 4 local arrays, each
  of at most 64 elements (i16 to i64), with up to 2 load lanes (3 in
  matpow, which needs more PEs than 16x16 has anyway); an
  initializer stores each element once, so store lanes run to 5, 8, 9, 16,
  20 (and 64: sha256_block's round constants, bridged by a tree of 32-lane
  switches, on a 20x20 variant). Those kernels have more than 64 ops, so
  16x16 and 20x20 get these variants (ON_CHIP_VARIANTS, HUGE_VARIANTS);
  an 8x8 gets one local array of two load and two store lanes beside two
  extmemories (SMALL_ON_CHIP_VARIANTS: a histogram or a table updated in
  place; local_hist's 45 ops took a 16x16 before).
- Routing tracks: the 16x16 and 20x20 presets have two links each way
  between neighbouring switches (`-t2`). With one, seven kernels of 84
  to 230 ops ended in C4 routing overuse on every 16x16 (and_or, gesummv,
  k2mm, kmp, jacobi_2d, cnn_layer, local_init): single links shared for several hops near the tagged lanes'
  del_tags and along loop conditions' fan-out, which no round of
  negotiation cleared. With two, each routes in the first round (8 to 14
  s). spmv_crs's two const tables, 29 stores with constant addresses and
  values into 9 and 20 store lanes of two on-chip memories, left shared
  ports in every round on two tracks (seed 0 in 11 rounds, seeds 1 and 2
  in 3); the variants of such stores (DENSE_STORES) have three. A
  switch of an interior corner grows from 8 to 12 links.
- More than 256 ops (stencil3d, matpow, nw, sha256_block): 20x20, with
  one memory variant that hosts the first three's arrays and viterbi's
  (viterbi's 254 ops also fit chess-16x16-t2-ext8x9s3), and one of
  sha256_block's (HUGE_VARIANTS). sha256_block's 370 ops, 64 of them
  stores of constants, left 1,500 to 2,000 shared ports on two-sided 20x20
  and 24x24 (two tracks); with `-ring`, about 370 on two tracks and none
  on three (one routing round).
- Boundary: 8 scalar inputs spread over the top switches and 4 outputs
  over the bottom ones (LOOM's side spreading); memories (extmemories, then
  on-chip ones) alternate left and right sides. Each load or store lane
  has its requests and responses on one switch (its done token comes back
  where its request left), the lanes of a side's memories interleaved and
  spread along the side between its corners (fabric/lane_ring.py); a side
  of more lanes than that keeps each family's ports spread along the whole
  side, dealt round-robin between its memories. With `-ring`, the lanes of
  all memories go round all four sides: a memory of many
  lanes no longer asks one side's switches for more distinct values than
  their fabric links bring.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass, replace

from loom.diagnostics import LoomError
from loom.fabric import function_units as fu
from loom.fabric.builder import MAX_SWITCH_PORTS, AdgBuilder, PEDef, PortRef, TemporalParams, bits
from loom.fabric.lane_ring import assign_ports, ring_layout, side_layout
from loom.fabric.memory_bridge import ExtMemorySpec, attach_extmemory, attach_memory, lane_count
from loom.fabric.topology import SidePorts, chess_mesh, spread
from loom.fabric.rtl.latency import LINK_BUFFER_SLOTS, OUTPUT_BUFFER_SLOTS
from loom.fabric.rtl.modules import TEMPORAL_REFUSED
from loom.rtl.units import ALU_OPS, DIV_OPS, FLOAT_CONVERT_LATENCY, divider_latency, float_latency

WIDTH = 64
DATA = "i64"
INT = "i32"
"""C int: the width most of our kernels' values have."""
INDEX = "index"
SCALAR_INPUTS = 8
SCALAR_OUTPUTS = 4
JOIN_FANIN = 4
MULI_LATENCY = 4
"""Our muli unit's default pipeline depth (rtl/units.py)."""
MULTIPLIER_EVERY = 2
"""The 64-bit multiplier in the ALU PEs of one row in 2 (`-m2`) on meshes of
MULTIPLIER_FROM rows and more: about 12,400 of an ALU PE's 19,600 Yosys
cells, and no kernel of kernels/ has more than 4 multiplies below 16x16 (15
on a 16x16: k2mm, viterbi; 22 on the 20x20: stencil3d). The cost is placement
freedom (a multiply may sit further from its operands): bench/README.md, `-m<K>`."""
MULTIPLIER_FROM = 8
"""Smaller meshes keep a multiplier in every ALU PE but the dividers' (`-m1`):
a 2x2 has two ALU PEs, one of them the divider PE."""
DIVIDER_EVERY = 4
"""Dividers in one PE of 16 by default (`-d4`): a divider PE is half as large
again as an ALU PE with the multiplier (28,675 Yosys cells against 19,625 on
chess-8x8), and no kernel of
kernels/ has more than 4 divisions and remainders below 16x16 (isqrt_sum,
local_init; md_knn's 8 are on a 16x16, which has 16 such PEs). `-d2` is the
mix before issue 31 (every even cell of an even row, one PE in 4)."""
SIZES = (2, 4, 8, 16, 20)
WIDTH_NOTE = "64-bit network; i32, i64, index units; i1/i8/i16 compares and extensions"
"""What `loom adg --list` says of the widths (the module docstring has the why)."""
MEMORY_VARIANTS = ("", "-ext1", "-ext2", "-ext2x2")
LARGE_MEMORY_VARIANTS = ("-ext4", "-ext4x4s2", "-ext6x4s2", "-ext6x6s3")
"""Extra variants of 8x8 and 16x16, in `--adg auto`'s order."""
WIDE_MEMORY_VARIANTS = ("-ext8x9s3",)
"""16x16 only: 9 load lanes (seidel_2d), 7 or 8 arrays (md_knn)."""
ON_CHIP_VARIANTS = ("-ext2x2-mem2", "-ext4x4s2-mem4x2s8", "-ext4x4s2-mem2x2s20")
"""16x16 variants with on-chip memories, after the others."""
TWO_TRACK_VARIANTS = ("-t2-ext4x4s2-p",)
"""8x8 only, after its one-track variants: two tracks and a pair of
branches in every PE (`-p`). A loop's condition steers every value the loop
carries, so pairs take a kernel of many branches onto fewer PEs
(bsearch_u16: 62 of 64), and a kernel that fills nearly every PE leaves a
port or two shared on one track at every seed and routes in the first round
on two (issue 31 item 1: the 86-op binary search on an 8x8, where `--adg
auto` took a 16x16 whose build took 20 minutes)."""
TEMPORAL_VARIANTS = ("-ext2-tpe4", "-t2-ext2-tpe4")
"""4x4 only, after its spatial variants: the ALU PEs but the divider's
temporal PEs of 4 slots (`-tpe4`), so 37 ops fit where 16 did; for a
kernel of a few loop state machines (they stay in the spatial PEs: 9 of
the 16) and up to 28 other ops, the 8x8 it took before is several times
the area (issue 35 items 3 and 6; bench/README.md). Then with two tracks:
a temporal PE's four ports carry one value each, so a value two slots use
enters it twice, and one track left factmod's and while_search's maps
with a shared port at every repair round."""
SMALL_ON_CHIP_VARIANTS = ("-ext2-mem1x2s2",)
"""8x8 only, after its other variants: a kernel of at most 64 ops with one
local array that it loads and stores in two places each."""
FLOAT_VARIANTS = ("-ext4-d2-fp",)
"""8x8 only, last: float units in one PE of 4 (`-d2-fp`) beside four
extmemories, for the float kernels of at most 64 ops (dot_f64,
tanh_poly_f32); after every integer variant, so an integer kernel that fits
one of those keeps it."""
LARGE_FLOAT_VARIANTS = ("-ext8x9s3-fp", "-ext8x9s4-fp", "-ext8x9s4-d2-fp")
"""16x16 only, last: the float units in the divider PEs (16 of them) beside
WIDE's eight extmemories of nine load lanes, for the float kernels of up to
256 ops (atax_f32, gemm_f32, lu_f64, seidel_2d_f32, ...); then with four
store lanes, for a kernel that stores into one array from four places
(cholesky_f64's 8 loads and 4 stores of its matrix, covariance_f64); then
with a divider PE in four (`-d2`, 64 of them), for a kernel of more float
ops than 16 (float_specials: 31 that only a float PE hosts)."""
HUGE_VARIANTS = ("-ext6x8s4-mem2x3s2", "-ext3x15s8-mem1x1s64-ring")
"""20x20: the memories of every kernel over 256 ops; the second, sha256_block's
(15 loads and 8 stores of one array, 64 stores into a local one), its lanes
round all four sides."""
TRACKS_FROM = 16
"""Sizes from here on have two links each way between neighbouring switches."""
DENSE_STORES = ("-ext4x4s2-mem2x2s20", "-ext3x15s8-mem1x1s64-ring")
"""The variants with three tracks (their 20- and 64-lane store bridges)."""
ON_CHIP_TYPE = "memref<256xi64>"
"""An on-chip memory's storage: 256 elements of up to 64 bits (LOOM's
memory-loadstore case has memref<256xi32>; matpow's local tables are i64)."""

MESH_MAX = 32
"""Rows and columns of a preset name at most. The named presets go to 20x20,
and the mapping experiments of bench/README.md built 24x24 meshes
(sha256_block, two and three tracks); 32x32 keeps those and room above them.
A 32x32 builds and writes in about 5 s (`loom adg chess-32x32-t2`, 8 s with
seven tracks) and is already past what the mapper routes in reasonable time
(a 24x24 took 23 minutes); the builder's time grows with the cells (64x64:
30 s), and `loom adg chess-99x99-ext99` gave no answer in two minutes
(issue 29)."""
TRACKS_MAX = (MAX_SWITCH_PORTS - 4) // 4
"""Links each way between neighbouring switches at most (7): a switch inside a
mesh of 2x2 or more has 4 PE links and 4 x T fabric links each way, and a
switch has at most MAX_SWITCH_PORTS (32) ports; `-t8` is refused by the
builder on every such mesh."""
MEMORIES_MAX = 64
"""Memories of one kind (`-ext<N>`, `-mem<N>`) at most. The kernels need at
most 8 arrays (md_knn) and 4 local ones; 64 is eight times that. The boundary
switches' port limit alone would let a mistyped count through (594
extmemories still fit a 32x32's sides) and build them all."""
LANES_MAX = 256
"""Load lanes and store lanes of one memory (`x<L>`, `s<S>`) at most: an
on-chip memory holds 256 elements (ON_CHIP_TYPE), and the most any kernel
uses is 64 (sha256_block's stores of its round constants)."""
DIGITS_MAX = 9
"""A number of a name longer than this is past every limit above (and int()
of thousands of digits would raise rather than compare)."""

_LANES = r"(\d+)(?:x(\d+)(?:s(\d+))?)?"
_NAME = re.compile(
    rf"^chess-(\d+)x(\d+)(?:-t(\d+))?(?:-ext{_LANES})?(?:-mem{_LANES})?(-ring)?(?:-b(\d+))?"
    r"(?:-d(\d+))?(?:-m(\d+))?(-p)?(?:-tpe(\d+))?(-fp)?(-f(\d+)?)?$")


def _common(constant_compare: bool = False, pairs: bool = False) -> list[fu.FunctionUnit]:
    """Units every PE holds: the op kinds a DFG has most of; with
    `constant_compare` (the ALU PEs) the i32 compare may take a constant
    right operand (a loop bound: 136 of the 111 kernels' constants); with
    `pairs` (`-p`), a pair of branches on one condition."""
    return [
        fu.constant("fu_const", DATA),
        fu.constant("fu_const_index", INDEX),
        fu.cond_br("fu_cond_br", DATA),
        fu.cond_br("fu_cond_br_index", INDEX),
        *([fu.cond_br_pair("fu_cond_br2", DATA)] if pairs else []),
        fu.carry("fu_carry", DATA),
        fu.invariant("fu_invariant", DATA),
        fu.invariant("fu_invariant_index", INDEX),
        fu.index_cast("fu_to_index", INT, INDEX),
        fu.cmpi("fu_cmpi", INT, constant_rhs=constant_compare),
    ]


def _ctrl(pairs: bool = False) -> list[fu.FunctionUnit]:
    return _common(pairs=pairs) + [
        fu.binary("fu_addi", "arith.addi", DATA),
        fu.stream("fu_stream", INT),
        fu.stream("fu_stream_i64", DATA),
        fu.stream("fu_stream_index", INDEX),
        fu.gate("fu_gate", DATA),
        fu.gate("fu_gate_index", INDEX),
        fu.carry("fu_carry_index", INDEX),
        fu.mux("fu_mux", DATA, select_type="i1"),
        fu.join("fu_join", JOIN_FANIN, "none"),
        fu.load("fu_load", INDEX, DATA),
        fu.store("fu_store", INDEX, DATA),
    ]


def _minmax(name: str, type_: str) -> fu.FunctionUnit:
    """select(cmpi p, a, b), a, b: LOOM's host of min/max (the predicate is configured)."""
    return fu.raw(name, [type_, type_], [type_],
                  f"%c = arith.cmpi slt, %arg0, %arg1 : {type_}\n"
                  f"%r = arith.select %c, %arg0, %arg1 : {type_}\n"
                  f"fabric.yield %r : {type_}")


ALU_SHIFTS = ("shli", "shrsi", "shrui")


def _alu(multiplier: bool = True, pairs: bool = False) -> list[fu.FunctionUnit]:
    """The ALU PE's units; without the 64-bit multiplier (about 12,400 of
    its 20,600 Yosys cells) where `-m<K>` leaves it out. Its adds, logic ops
    and shifts are one configurable unit, the op a config field (LOOM's
    function_unit with fabric.mux; one datapath, rtl/units ALU_OPS), and
    the 32-bit shifts another: a shift by 32 or more is not the low bits of
    the 64-bit one. These, the multiplier and the i32 compare may take a
    constant right operand (function_units._rhs): a constant of one use
    there needs no PE (mapper/contraction.py)."""
    return _common(constant_compare=True, pairs=pairs) + [
        fu.configurable("fu_alu", [f"arith.{op}" for op in ALU_OPS], DATA, constant_rhs=True),
        fu.configurable("fu_alu_i32", [f"arith.{op}" for op in ALU_SHIFTS], INT,
                        constant_rhs=True),
        *([fu.binary("fu_muli", "arith.muli", DATA, latency=MULI_LATENCY, constant_rhs=True)]
          if multiplier else []),
        fu.select("fu_select", DATA),
        _minmax("fu_minmax", DATA),
        _minmax("fu_minmax_i32", INT),
        *(fu.cmpi(f"fu_cmpi_{t}", t) for t in ("i64", "i16", "i8", "i1")),
        *(fu.cast(f"fu_extsi_{t}", "arith.extsi", t, DATA) for t in ("i8", "i16", "i32")),
        *(fu.cast(f"fu_extui_{t}", "arith.extui", t, DATA) for t in ("i1", "i8", "i16", "i32")),
        fu.cast("fu_trunci", "arith.trunci", DATA, INT),
        fu.index_cast("fu_to_index_i64", DATA, INDEX),
        fu.index_cast("fu_from_index", INDEX, DATA),
        fu.cast("fu_to_index_ui", "arith.index_castui", DATA, INDEX),
        fu.cast("fu_from_index_ui", "arith.index_castui", INDEX, DATA),
    ]


FLOAT_TYPES = {"f32": 32, "f64": 64}
FLOAT_BINARY = ("addf", "subf", "mulf", "divf")


FLOAT_FROM_INT = (("sitofp", "i32"), ("uitofp", "i32"), ("uitofp", "i8"))
"""Integer-to-float conversions a `-fp` PE converts to each float type: the
ones our lowering emits for kernels/*.c (C int and unsigned char operands)."""
FLOAT_TO_INT = (("fptosi", "i32"), ("fptoui", "i32"))
"""Float-to-integer conversions, from each float type (C int results)."""


def _floats() -> list[fu.FunctionUnit]:
    """The float units of a `-fp` divider PE, each at its unit's default
    latency (rtl/units.FLOAT_LATENCY, FLOAT_CONVERT_LATENCY): arithmetic,
    sqrt, sign, min/max, compare, the conversions of FLOAT_FROM_INT and
    FLOAT_TO_INT, and float <-> double (extf, truncf). min/max and the
    width casts are beyond LOOM's unit-body allowlist (fabric_pe.FU_BODY_OPS)."""
    conv = FLOAT_CONVERT_LATENCY
    return [*(fu.binary(f"fu_{op}_{t}", f"arith.{op}", t, latency=float_latency(op, w))
              for t, w in FLOAT_TYPES.items() for op in FLOAT_BINARY),
            *(fu.unary(f"fu_sqrt_{t}", "math.sqrt", t, latency=float_latency("sqrt", w))
              for t, w in FLOAT_TYPES.items()),
            *(fu.unary(f"fu_negf_{t}", "arith.negf", t) for t in FLOAT_TYPES),
            *(fu.unary(f"fu_absf_{t}", "math.absf", t) for t in FLOAT_TYPES),
            *(fu.binary(f"fu_{op}_{t}", f"arith.{op}", t)
              for t in FLOAT_TYPES for op in ("minnumf", "maxnumf")),
            fu.cast("fu_extf", "arith.extf", "f32", "f64", latency=conv),
            fu.cast("fu_truncf", "arith.truncf", "f64", "f32", latency=conv),
            *(fu.cmpf(f"fu_cmpf_{t}", t) for t in FLOAT_TYPES),
            *(fu.cast(f"fu_{op}_{i}_{t}", f"arith.{op}", i, t, latency=conv)
              for t in FLOAT_TYPES for op, i in FLOAT_FROM_INT),
            *(fu.cast(f"fu_{op}_{t}_{i}", f"arith.{op}", t, i, latency=conv)
              for t in FLOAT_TYPES for op, i in FLOAT_TO_INT)]


def _alu_div(alu: bool = True, pairs: bool = False) -> list[fu.FunctionUnit]:
    """One divider per width whose op (divsi, divui, remsi, remui) is
    configured: the four share one datapath; with `alu`, beside
    pe_alu_nomul's units, else beside the common units only (the sparse
    mixes, `-m2` and up: their many ALU PEs host the rest, and a divider PE
    without them is about 4,000 Yosys cells smaller). The two largest units
    sit in different PEs, as on a heterogeneous CGRA: a divider PE with the
    multiplier too was 41,300 Yosys cells."""
    dividers = [fu.configurable(f"fu_div{suffix}", [f"arith.{op}" for op in DIV_OPS], t,
                                latency=divider_latency(int(t[1:])))
                for t, suffix in ((DATA, ""), (INT, "_i32"))]
    return (_alu(multiplier=False, pairs=pairs) if alu else _common(pairs=pairs)) + dividers


@dataclass(frozen=True)
class MemoryGroup:
    """`count` memories of one kind, each with these lanes (tagged when either is > 1)."""

    count: int = 0
    load_lanes: int = 1
    store_lanes: int = 1

    @property
    def tagged(self) -> bool:
        return self.load_lanes > 1 or self.store_lanes > 1

    def suffix(self, kind: str) -> str:
        """`-<kind>N[xL[sS]]`, or nothing without memories."""
        if not self.count:
            return ""
        lanes = f"x{self.load_lanes}" if self.tagged else ""
        return f"-{kind}{self.count}{lanes}" + (f"s{self.store_lanes}" if self.store_lanes > 1
                                               else "")

    def describe(self, kind: str) -> str:
        tag = "tagged " if self.tagged else ""
        ld, st = self.load_lanes, self.store_lanes
        return (f"{self.count} {kind} ({ld} {tag}load lane{'s' * (ld > 1)}, "
                f"{st} store lane{'s' * (st > 1)})")


INPUT_FIFO_DEPTH = 4
"""Slots of a `-f` PE input fifo: bypassed, a consumer's own slots, so that
one branch of a switch broadcast waiting for its other operands holds up
neither the producer nor the other branches. Measured on chess-8x8-ext2-f
under --ideal (kernel cycles): without input fifos (and bypassing only on
recurrences) sum_n 1,812, dot 1,227, fir 12,008, crc32 2,451; with 2
slots 683, 910, 5,014, 917; with 4 slots 608, 910, 5,014, 661 (direct
RTL: 304, 136, 1,008, 643). With 8 (`-f8`): fir 1,008 and dot 137 (their
short sides' slots: mapper/throughput.py), at 8.5 % more cells and 38 %
more flip-flops on that 8x8 (bench/README.md)."""
INPUT_SLOTS_MAX = 64
"""The most slots `-f<D>` gives a PE input fifo."""
TEMPORAL_SLOTS_MAX = 16
"""The most instruction slots `-tpe<S>` gives a temporal PE (a tag of 4 bits)."""


@dataclass(frozen=True)
class ChessPreset:
    rows: int
    cols: int
    ext: MemoryGroup = MemoryGroup()
    """Extmemories (`-ext`): one per C array argument."""
    on_chip: MemoryGroup = MemoryGroup()
    """On-chip memories (`-mem`, ON_CHIP_TYPE): one per local array."""
    tracks: int = 1
    """Links each way between neighbouring switches (`-t<T>`)."""
    bridge_fanin: int = MAX_SWITCH_PORTS
    """Most lanes one bridge switch takes (`-b<F>`)."""
    ring: bool = False
    """Memory lanes around all four sides, one switch per load or store lane
    (`-ring`, fabric/lane_ring.py); else each memory on the left or right side."""
    pe_fifos: bool = False
    """Bypassable fabric.fifo nodes on every PE link (`-f`): two slots on
    each output, in place of the PE's own output buffer, and INPUT_FIFO_DEPTH
    on each input; and two on each switch link's backward direction and
    after each tagged memory response lane (memory_bridge.ExtMemorySpec.
    lane_slots), in place of their link buffers; the mapper keeps buffered the ones a ring
    needs and bypasses the rest (mapper/bufferization.py)."""
    divider_every: int = DIVIDER_EVERY
    """`-d<K>`: the dividers sit in the ALU PEs whose row and column are
    both DIVIDER_OFFSET(K) modulo K (one PE in K * K; divider_cell)."""
    floats: bool = False
    """`-fp`: the divider PEs also hold the float units (_floats)."""
    input_slots: int = INPUT_FIFO_DEPTH
    """`-f<D>`: the slots of each PE input fifo (`-f` alone: INPUT_FIFO_DEPTH)."""
    multiplier_every: int = 1
    """`-m<K>`: the ALU PEs of rows 0, K, 2K, ... hold the multiplier, the
    others not (multiplier_cell), nor do the divider PEs; `parse_preset`'s
    default is multiplier_default(rows)."""
    pairs: bool = False
    """`-p`: every PE also holds a pair of branches on one condition
    (`fu_cond_br2`, function_units.cond_br_pair): about 900 Yosys cells a
    PE, for 8 % fewer PEs over the kernels (bench/README.md)."""
    temporal_slots: int = 0
    """`-tpe<S>`: the ALU PEs but the dividers' are temporal PEs of S
    instruction slots (_temporal_alu); 0: spatial."""

    @property
    def name(self) -> str:
        tracks = f"-t{self.tracks}" if self.tracks > 1 else ""
        fanin = f"-b{self.bridge_fanin}" if self.bridge_fanin != MAX_SWITCH_PORTS else ""
        return f"chess-{self.rows}x{self.cols}{tracks}{self.ext.suffix('ext')}" + \
            self.on_chip.suffix("mem") + ("-ring" if self.ring else "") + fanin + \
            (f"-d{self.divider_every}" if self.divider_every != DIVIDER_EVERY else "") + \
            (f"-m{self.multiplier_every}"
             if self.multiplier_every != multiplier_default(self.rows) else "") + \
            ("-p" if self.pairs else "") + \
            (f"-tpe{self.temporal_slots}" if self.temporal_slots else "") + \
            ("-fp" if self.floats else "") + \
            (self._fifos_suffix() if self.pe_fifos else "")

    def resized(self, n: int) -> ChessPreset:
        """The same preset on an n x n mesh; a multiplier mix that was its
        size's default becomes the new size's (chess-4x4 grows to chess-8x8,
        not chess-8x8-m1)."""
        muls = self.multiplier_every
        if muls == multiplier_default(self.rows):
            muls = multiplier_default(n)
        return replace(self, rows=n, cols=n, multiplier_every=muls)

    def _fifos_suffix(self) -> str:
        return "-f" if self.input_slots == INPUT_FIFO_DEPTH else f"-f{self.input_slots}"

    @property
    def description(self) -> str:
        mems = [g.describe(kind) for g, kind in ((self.ext, "extmemory"),
                                                  (self.on_chip, f"on-chip {ON_CHIP_TYPE} memory"))
                if g.count]
        tracks = f", {self.tracks} links each way between switches" if self.tracks > 1 else ""
        if self.ring:
            tracks += ", memory lanes around all four sides"
        if self.bridge_fanin != MAX_SWITCH_PORTS:
            tracks += f", bridge switches of at most {self.bridge_fanin} lanes"
        tracks += f", dividers in one PE of {self.divider_every ** 2}"
        if self.multiplier_every > 1:
            tracks += f", multipliers in the ALU PEs of one row in {self.multiplier_every}"
        if self.pairs:
            tracks += ", a pair of branches in every PE"
        if self.temporal_slots:
            tracks += (f", the ALU PEs but the dividers' temporal PEs of {self.temporal_slots} "
                       "slots")
        if self.floats:
            tracks += " with f32 and f64 float units"
        if self.pe_fifos:
            tracks += (", bypassable fifos on every PE output and input (of "
                       f"{self.input_slots} slots) and backward switch link")
        return (f"{self.rows}x{self.cols} chess mesh of integer PEs ({WIDTH_NOTE}){tracks}, "
                f"{SCALAR_INPUTS} inputs, {SCALAR_OUTPUTS} outputs, "
                f"{', '.join(mems) or 'no memory'}")


GRAMMAR = ("chess-<R>x<C>[-t<T>][-ext<N>[x<L>[s<S>]]][-mem<N>[x<L>[s<S>]]][-ring][-b<F>][-d<K>]"
           "[-m<K>][-p][-tpe<S>][-fp][-f[<D>]]")
"""The names `parse_preset` reads (the module docstring says what each part means)."""
LIMITS = (f"rows R and columns C 1 to {MESH_MAX}, tracks T 1 to {TRACKS_MAX}, memories N "
          f"1 to {MEMORIES_MAX} of each kind, lanes L and S 1 to {LANES_MAX} per memory, "
          f"bridge fan-in F 2 to {MAX_SWITCH_PORTS}, dividers and multipliers every K 1 to "
          f"{MESH_MAX}, temporal PE slots S 1 to {TEMPORAL_SLOTS_MAX}, "
          f"PE input slots D 1 to {INPUT_SLOTS_MAX}")
"""The grammar's limits in words (`loom adg --help` says the same; a test
keeps the two equal)."""


def _number(text: str) -> int:
    """A number of a name; one of more than DIGITS_MAX digits reads as past every limit."""
    return int(text) if len(text) <= DIGITS_MAX else 10 ** DIGITS_MAX


def parse_preset(name: str) -> ChessPreset:
    """The preset a name of the grammar describes; a name past the grammar's
    limits (LIMITS) is refused here, in one line, before anything is built."""
    m = _NAME.match(name)
    if m is None:
        raise LoomError(f"unknown ADG preset '{name}' (see loom adg --list)")
    rows, cols, tracks = _number(m[1]), _number(m[2]), _number(m[3] or "1")
    given = [_number(g) for g in m.groups()[3:9] if g]
    if min(rows, cols, tracks) < 1 or any(v < 1 for v in given):
        raise LoomError(f"ADG preset '{name}': sizes, tracks and counts must be at least 1")
    if max(rows, cols) > MESH_MAX:
        raise LoomError(f"ADG preset '{name}': a mesh has at most {MESH_MAX} rows and "
                        f"{MESH_MAX} columns ({m[1]}x{m[2]})")
    if tracks > TRACKS_MAX:
        raise LoomError(f"ADG preset '{name}': at most {TRACKS_MAX} tracks (-t{m[3]}): a "
                        f"switch has at most {MAX_SWITCH_PORTS} ports")
    for kind, k in (("ext", 4), ("mem", 7)):
        count, loads, stores = m[k], m[k + 1], m[k + 2]
        if count and _number(count) > MEMORIES_MAX:
            raise LoomError(f"ADG preset '{name}': at most {MEMORIES_MAX} memories of a kind "
                            f"(-{kind}{count})")
        if any(g and _number(g) > LANES_MAX for g in (loads, stores)):
            raise LoomError(f"ADG preset '{name}': a memory has at most {LANES_MAX} load "
                            f"lanes and {LANES_MAX} store lanes (-{kind}{count}x{loads}"
                            + (f"s{stores})" if stores else ")"))
    fanin = _number(m[11] or str(MAX_SWITCH_PORTS))
    if not 2 <= fanin <= MAX_SWITCH_PORTS:
        raise LoomError(f"ADG preset '{name}': a bridge switch takes 2 to {MAX_SWITCH_PORTS} "
                        f"lanes (-b{m[11]})")
    ext, on_chip = (MemoryGroup(*(int(g) if g else 1 for g in m.groups()[k:k + 3]))
                    if m[k + 1] else MemoryGroup() for k in (3, 6))
    every = _number(m[12] or str(DIVIDER_EVERY))
    if not 1 <= every <= MESH_MAX:
        raise LoomError(f"ADG preset '{name}': dividers every 1 to {MESH_MAX} rows and "
                        f"columns (-d{m[12]})")
    muls = _number(m[13]) if m[13] else multiplier_default(rows)
    if not 1 <= muls <= MESH_MAX:
        raise LoomError(f"ADG preset '{name}': multipliers every 1 to {MESH_MAX} rows "
                        f"(-m{m[13]})")
    temporal = _number(m[15] or "0")
    if m[15] and not 1 <= temporal <= TEMPORAL_SLOTS_MAX:
        raise LoomError(f"ADG preset '{name}': a temporal PE has 1 to {TEMPORAL_SLOTS_MAX} "
                        f"slots (-tpe{m[15]})")
    slots = _number(m[18] or str(INPUT_FIFO_DEPTH))
    if not 1 <= slots <= INPUT_SLOTS_MAX:
        raise LoomError(f"ADG preset '{name}': a PE input fifo has 1 to {INPUT_SLOTS_MAX} "
                        f"slots (-f{m[18]})")
    return ChessPreset(rows, cols, ext, on_chip, tracks, fanin, bool(m[10]), bool(m[17]), every,
                       bool(m[16]), slots, muls, bool(m[14]), temporal)


def tracks_for(size: int) -> int:
    """Links each way between neighbouring switches of the named presets of this size."""
    return 2 if size >= TRACKS_FROM else 1


def _variants(size: int) -> tuple[str, ...]:
    if size >= 20:
        return HUGE_VARIANTS
    if size >= 16:
        return (MEMORY_VARIANTS + LARGE_MEMORY_VARIANTS + WIDE_MEMORY_VARIANTS + ON_CHIP_VARIANTS
                + LARGE_FLOAT_VARIANTS)
    if size >= 8:
        return (MEMORY_VARIANTS + LARGE_MEMORY_VARIANTS + TWO_TRACK_VARIANTS
                + SMALL_ON_CHIP_VARIANTS + FLOAT_VARIANTS)
    if size >= 4:
        return MEMORY_VARIANTS + TEMPORAL_VARIANTS
    return MEMORY_VARIANTS


def presets() -> list[ChessPreset]:
    """The named presets `loom adg --list` shows (smallest first: `--adg auto`'s order)."""
    named = []
    for n in SIZES:
        for v in _variants(n):
            p = parse_preset(f"chess-{n}x{n}{v}")
            if not v.startswith("-t"):   # a variant that names its tracks keeps them
                p = replace(p, tracks=3 if n >= TRACKS_FROM and v in DENSE_STORES
                            else tracks_for(n))
            named.append(p)
    return named


def preset(name: str) -> AdgBuilder:
    """The builder of preset `name` (ready to write). A name of the grammar
    that cannot be built (more lanes than a boundary switch has ports) is
    refused in one line that names it."""
    p = parse_preset(name)
    try:
        return build_chess(p)
    except LoomError as e:
        raise LoomError(f"ADG preset '{name}': {e}") from None


def divider_cell(r: int, c: int, rows: int, cols: int, every: int) -> bool:
    """Whether the ALU cell (r, c) (r + c even) holds the dividers: its row and
    column are both DIVIDER_OFFSET modulo `every`, the offset falling back to
    0 on a side too short for it (a 2x2 keeps one divider PE)."""
    def on(k: int, n: int) -> bool:
        off = every // 2 if n > every // 2 else 0
        return k % every == off
    return (r + c) % 2 == 0 and on(r, rows) and on(c, cols)


def multiplier_default(rows: int) -> int:
    """`-m<K>`'s K when a name gives none: MULTIPLIER_EVERY from MULTIPLIER_FROM rows on, else 1."""
    return MULTIPLIER_EVERY if rows >= MULTIPLIER_FROM else 1


def multiplier_cell(r: int, every: int) -> bool:
    """Whether the ALU PEs of row r hold the multiplier (`-m<K>`: rows 0, K, 2K, ...)."""
    return r % every == 0


def _pe_selector(b: AdgBuilder, p: ChessPreset) -> Callable[[int, int], PEDef]:
    dense = p.multiplier_every == 1   # below 8x8 and -m1: a divider PE is an ALU PE too
    kinds = {
        "ctrl": b.define_pe("pe_ctrl", 4, 4, WIDTH, _ctrl(p.pairs)),
        "alu": b.define_pe("pe_alu", 4, 4, WIDTH, _alu(pairs=p.pairs)),
        "alu_div": b.define_pe("pe_alu_div_fp", 4, 4, WIDTH, _alu_div(dense, p.pairs) + _floats())
        if p.floats else b.define_pe("pe_alu_div", 4, 4, WIDTH, _alu_div(dense, p.pairs)),
    }

    if p.multiplier_every > 1:
        kinds["alu_nomul"] = b.define_pe("pe_alu_nomul", 4, 4, WIDTH,
                                         _alu(multiplier=False, pairs=p.pairs))
    if p.temporal_slots:
        kinds["alu"] = _temporal_alu(b, kinds["alu"], p.temporal_slots)
        if "alu_nomul" in kinds:
            kinds["alu_nomul"] = _temporal_alu(b, kinds["alu_nomul"], p.temporal_slots)

    def select(r: int, c: int) -> PEDef:
        if (r + c) % 2:
            return kinds["ctrl"]
        if divider_cell(r, c, p.rows, p.cols, p.divider_every):
            return kinds["alu_div"]
        return kinds["alu"] if multiplier_cell(r, p.multiplier_every) else kinds["alu_nomul"]
    return select


TEMPORAL_REGISTERS = 2
"""Registers of a `-tpe` PE (each a FIFO of TEMPORAL_REGISTERS tokens): a
value one slot makes and only another slot of the PE uses goes through one
instead of a route out and back (mapper/temporal_registers.py)."""
TEMPORAL_LEFT_OUT = ("fu_minmax", "fu_minmax_i32", "fu_to_index_i64", "fu_to_index_ui",
                     "fu_from_index_ui", *(f"fu_{k}_{t}" for k in ("cmpi", "extsi", "extui")
                                           for t in ("i1", "i8", "i16")))
"""ALU units a `-tpe` PE leaves to the spatial ALU PEs: min/max, the unsigned
and i64 index casts and the i1/i8/i16 compares and extensions, rare in
kernels' loops (none of the ops bench/temporal_pes.py's kernels place on
temporal PEs). Each unit costs a temporal PE a 64-bit input on every
slot's operand muxes and result arbitration: 28 units made a PE Yosys did
not finish."""


def _temporal_alu(b: AdgBuilder, spatial: PEDef, slots: int) -> PEDef:
    """The temporal PE of `-tpe<S>` in place of an ALU PE (`<name>_t`): its
    units but the ones a temporal PE does not run (the carry and the
    invariants: LOOM's dedicated dataflow units; rtl/modules.
    TEMPORAL_REFUSED) and TEMPORAL_LEFT_OUT, S slots, a tag of clog2(S)
    bits (at least 1), each port behind the tag op the chess mesh puts on
    its link (topology._tag_ops)."""
    units = [u for u in spatial.fus if u.name not in TEMPORAL_LEFT_OUT
             and not any(op in line for line in u.body for op in TEMPORAL_REFUSED)]
    tag_width = max(1, (slots - 1).bit_length())
    return b.define_temporal_pe(f"{spatial.name}_t", 4, 4, WIDTH, tag_width, units,
                                TemporalParams(slots, TEMPORAL_REGISTERS, TEMPORAL_REGISTERS))


def build_chess(p: ChessPreset) -> AdgBuilder:
    b = AdgBuilder(p.name.replace("-", "_"))
    lane_slots = LINK_BUFFER_SLOTS if p.pe_fifos else 0
    ext = [ExtMemorySpec(f"extmem_{k}", p.ext.load_lanes, p.ext.store_lanes,
                         bridge_fanin=p.bridge_fanin, lane_slots=lane_slots)
           for k in range(p.ext.count)]
    on_chip = [ExtMemorySpec(f"mem_{k}", p.on_chip.load_lanes, p.on_chip.store_lanes,
                             ON_CHIP_TYPE, bridge_fanin=p.bridge_fanin, lane_slots=lane_slots)
               for k in range(p.on_chip.count)]
    specs = ext + on_chip
    memrefs = {s.name: b.add_input(f"mem{k}", s.memref_type) for k, s in enumerate(ext)}
    scalars = [b.add_input(f"in{k}", bits(WIDTH)) for k in range(SCALAR_INPUTS)]
    results = [b.add_output(f"out{k}", bits(WIDTH)) for k in range(SCALAR_OUTPUTS)]
    boundary = _ring_boundary if p.ring else _side_boundary
    scalar_in, scalar_out, requests, responses = boundary(b, p, specs)
    for src, port in zip(scalars, scalar_in):
        b.connect(src, port)
    for port, dst in zip(scalar_out, results):
        b.connect(port, dst)
    # the left side's memories first, then the right's: the builder's order, so
    # the MLIR of the two-sided presets stays as it was
    for k in [*range(0, len(specs), 2), *range(1, len(specs), 2)]:
        spec, req, resp = specs[k], requests[k], responses[k]
        if spec.name in memrefs:
            attach_extmemory(b, spec, memrefs[spec.name], req, resp)
        else:
            attach_memory(b, spec, req, resp)
        _place_memory(b, spec, "left" if k % 2 == 0 else "right", p, k)
    return b


Boundary = tuple[list[PortRef], list[PortRef], list[list[PortRef]], list[list[PortRef]]]
"""Scalar input ports, scalar output ports, each memory's request and response ports."""


def _fifo_depths(p: ChessPreset) -> tuple[int, int, int]:
    """The PE output, PE input and backward switch link fifos' depths (`-f`; 0: none)."""
    return (OUTPUT_BUFFER_SLOTS, p.input_slots, LINK_BUFFER_SLOTS) if p.pe_fifos else (0, 0, 0)


def _side_boundary(b: AdgBuilder, p: ChessPreset, specs: list[ExtMemorySpec]) -> Boundary:
    """The mesh with memories alternately on the left and right sides, each
    lane's requests and responses on one switch (lane_ring.side_layout) when
    every side has a switch for each."""
    layout = side_layout(p.rows, specs, spread(SCALAR_INPUTS, p.cols + 1),
                         spread(SCALAR_OUTPUTS, p.cols + 1), p.cols)
    if layout is None:
        return _spread_boundary(b, p, specs)
    mesh = chess_mesh(b, p.rows, p.cols, _pe_selector(b, p), layout.sides, p.tracks,
                      _fifo_depths(p))
    return assign_ports(layout, mesh.ingress, mesh.egress, specs)


def _spread_boundary(b: AdgBuilder, p: ChessPreset, specs: list[ExtMemorySpec]) -> Boundary:
    """The mesh with memories alternately on the left and right sides, each
    family's ports spread along the side (a side of more lanes than switches)."""
    per_side = {"left": specs[0::2], "right": specs[1::2]}
    sides = {
        "top": SidePorts(inputs=spread(SCALAR_INPUTS, p.cols + 1)),
        "bottom": SidePorts(outputs=spread(SCALAR_OUTPUTS, p.cols + 1)),
    }
    for side, mems in per_side.items():
        # A memory's responses enter the fabric, its requests leave it.
        n_in = sum(lane_count(s.response_lanes) for s in mems)
        n_out = sum(lane_count(s.request_lanes) for s in mems)
        sides[side] = SidePorts(inputs=spread(n_in, p.rows + 1), outputs=spread(n_out, p.rows + 1))
    mesh = chess_mesh(b, p.rows, p.cols, _pe_selector(b, p), sides, p.tracks,
                      _fifo_depths(p))
    requests: dict[str, list[PortRef]] = {}
    responses: dict[str, list[PortRef]] = {}
    for side, mems in per_side.items():
        req = _deal(mesh.egress[side], [lane_count(s.request_lanes) for s in mems])
        resp = _deal(mesh.ingress[side], [lane_count(s.response_lanes) for s in mems])
        requests.update({s.name: r for s, r in zip(mems, req)})
        responses.update({s.name: r for s, r in zip(mems, resp)})
    return (mesh.ingress["top"], mesh.egress["bottom"], [requests[s.name] for s in specs],
            [responses[s.name] for s in specs])


def _ring_boundary(b: AdgBuilder, p: ChessPreset, specs: list[ExtMemorySpec]) -> Boundary:
    """The mesh with every memory's lanes around all four sides (lane_ring.py)."""
    layout = ring_layout(p.rows, p.cols, specs, spread(SCALAR_INPUTS, p.cols + 1),
                         spread(SCALAR_OUTPUTS, p.cols + 1))
    mesh = chess_mesh(b, p.rows, p.cols, _pe_selector(b, p), layout.sides, p.tracks,
                      _fifo_depths(p))
    return assign_ports(layout, mesh.ingress, mesh.egress, specs)


def _deal(ports: list[PortRef], counts: list[int]) -> list[list[PortRef]]:
    """A side's ports (in side order) dealt round-robin to its memories, `counts[m]`
    to memory m: each memory's lanes spread along the whole side. A switch feeds
    only as many distinct lanes as it has fabric inputs (3 at a corner), so a
    memory whose lanes sat on one or two switches could not use its store lanes
    together (clamp's three stores to one array)."""
    hands: list[list[PortRef]] = [[] for _ in counts]
    dealt = iter(ports)
    while any(len(h) < n for h, n in zip(hands, counts)):
        for h, n in zip(hands, counts):
            if len(h) < n:
                h.append(next(dealt))
    return hands


def _place_memory(b: AdgBuilder, spec: ExtMemorySpec, side: str, p: ChessPreset, k: int) -> None:
    """Memories sit left or right of the mesh; their bridge nodes keep the default row."""
    from loom.fabric.topology import CHESS_STEP
    x = -300.0 if side == "left" else 80 + CHESS_STEP * (p.cols + 1) + 300.0
    b.viz.place(spec.name, x, 80 + CHESS_STEP * (k // 2 + 0.5) + 200.0 * (k % 2))


__all__ = ["GRAMMAR", "INPUT_SLOTS_MAX", "LANES_MAX", "LIMITS", "MEMORIES_MAX", "MESH_MAX",
           "TRACKS_MAX", "ChessPreset", "MemoryGroup", "build_chess", "parse_preset", "preset",
           "presets", "tracks_for"]
