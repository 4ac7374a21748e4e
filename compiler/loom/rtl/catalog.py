"""The parameter sets every unit family is verified and measured with.

Shared by the quality gates (lint, build, synthesis), the cocotb unit tests
and bench/unit_area.py, so that whatever is tested is also measured. Each
family has at least three sets, with widths 1, 32 and 64 where a width applies;
a float family has binary32 and binary64 (cmpf every predicate).
"""

from __future__ import annotations

from typing import Any

from loom import floats
from loom.rtl.units import (BINARY_OPS, DIV_OPS, FLOAT_ARITH_TEMPLATES, FLOAT_MINMAX_OPS,
                             FLOAT_SIGN_OPS)

TAG_SPEC = (("tag", 2), ("spec", 1))   # seed 004: a thread tag and a speculation bit

Params = dict[str, Any]

CATALOG: dict[str, list[Params]] = {
    **{op: [dict(w=32), dict(w=64)] for op in (*FLOAT_SIGN_OPS, *FLOAT_MINMAX_OPS)},
    "fork": [dict(n=2, w=32), dict(n=3, w=1), dict(n=4, w=64), dict(n=2, w=0),
             dict(n=2, w=32, extras=TAG_SPEC)],
    "lazy_fork": [dict(n=2, w=32), dict(n=3, w=1), dict(n=2, w=64), dict(n=3, w=0)],
    "join": [dict(n=2), dict(n=1), dict(n=3), dict(n=5)],
    "sync": [dict(n=2, w=32), dict(n=3, w=1), dict(n=2, w=64), dict(n=2, w=0)],
    "merge": [dict(n=2, w=32), dict(n=3, w=1), dict(n=2, w=64), dict(n=2, w=0),
              dict(n=2, w=32, extras=TAG_SPEC)],
    "control_merge": [dict(n=2, w=0), dict(n=2, w=32), dict(n=3, w=1), dict(n=4, w=64)],
    "mux": [dict(n=2, w=32), dict(n=3, w=1), dict(n=4, w=64), dict(n=2, w=0),
            dict(n=2, w=32, extras=TAG_SPEC)],
    "cond_br": [dict(w=32), dict(w=1), dict(w=64), dict(w=0), dict(w=32, extras=TAG_SPEC)],
    "constant": [dict(w=32, value=-7), dict(w=1, value=1), dict(w=64, value=0x1234_5678_9ABC_DEF0)],
    "source": [dict()],
    "sink": [dict()],
    "oehb": [dict(w=32), dict(w=1), dict(w=64), dict(w=0), dict(w=32, extras=TAG_SPEC)],
    "tehb": [dict(w=32), dict(w=1), dict(w=64), dict(w=0), dict(w=32, extras=TAG_SPEC)],
    "fifo": [dict(slots=4, w=32), dict(slots=3, w=1), dict(slots=2, w=64),
             dict(slots=4, w=32, transparent=True), dict(slots=5, w=0, transparent=True), dict(slots=2, w=0),
             dict(slots=12, w=0, transparent=True),
             dict(slots=4, w=32, extras=TAG_SPEC)],
    "cmpi": [dict(predicate=p, w=w) for p, w in
             (("eq", 32), ("ne", 1), ("slt", 32), ("sle", 64), ("sgt", 1), ("sge", 32),
              ("ult", 64), ("ule", 32), ("ugt", 1), ("uge", 64))],
    "select": [dict(w=32), dict(w=1), dict(w=64)],
    # binary32 and binary64 only: every cmpf predicate, alternating formats
    "cmpf": [dict(predicate=p, w=(32, 64)[i % 2]) for i, p in enumerate(floats.CMPF_NAMES)],
    "muli": [dict(w=32, latency=4), dict(w=1, latency=1), dict(w=64, latency=2),
             dict(w=32, latency=0)],
    "compose": [dict(w=32, extras=TAG_SPEC), dict(w=1, extras=(("spec", 1),)),
                dict(w=64, extras=(("tag", 8),))],
    "decompose": [dict(w=32, extras=TAG_SPEC), dict(w=1, extras=(("spec", 1),)),
                  dict(w=64, extras=(("tag", 8),))],
    "unbundle": [dict(w=32, extras=TAG_SPEC), dict(w=1), dict(w=64, extras=(("tag", 8),))],
    "bundle": [dict(w=32, extras=TAG_SPEC), dict(w=1), dict(w=64, extras=(("tag", 8),))],
    "stream": [dict(step_op="+=", cont_cond="<", w=64), dict(step_op="+=", cont_cond="<", w=32),
               dict(step_op="-=", cont_cond=">=", w=32), dict(step_op="*=", cont_cond="<=", w=32),
               dict(step_op="/=", cont_cond=">", w=32), dict(step_op="<<=", cont_cond="!=", w=64),
               dict(step_op=">>=", cont_cond=">", w=32), dict(step_op="+=", cont_cond="!=", w=1)],
    "gate": [dict(w=64), dict(w=32), dict(w=1), dict(w=0)],
    "carry": [dict(w=64), dict(w=32), dict(w=1), dict(w=0)],
    "invariant": [dict(w=64), dict(w=32), dict(w=1), dict(w=0)],
    "load": [dict(rank=1, aw=64, w=32), dict(rank=2, aw=64, w=1), dict(rank=1, aw=16, w=64)],
    "store": [dict(rank=1, aw=64, w=32), dict(rank=2, aw=64, w=1), dict(rank=1, aw=16, w=64)],
    "memory": [dict(ld=1, st=1, shape=(64,), w=32, aw=64),
               dict(ld=2, st=1, shape=(4, 5), w=1, aw=64),
               dict(ld=1, st=2, shape=(16,), w=64, aw=16),
               dict(ld=0, st=2, shape=(8,), w=32, aw=64),
               # a constant table (a ROM): two load ports, signed contents
               dict(ld=2, st=0, shape=(3, 4), w=16, aw=64,
                    init=(5, -1, 0, 32767, -32768, 7, 1, 2, 3, 255, 256, -300))],
    "extmemory": [dict(ld=1, st=1, shape=(64,), w=32, aw=64),
                  dict(ld=2, st=1, shape=(4, 5), w=1, aw=64),
                  dict(ld=1, st=2, shape=(16,), w=64, aw=16),
                  dict(ld=0, st=1, shape=(8,), w=32, aw=64),
                  dict(ld=2, st=1, shape=(6,), w=8, aw=64, k=3),
                  dict(ld=1, st=1, shape=(4,), w=32, aw=8, k=1)],
    # load-store queues: a read-modify-write group; two groups with a
    # second load port (2-D, more load entries than store entries); a store
    # alone then a load and a store, narrow address, one beat in flight
    "lsq": [dict(ld=1, st=1, shape=(8,), w=32, aw=64, groups=((("ld", 0), ("st", 0)),), lq=4, sq=4),
            dict(ld=2, st=1, shape=(4, 5), w=1, aw=64, lq=8, sq=2, k=3,
                 groups=((("ld", 0), ("ld", 1), ("st", 0)), (("ld", 1),))),
            dict(ld=1, st=2, shape=(16,), w=64, aw=8, lq=2, sq=4, k=1,
                 groups=((("st", 0),), (("ld", 0), ("st", 1))))],
}
for _op in BINARY_OPS:
    CATALOG[_op] = [dict(w=32), dict(w=1), dict(w=64)]
# the configurable ALU (a fabric unit, its op a plain input): the smallest width, odd widths
CATALOG["alu"] = [dict(w=32), dict(w=2), dict(w=64), dict(w=13)]
for _op in DIV_OPS:
    # default depths, an uneven split (13 steps in 5 stages), one bit a stage, one stage
    CATALOG[_op] = [dict(w=32), dict(w=1), dict(w=64), dict(w=8), dict(w=13, latency=5),
                    dict(w=16, latency=16), dict(w=32, latency=1)]
CATALOG.update({
    "extsi": [dict(w_in=1, w_out=32), dict(w_in=32, w_out=64), dict(w_in=8, w_out=16)],
    "extui": [dict(w_in=1, w_out=32), dict(w_in=32, w_out=64), dict(w_in=8, w_out=16)],
    "trunci": [dict(w_in=32, w_out=1), dict(w_in=64, w_out=32), dict(w_in=16, w_out=8)],
    "index_cast": [dict(w_in=64, w_out=32), dict(w_in=32, w_out=64), dict(w_in=64, w_out=64)],
    "bitcast": [dict(w_in=32, w_out=32), dict(w_in=64, w_out=64), dict(w_in=16, w_out=16)],
    # the float conversions: integers of several widths, both formats,
    # the default latency and a combinational one
    "sitofp": [dict(w_in=32, w_out=32), dict(w_in=64, w_out=64), dict(w_in=8, w_out=32, latency=0),
               dict(w_in=1, w_out=64, latency=1), dict(w_in=64, w_out=32)],
    "uitofp": [dict(w_in=32, w_out=32), dict(w_in=64, w_out=64), dict(w_in=16, w_out=64, latency=0),
               dict(w_in=64, w_out=32)],
    "fptosi": [dict(w_in=32, w_out=32), dict(w_in=64, w_out=64), dict(w_in=32, w_out=8, latency=0),
               dict(w_in=64, w_out=32), dict(w_in=32, w_out=64)],
    "fptoui": [dict(w_in=32, w_out=32), dict(w_in=64, w_out=64), dict(w_in=64, w_out=16, latency=0),
               dict(w_in=32, w_out=64)],
    "extf": [dict(w_in=32, w_out=64), dict(w_in=32, w_out=64, latency=0),
             dict(w_in=32, w_out=64, latency=1)],
    "truncf": [dict(w_in=64, w_out=32), dict(w_in=64, w_out=32, latency=0),
               dict(w_in=64, w_out=32, latency=1)],
})
for _op in FLOAT_ARITH_TEMPLATES:
    # both formats at the default latency, combinational, one stage
    CATALOG[_op] = [dict(w=32), dict(w=64), dict(w=32, latency=0), dict(w=64, latency=1)]
