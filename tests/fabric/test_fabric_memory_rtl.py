"""fabric.extmemory and fabric.memory RTL (templates/fabric_extmemory.sv.j2,
fabric_memory.sv.j2) against the reference model loom.fabric.models.memory:
random region tables (tag ranges, offsets, element sizes; a tag without a
region stops its family), config through the cfg port, random validity and
backpressure, and, for the extmemory, a memory agent behind its master port
(the direct flow's protocol) with random latency and backpressure. Two
tagged load lanes and two tagged store lanes on the extmemory, compared per
lane (tag); one untagged lane each on an on-chip memory of 16-bit elements
whose contents carry over from episode to episode."""


import pytest

from loom.fabric.models.memory import Region, memory, regions
from tb.fabric_runner import FabricCase, random_tokens, run_fabric

pytestmark = pytest.mark.rtl

T = "!fabric.tagged<!fabric.bits<32>, i1>"
B = "!fabric.bits<32>"
ADG = f"""
module {{
  fabric.module @mems(%m: memref<?xi32>, %la: {T}, %sa: {T}, %sd: {T}, %pla: {B}, %psa: {B},
                      %psd: {B}) -> ({T}, {T}, {T}, {B}, {B}, {B}) {{
    %e:3 = fabric.extmemory @ext [ldCount = 2, stCount = 2, numRegion = 2,
        memrefType = memref<?xi32>] (%m, %la, %sa, %sd)
        : (memref<?xi32>, {T}, {T}, {T}) -> ({T}, {T}, {T})
    %p:3 = fabric.memory @spad [ldCount = 1, stCount = 1, numRegion = 1,
        memrefType = memref<64xi16>] (%pla, %psa, %psd) : ({B}, {B}, {B}) -> ({B}, {B}, {B})
    fabric.yield %e#0, %e#1, %e#2, %p#0, %p#1, %p#2 : {T}, {T}, {T}, {B}, {B}, {B}
  }}
}}
"""
EXT_ELEMENTS = 64
SPAD_ELEMENTS = 64
M32 = (1 << 32) - 1


def _region(rng, start: int, end: int, valid: int = 1) -> dict[str, int]:
    size = rng.randrange(4)
    return {"valid": valid, "start_lane": start, "end_lane": end,
            "addr_offset": rng.choice([0, 4, 8]) << size, "elem_size_log2": size}


def _fields(table: list[dict[str, int]]) -> dict[str, int]:
    return {f"region{r}.{k}": v for r, fields in enumerate(table) for k, v in fields.items()}


def _address(region: Region, element: int) -> int:
    """An address the region maps to `element` (the offset is a whole number of elements)."""
    return element - (region.offset >> region.elem_size_log2)


def _ext_case(rng, n):
    """Two lanes sharing one region or one region each; sometimes lane 1 has none
    and one lane-1 load stops the load family."""
    shape = rng.choice(["shared", "split", "stop"])
    if shape == "shared":
        table = [_region(rng, 0, 2), _region(rng, 0, 0, valid=0)]
    else:
        table = [_region(rng, 0, 1), _region(rng, 1, 2, valid=int(shape == "split"))]
    fields = _fields(table)
    rt = regions(fields, 2)
    lanes = [0, 1] if shape != "stop" else [0]
    contents = random_tokens(rng, 32, EXT_ELEMENTS)
    ld = []
    for _ in range(n):   # loads read elements 16..31, stores write 32..63
        tag = rng.choice(lanes)
        r = next(x for x in rt if x.holds(tag))
        ld.append((tag, _address(r, rng.randrange(16, 32))))
    if shape == "stop":
        ld.insert(rng.randrange(len(ld)), (1, 0))
    sa, sd = [], []
    for tag in lanes:
        r = next(x for x in rt if x.holds(tag))
        for _ in range(n // 4):
            sa.append((tag, _address(r, rng.randrange(32 + 16 * tag, 48 + 16 * tag))))
            sd.append((tag, rng.getrandbits(32)))
    # the lanes interleave in a random order, the same on both store families:
    # one register per lane pairs them (as LOOM's LSQ); orders that differ
    # between the families can deadlock it (not a stream a store unit makes
    # on a one-store-lane memory, as the presets have)
    order = _shuffle_lanes(rng, [(t, k) for k, (t, _) in enumerate(sa)])
    sa, sd = [sa[k] for _, k in order], [sd[k] for _, k in order]
    model = memory(rt, 2, 2, contents, 32, ld, sa, sd)
    return fields, contents, model, ld, sa, sd


def _shuffle_lanes(rng, tokens):
    """A random merge of the lanes' streams, each lane keeping its order."""
    by_lane = {}
    for t in tokens:
        by_lane.setdefault(t[0], []).append(t)
    out = []
    while any(by_lane.values()):
        lane = rng.choice([k for k, v in by_lane.items() if v])
        out.append(by_lane[lane].pop(0))
    return out


def _packed(tokens, bits=32):
    return [(tag << bits) | (v & ((1 << bits) - 1)) for tag, v in tokens]


def _expected(values: dict[int, list[int]], bits=32) -> list[int]:
    return [(tag << bits) | v for tag in sorted(values) for v in values[tag]]


class SpadState:
    """The on-chip memory keeps its contents across episodes (no reset clears
    storage): loads read only elements earlier episodes wrote, or past the end."""

    def __init__(self):
        self.known: dict[int, int] = {}

    def case(self, rng, n):
        table = [_region(rng, 0, 1)]
        fields = _fields(table)
        (r,) = regions(fields, 1)
        loaded = list(self.known)
        stored = [e for e in range(SPAD_ELEMENTS) if e not in self.known or rng.random() < 0.2]
        stored = [e for e in stored if e not in set(loaded[: len(loaded) // 2])]
        readable = [e for e in loaded if e not in stored] + [SPAD_ELEMENTS + 3]
        ld = [(0, _address(r, rng.choice(readable))) for _ in range(n)] if loaded else []
        sa = [(0, _address(r, rng.choice(stored))) for _ in range(n // 2)]
        sa.append((0, _address(r, SPAD_ELEMENTS + 1)))   # past the storage: not written
        sd = [(0, rng.getrandbits(32)) for _ in sa]
        contents = [self.known.get(e, 0) for e in range(SPAD_ELEMENTS)]
        model = memory([r], 1, 1, contents, 16, ld, sa, sd)
        for e in {e for _, a in sa if (e := r.element(a)) < SPAD_ELEMENTS}:
            self.known[e] = model.memory[e]
        return fields, model, ld, sa, sd


def make_case_factory():
    spad = SpadState()

    def make_case(rng, layout, n):
        ext_fields, contents, ext, ld, sa, sd = _ext_case(rng, n)
        spad_fields, pm, pld, psa, psd = spad.case(rng, n)
        inputs = {"in1": _packed(ld, 32), "in2": _packed(sa), "in3": _packed(sd),
                  "in4": [a & M32 for _, a in pld], "in5": [a & M32 for _, a in psa],
                  "in6": [v for _, v in psd]}
        outputs = {"out0": _expected(ext.outputs["ld_data"]),
                   "out1": _expected(ext.outputs["ld_done"]),
                   "out2": _expected(ext.outputs["st_done"]),
                   "out3": pm.outputs["ld_data"].get(0, []),
                   "out4": pm.outputs["ld_done"].get(0, []),
                   "out5": pm.outputs["st_done"].get(0, [])}
        consumed = {"in1": ext.consumed["ld_addr"], "in2": len(sa), "in3": len(sd),
                    "in4": pm.consumed["ld_addr"], "in5": len(psa), "in6": len(psd)}
        return FabricCase({"ext": ext_fields, "spad": spad_fields}, inputs, outputs, consumed,
                          memories={"ext": contents}, final_memories={"ext": ext.memory},
                          by_tag={"out0": 32, "out1": 32, "out2": 32})
    return make_case


def test_memory_model_regions_and_lanes():
    # hand-worked: region 0 holds tag 0 at byte offset 8 with 4-byte elements
    # (element 2 onward), region 1 holds tag 1 at offset 0 with 2-byte elements
    table = regions({"region0.valid": 1, "region0.start_lane": 0, "region0.end_lane": 1,
                     "region0.addr_offset": 8, "region0.elem_size_log2": 2,
                     "region1.valid": 1, "region1.start_lane": 1, "region1.end_lane": 2,
                     "region1.addr_offset": 0, "region1.elem_size_log2": 1}, 2)
    contents = [10, 11, 12, 13, 14, 15]
    got = memory(table, 2, 2, contents, 8, ld_addr=[(0, 1), (1, 1), (0, 0), (1, 9)],
                 st_addr=[(1, 4), (0, 3)], st_data=[(0, 0x1FF), (1, 7)])
    # loads: tag 0 addr 1 -> element 3, tag 1 addr 1 -> 1, tag 0 addr 0 -> 2,
    # tag 1 addr 9 -> 9 (past the storage: 0)
    assert got.outputs["ld_data"] == {0: [13, 12], 1: [11, 0]}
    assert got.outputs["ld_done"] == {0: [0, 0], 1: [0, 0]}
    assert got.outputs["st_done"] == {0: [0], 1: [0]}
    # stores pair per lane: lane 1 writes 7 to element 4, lane 0 0x1FF (8 bits) to 5
    assert got.memory == [10, 11, 12, 13, 7, 0xFF]
    assert got.consumed == {"st_addr": 2, "st_data": 2, "ld_addr": 4}


def test_memory_model_stops_at_a_tag_without_region():
    table = regions({"region0.valid": 1, "region0.start_lane": 0, "region0.end_lane": 1}, 1)
    got = memory(table, 2, 0, [5, 6, 7], 32, ld_addr=[(0, 2), (1, 0), (0, 1)])
    assert got.outputs["ld_data"] == {0: [7]} and got.consumed["ld_addr"] == 1


def test_memory_matches_model():
    run_fabric("memory", ADG, make_case_factory(), seed=1, tokens=120, episodes=6)


@pytest.mark.slow
@pytest.mark.parametrize("seed", [2, 3])
def test_memory_long(seed):
    run_fabric("memory", ADG, make_case_factory(), seed=seed, tokens=600, episodes=9)
