"""fabric.temporal_pe RTL (templates/fabric_temporal_pe.sv.j2, units from our
unit templates) against the reference model loom.fabric.models.temporal_pe:
random slot programs (valid, tag, opcode, operand muxes, result demuxes and
tags, registers between slots, unit payloads), tokens tagged for the slots,
config through the cfg port, random validity and backpressure; outputs
compared per tag (slots of different tags share an output in arbitration
order). Both operand-buffer modes of LOOM: one token per slot and operand,
and a shared pool of rows."""

import random

import pytest

from loom.diagnostics import LoomError
from loom.fabric.adg_view import adg_view
from loom.fabric.models.temporal_pe import TemporalPeShape, insn_field, temporal_pe
from loom.fabric.rtl.top import fabric_rtl
from tb.fabric_runner import FabricCase, cycling, load_adg, run_fabric
# the spatial PE's test's units (pytest puts this directory on sys.path)
from test_fabric_spatial_pe import FUS, UNITS

pytestmark = pytest.mark.rtl

V, T = 32, 2
P = f"!fabric.tagged<!fabric.bits<{V}>, i{T}>"
OPS = [f.op for f in FUS]
ADD, MUL, CMP, CONST = (OPS.index(op) for op in (
    "arith.addi", "arith.muli", "arith.cmpi", "handshake.constant"))
N_IN, N_OUT, SLOTS, REGS, DEPTH, ROWS = 3, 2, 4, 2, 2, 3


def tpe_adg(params: str, n_in: int = N_IN, n_out: int = N_OUT) -> str:
    """One temporal PE of the six units, `params` its `[...]`, wired to the module's ports."""
    ins, outs = ", ".join([P] * n_in), ", ".join([P] * n_out)
    results = ", ".join(f"%o#{o}" for o in range(n_out)) if n_out > 1 else "%o"
    return f"""
module {{
  fabric.temporal_pe @tpe({", ".join(f"%p{i}: {P}" for i in range(n_in))}) -> ({outs}) [{params}] {{
    {UNITS.strip()}
    fabric.yield
  }}
  fabric.module @tpes({", ".join(f"%a{i}: {P}" for i in range(n_in))}) -> ({outs}) {{
    %o{f":{n_out}" if n_out > 1 else ""} = fabric.instance @tpe({", ".join(f"%a{i}" for i in range(n_in))}) {{sym_name = "tpe_0"}} : ({ins}) -> ({outs})
    fabric.yield {results} : {outs}
  }}
}}
"""


PRIVATE = TemporalPeShape(N_IN, N_OUT, V, SLOTS, REGS, DEPTH)
SHARED = TemporalPeShape(N_IN, N_OUT, V, SLOTS, 0, 0, shared=True, buffer_size=ROWS)
SHARED_REGS = TemporalPeShape(N_IN, N_OUT, V, SLOTS, REGS, DEPTH, shared=True, buffer_size=ROWS)
"""Shared rows beside registers: a slot that reads registers alone takes no row."""
SMALL = TemporalPeShape(2, 1, V, 2, 1, 1)
"""One output and one register: the fields that select them have no bits."""
ADG = tpe_adg(f"num_register = {REGS} : i64, num_instruction = {SLOTS} : i64, "
              f"reg_fifo_depth = {DEPTH} : i64")
SHARED_ADG = tpe_adg(f"num_register = 0 : i64, num_instruction = {SLOTS} : i64, "
                     f"reg_fifo_depth = 0 : i64, enable_share_operand_buffer = true, "
                     f"operand_buffer_size = {ROWS} : i64")
SHARED_REGS_ADG = tpe_adg(f"num_register = {REGS} : i64, num_instruction = {SLOTS} : i64, "
                          f"reg_fifo_depth = {DEPTH} : i64, enable_share_operand_buffer = true, "
                          f"operand_buffer_size = {ROWS} : i64")
SMALL_ADG = tpe_adg("num_register = 1 : i64, num_instruction = 2 : i64, reg_fifo_depth = 1 : i64",
                    SMALL.n_in, SMALL.n_out)


def _slot(fields: dict, s: int, **values: int) -> None:
    fields.update({insn_field(s, k.replace("__", ".")): v for k, v in values.items()})


def random_program(rng: random.Random, shape: TemporalPeShape) -> tuple[dict, list]:
    """Slot fields and, per slot, the PE input of each unit operand (None: a
    register). Distinct tags; each (output, result tag) is one slot's; with
    registers, one writer slot (on add) feeds one reader slot through
    register 0, as the model requires: a mul that also reads an input, or
    a constant that reads the register alone (a slot that takes no row of
    a shared pool, the only reader there). With shared rows every
    slot takes its two operands from inputs 0 and 1: a token that opens a
    row then never waits behind a row that waits for it (the pool's rows
    are taken in an order timing decides; a slot fed by one input only
    could fill the pool while another's partner waits behind it)."""
    fields: dict[str, int] = {}
    tags = rng.sample(range(1 << T), shape.slots)
    feeds: list[list[int | None]] = []
    chain = shape.registers > 0 and rng.random() < 0.6
    # with shared rows the mul's input tokens could take every row while its
    # register waits for the add's, whose tokens then find none
    reader = CONST if chain and (shape.shared or rng.random() < 0.4) else MUL
    for s in range(shape.slots):
        if chain and s == 0:
            opcode = ADD
        elif chain and s == 1:
            opcode = reader
        elif not chain and rng.random() < 0.3:
            opcode = MUL   # slots sharing the pipelined unit: one firing in flight at a time
        else:
            opcode = rng.choice([o for o, fu in enumerate(FUS) if not (chain and o in (ADD, reader))
                                 and not (shape.shared and len(fu.in_widths) < 2)])
        fu = FUS[opcode]
        valid = int(rng.random() < 0.9 or (chain and s < 2))
        _slot(fields, s, valid=valid, tag=tags[s], opcode=opcode)
        srcs: list[int | None] = []
        pair = rng.sample(range(2), 2)
        # now and then an operand turned off (a config by hand; the mapper
        # feeds every operand): the slot never fires, the others go on
        # (not with shared rows, where its rows would take the pool)
        off = rng.randrange(len(fu.in_widths)) if (
            not shape.shared and not (chain and s < 2) and rng.random() < 0.1) else -1
        for k in range(len(fu.in_widths)):
            if chain and s == 1 and k == 0:   # LOOM's mapper disconnects the mux: ignored
                _slot(fields, s, **{f"operand{k}__is_reg": 1, f"operand{k}__reg": 0,
                                    f"in{k}__disconnect": rng.randrange(2)})
                srcs.append(None)
                continue
            if k == off:   # one of the two, with a mux that would feed it otherwise
                _slot(fields, s, **{f"in{k}__sel": rng.randrange(shape.n_in),
                                    f"in{k}__{rng.choice(('discard', 'disconnect'))}": 1})
                srcs.append(None)
                continue
            i = pair[k % 2] if shape.shared else rng.randrange(shape.n_in)
            _slot(fields, s, **{f"in{k}__sel": i})
            srcs.append(i)
        for k in range(len(fu.in_widths), max(len(f.in_widths) for f in FUS)):
            # an operand mux past the unit's inputs: ignored, disconnected or not
            _slot(fields, s, **({f"in{k}__disconnect": 1} if rng.random() < 0.5 else
                                {f"in{k}__sel": rng.randrange(shape.n_in)}))
        for k in range(len(fu.out_widths)):
            if chain and s == 0:   # LOOM's mapper also discards the demux: the register wins
                _slot(fields, s, **{f"result{k}__is_reg": 1, f"result{k}__reg": 0,
                                    f"out{k}__discard": rng.randrange(2),
                                    f"out{k}__disconnect": rng.randrange(2)})
            elif rng.random() < 0.15:   # discard wins over disconnect
                _slot(fields, s, **{f"out{k}__discard": 1, f"out{k}__disconnect": rng.randrange(2)})
            else:
                _slot(fields, s, **{f"out{k}__sel": rng.randrange(shape.n_out),
                                    f"result{k}__tag": tags[s]})
        if len(fu.out_widths) < 2:
            _slot(fields, s, **{"out1__disconnect": 1})
        feeds.append(srcs if valid else [])
    fields[f"fu{CMP}.0.value"] = rng.randrange(10)       # cmpi's predicate
    fields[f"fu{CONST}.0.value"] = rng.getrandbits(32)   # the constant
    return fields, feeds


def stimulus(rng: random.Random, shape: TemporalPeShape, fields: dict, feeds: list,
             n: int) -> list[list[int]]:
    """Per input, tokens in firing order: firing after firing of random slots,
    each operand's token on its input (so no operand waits on a token behind
    one that waits for it); now and then a token no slot takes."""
    streams: list[list[int]] = [[] for _ in range(shape.n_in)]
    live = [s for s, f in enumerate(feeds) if any(i is not None for i in f)]
    for _ in range(n):
        if not live:
            break
        s = rng.choice(live)
        tag = fields[insn_field(s, "tag")]
        for i in dict.fromkeys(feeds[s]):   # a token fills every operand its input feeds
            if i is not None:
                value = rng.choice((0, 1, 2, 3)) if rng.random() < 0.5 else rng.getrandbits(V)
                streams[i].append(tag << V | value)
    if rng.random() < 0.3:   # a stray tag stops one input somewhere
        unused = [t for t in range(1 << T) if not any(
            fields.get(insn_field(s, "valid")) and fields[insn_field(s, "tag")] == t
            for s in range(shape.slots))]
        if unused:
            i = rng.randrange(shape.n_in)
            streams[i].insert(rng.randrange(len(streams[i]) + 1), unused[0] << V | 7)
    return streams


def make_case(rng: random.Random, shape: TemporalPeShape, n: int) -> FabricCase:
    fields, feeds = random_program(rng, shape)
    return model_case(shape, fields, stimulus(rng, shape, fields, feeds, n))


def model_case(shape: TemporalPeShape, fields: dict, streams: list[list[int]]) -> FabricCase:
    """The episode of `fields` fed `streams`, its outputs and consumption the model's."""
    model = temporal_pe(fields, streams, shape, FUS)
    case = FabricCase({"tpe_0": fields}, {}, {}, {},
                      by_tag={f"out{o}": V for o in range(shape.n_out)})
    for i, stream in enumerate(streams):
        case.inputs[f"in{i}"] = stream
        case.consumed[f"in{i}"] = model.consumed[i]
    for o in range(shape.n_out):
        case.outputs[f"out{o}"] = model.outputs[o]
    return case


def test_temporal_pe_model():
    # slot 0 (tag 1) adds in0 and in1 into register 0; slot 1 (tag 2)
    # multiplies register 0 by in2 and sends it out on out1 tagged 3
    fields = {}
    _slot(fields, 0, valid=1, tag=1, opcode=ADD, in0__sel=0, in1__sel=1, result0__is_reg=1)
    _slot(fields, 1, valid=1, tag=2, opcode=MUL, operand0__is_reg=1, in1__sel=2,
          out0__sel=1, result0__tag=3)
    got = temporal_pe(fields, [[1 << V | 2, 1 << V | 5], [1 << V | 3, 1 << V | 1],
                               [2 << V | 10, 2 << V | 100, 2 << V | 1]], PRIVATE, FUS)
    assert got.outputs == [[], [3 << V | 50, 3 << V | 600]]
    assert got.consumed == [2, 2, 3]   # the third mul waits for a third sum


def test_temporal_pe_shared_rows_pair_in_order():
    # operand 0's tokens run ahead of operand 1's: each fills the next row
    fields = {}
    _slot(fields, 0, valid=1, tag=0, opcode=ADD, in0__sel=0, in1__sel=1, out0__sel=0)
    got = temporal_pe(fields, [[9, 8, 7], [1, 2, 3], []], SHARED, FUS)
    assert got.outputs[0] == [10, 10, 10]
    private = temporal_pe(fields, [[9, 8, 7], [1], []], PRIVATE, FUS)
    assert private.consumed == [2, 1, 0]   # one buffered, the third waits


def test_temporal_pe_matches_model():
    cases = run_fabric("temporal_pe", ADG, cycling([PRIVATE], make_case), seed=1,
                       tokens=60, episodes=8)
    assert any(c.config["tpe_0"].get("insn1.operand0.is_reg") for c in cases)
    assert any(_turned_off(c.config["tpe_0"], s) for c in cases for s in range(SLOTS))


def _turned_off(fields: dict, s: int) -> bool:
    """Slot s is valid and an operand of its unit neither reads a register nor has a feed."""
    def get(name: str) -> int:
        return fields.get(insn_field(s, name), 0)
    return bool(get("valid")) and any(
        not get(f"operand{k}.is_reg") and (get(f"in{k}.discard") or get(f"in{k}.disconnect"))
        for k in range(len(FUS[get("opcode")].in_widths)))


def _beside_a_stuck_slot(slot0: dict[str, int]) -> dict:
    """Slot 0 as `slot0` (tag 1, fed by in0, a slot that never fires), slot 1
    adding in1 and in2 (tag 2) onto out0: the PE's firings go to slot 1."""
    fields: dict[str, int] = {}
    _slot(fields, 0, valid=1, tag=1, in0__sel=0, out0__sel=1, result0__tag=1, **slot0)
    _slot(fields, 1, valid=1, tag=2, opcode=ADD, in0__sel=1, in1__sel=2, out0__sel=0,
          result0__tag=2)
    return fields


def _stuck_slot_episodes(slot0: dict[str, int], takes: int) -> None:
    """`takes`: the in0 tokens slot 0 buffers (a slot that runs nothing holds no tag)."""
    fields = _beside_a_stuck_slot(slot0)
    streams = [[1 << V | 5] * 3, [2 << V | k for k in range(12)], [2 << V | 100] * 12]
    case = model_case(PRIVATE, fields, streams)
    assert case.outputs["out0"] == [2 << V | (100 + k) for k in range(12)]   # by hand
    assert case.outputs["out1"] == [] and case.consumed["in0"] == takes
    run_fabric("temporal_pe", ADG, lambda rng, layout, n: model_case(PRIVATE, fields, streams),
               seed=1, episodes=3)


def test_a_slot_with_an_operand_turned_off_leaves_the_pe_to_the_others():
    # slot 0 adds in0 and an operand turned off: it never fires, and as the
    # lowest slot with a token it must not hold the PE's one firing a cycle
    _stuck_slot_episodes({"opcode": ADD, "in1__disconnect": 1}, takes=1)


def test_a_slot_with_an_opcode_past_the_units_never_fires():
    # the opcode field has room past the six units: such a slot runs nothing
    assert len(FUS) < 1 << max(1, (len(FUS) - 1).bit_length())
    _stuck_slot_episodes({"opcode": len(FUS), "in1__sel": 0}, takes=0)


def test_temporal_pe_small_matches_model():
    cases = run_fabric("temporal_pe_small", SMALL_ADG, cycling([SMALL], make_case), seed=1,
                       tokens=60, episodes=6)
    # a mul reads the one register's one entry (a constant reader ignores its value)
    assert any(c.config["tpe_0"].get("insn1.operand0.is_reg")
               and c.config["tpe_0"].get("insn1.opcode") == MUL for c in cases)


def test_temporal_pe_shared_matches_model():
    run_fabric("temporal_pe_shared", SHARED_ADG, cycling([SHARED], make_case), seed=1,
               tokens=60, episodes=6)


def test_temporal_pe_shared_with_registers_matches_model():
    cases = run_fabric("temporal_pe_shared_regs", SHARED_REGS_ADG,
                       cycling([SHARED_REGS], make_case), seed=1, tokens=60, episodes=8)
    # a constant reading register 0 alone: its firings take no row
    assert any(c.config["tpe_0"].get("insn1.opcode") == CONST
               and c.config["tpe_0"].get("insn1.operand0.is_reg") for c in cases)


@pytest.mark.slow
@pytest.mark.parametrize("seed", [2, 3])
def test_temporal_pe_long(seed):
    run_fabric("temporal_pe", ADG, cycling([PRIVATE], make_case), seed=seed, tokens=300,
               episodes=16)
    run_fabric("temporal_pe_shared", SHARED_ADG, cycling([SHARED], make_case), seed=seed,
               tokens=300, episodes=16)
    run_fabric("temporal_pe_small", SMALL_ADG, cycling([SMALL], make_case), seed=seed,
               tokens=300, episodes=8)


def test_refuses_units_a_temporal_pe_does_not_run():
    # a dataflow state machine has no single firing: it stays in spatial PEs
    carry = """
    fabric.function_unit @fu_carry(%d: i1, %a: i32, %b: i32) -> (i32) [latency = -1, interval = -1] {
      %0 = dataflow.carry %d, %a, %b : i1, i32, i32 -> i32
      fabric.yield %0 : i32
    }"""
    text = ADG.replace(UNITS.strip(), UNITS.strip() + carry)
    with pytest.raises(LoomError) as err:
        fabric_rtl(adg_view(load_adg(text)), "bad")
    assert str(err.value) == (
        "fabric.temporal_pe @tpe: function unit @fu_carry holds dataflow.carry, which a "
        "temporal PE does not run (one firing, every operand taken, one result set); put it "
        "in a spatial PE")


def test_config_decode_names_each_slot_by_its_unit_and_tag():
    # `loom config decode`: a slot's line first (its unit, the opcode's name,
    # and tag; or unused), then its fields, the opcode named after its unit
    from loom.fabric.config_layout import fabric_layout
    from loom.mapper.decode_command import decode_lines

    layout = fabric_layout(adg_view(load_adg(ADG)))
    slot1 = {insn_field(1, "valid"): 1, insn_field(1, "tag"): 2, insn_field(1, "opcode"): MUL}
    lines = decode_lines(layout, layout.encode({"tpe_0": slot1}))
    mul = "fu_mul"   # UNITS' name of arith.muli's unit
    assert "  slot 0: unused" in lines and f"  slot 1: {mul} on tag 2" in lines
    assert lines[lines.index(f"  slot 1: {mul} on tag 2") + 3] == f"  insn1.opcode = {MUL}  ({mul})"
    assert sum(line.startswith("  slot ") for line in lines) == SLOTS
