"""loom.floats against the native C run: each op on corner and random operands,
computed by a C program built with the project's clang at -O0 with contraction
off (as the native run of a kernel is), and by the model; results equal as
patterns, or both NaN. A few thousand vectors an op here; 10^5 behind slow.

Operands: the corners (+-0, the smallest and largest subnormals and normals,
+-1, the infinities, quiet and signalling NaNs of both signs), random patterns
(every exponent, NaNs and subnormals included), and pairs one ulp-scale apart
and exact halves, so that sums and products land on rounding ties.
"""

from __future__ import annotations

import random
import subprocess
from collections.abc import Iterator

import pytest

from loom import floats
from loom.frontend.toolchain import find_toolchain, run_tool

CORNERS = {
    32: [0x00000000, 0x80000000, 0x00000001, 0x80000001, 0x007fffff, 0x00800000, 0x7f7fffff,
         0xff7fffff, 0x3f800000, 0xbf800000, 0x7f800000, 0xff800000, 0x7fc00000, 0xffc00000,
         0x7f800001, 0x7fa00000, 0x4b000000, 0x4b000001, 0x3f000000, 0x33800000, 0x34000000,
         0x4f000000, 0xcf000000, 0x4effffff, 0x5f000000, 0xdf000000],
    64: [0x0, 0x8000000000000000, 0x1, 0x8000000000000001, 0x000fffffffffffff,
         0x0010000000000000, 0x7fefffffffffffff, 0xffefffffffffffff, 0x3ff0000000000000,
         0xbff0000000000000, 0x7ff0000000000000, 0xfff0000000000000, 0x7ff8000000000000,
         0xfff8000000000000, 0x7ff0000000000001, 0x4330000000000000, 0x3fe0000000000000,
         0x3ca0000000000000, 0x41e0000000000000, 0xc1e0000000000000, 0x43e0000000000000,
         0xc3e0000000000000, 0x36a0000000000000, 0x47efffffe0000000, 0x47efffff10000000],
}

BINARY = {"add": "a + b", "sub": "a - b", "mul": "a * b", "div": "a / b",
          "minnum": "fmin{s}(a, b)", "maxnum": "fmax{s}(a, b)", "rem": "fmod{s}(a, b)"}
UNARY = {"sqrt": "sqrt{s}(a)", "absf": "fabs{s}(a)", "neg": "-a"}
#: each cmpf predicate as C writes it
CMPF_C = {"false": "0", "oeq": "a == b", "ogt": "a > b", "oge": "a >= b", "olt": "a < b",
          "ole": "a <= b", "one": "islessgreater(a, b)", "ord": "!isunordered(a, b)",
          "ueq": "!islessgreater(a, b)", "ugt": "!(a <= b)", "uge": "!(a < b)",
          "ult": "!(a >= b)", "ule": "!(a > b)", "une": "a != b", "uno": "isunordered(a, b)",
          "true": "1"}
INTS = [(8, True), (16, True), (32, True), (64, True), (8, False), (16, False), (32, False),
        (64, False)]


def _ctype(width: int) -> tuple[str, str, str]:
    """(C float type, math suffix, unsigned pattern type)."""
    return ("float", "f", "uint32_t") if width == 32 else ("double", "", "uint64_t")


def _int_c(int_width: int, is_signed: bool) -> str:
    return f"{'' if is_signed else 'u'}int{int_width}_t"


def operand_pairs(width: int, n: int, rng: random.Random) -> Iterator[tuple[int, int]]:
    corners = CORNERS[width]
    for a in corners:
        for b in corners:
            yield a, b
    f = floats.fmt(width)
    for i in range(n):
        a = rng.getrandbits(width)
        match i % 4:
            case 0:
                b = rng.getrandbits(width)
            case 1:   # same exponent range: cancellation and ties in sums
                b = a ^ rng.getrandbits(f.mantissa_bits + 2)
            case 2:   # half an ulp of a, or nearby: exact halves
                shift = f.mantissa_bits + 1 + rng.randrange(3)
                b = max(0, (a & ~f.sign) - (shift << f.mantissa_bits)) | (a & f.sign)
            case _:   # small integers, exactly representable
                a = f.bits(f.dtype(rng.randrange(-1000, 1000)))
                b = f.bits(f.dtype(rng.randrange(-1000, 1000)))
        yield a, b


def _program(width: int, pairs: list[tuple[int, int]]) -> str:
    ft, s, ut = _ctype(width)
    lines = ["#include <math.h>", "#include <stdint.h>", "#include <stdio.h>",
             "#include <string.h>",
             f"static {ft} f({ut} u) {{ {ft} x; memcpy(&x, &u, sizeof x); return x; }}",
             f"static {ut} u({ft} x) {{ {ut} v; memcpy(&v, &x, sizeof v); return v; }}",
             f"static const {ut} A[] = {{{', '.join(f'{a:#x}ULL' for a, _ in pairs)}}};",
             f"static const {ut} B[] = {{{', '.join(f'{b:#x}ULL' for _, b in pairs)}}};",
             "int main(void) {", f"  for (unsigned i = 0; i < {len(pairs)}; i++) {{",
             f"    volatile {ft} a = f(A[i]), b = f(B[i]);", "    (void)b;"]
    for name, expr in {**BINARY, **UNARY}.items():
        lines.append(f'    printf("%llu ", (unsigned long long)u({expr.format(s=s)}));')
    for name, expr in CMPF_C.items():
        lines.append(f'    printf("%d ", (int)({expr}));')
    other = "double" if width == 32 else "float"
    lines.append(f'    printf("%llu ", (unsigned long long)u(({ft})({other})a));')
    for int_width, is_signed in INTS:
        it = _int_c(int_width, is_signed)
        lines.append(f"    {{ {it} k = ({it})A[i];"
                     f' printf("%llu ", (unsigned long long)u(({ft})k)); }}')
        low, high = floats.int_range(int_width, is_signed)
        # in range after truncation (C leaves the rest undefined): -2 when not
        lines.append(f"    if (a > {low}.0 - 1.0 && a < {high}.0 + 1.0)"
                     f' printf("%llu ", (unsigned long long)({_int_c(int_width, False)})({it})a);'
                     ' else printf("- ");')
    lines += ['    printf("\\n");', "  }", "  return 0;", "}"]
    return "\n".join(lines) + "\n"


def _native(width: int, pairs: list[tuple[int, int]], tmp_path) -> list[list[str]]:
    tc = find_toolchain()
    src, exe = tmp_path / f"vectors{width}.c", tmp_path / f"vectors{width}"
    src.write_text(_program(width, pairs))
    run_tool([tc.clang, "-O0", "-ffp-contract=off", "-w", str(src), "-o", str(exe), "-lm"],
             what="the vectors' native build")
    out = subprocess.run([str(exe)], capture_output=True, text=True, check=True).stdout
    return [line.split() for line in out.splitlines()]


def _model(width: int, a: int, b: int) -> list[str]:
    row = [str(getattr(floats, name)(width, a, b)) for name in BINARY]
    row += [str(getattr(floats, name)(width, a)) for name in UNARY]
    row += [str(floats.cmpf(p, width, a, b)) for p in CMPF_C]
    other = 64 if width == 32 else 32
    row.append(str(floats.convert(floats.convert(a, width, other), other, width)))
    for int_width, is_signed in INTS:
        row.append(str(floats.from_int(width, a & ((1 << int_width) - 1), int_width, is_signed)))
        row.append(str(floats.to_int(width, a, int_width, is_signed)))
    return row


def _columns(width: int) -> list[tuple[str, bool]]:
    """(name, float result) of each printed column."""
    cols = [(n, True) for n in BINARY] + [(n, True) for n in UNARY]
    cols += [(f"cmpf {p}", False) for p in CMPF_C] + [("extf/truncf round trip", True)]
    for int_width, is_signed in INTS:
        t = _int_c(int_width, is_signed)
        cols += [(f"({t} to float)", True), (f"(float to {t})", False)]
    return cols


def _check(width: int, n: int, tmp_path) -> None:
    pairs = list(operand_pairs(width, n, random.Random(width * 7919 + n)))
    native = _native(width, pairs, tmp_path)
    assert len(native) == len(pairs)
    columns = _columns(width)
    wrong: list[str] = []
    for (a, b), got in zip(pairs, native):
        want = _model(width, a, b)
        for (name, is_float), g, w in zip(columns, got, want):
            if g == "-":
                continue
            same = floats.same(width, int(g), int(w)) if is_float else int(g) == int(w)
            if not same:
                wrong.append(f"{name} {a:#x} {b:#x}: native {int(g):#x}, model {int(w):#x}")
    assert not wrong, f"{len(wrong)} mismatches, e.g.\n" + "\n".join(wrong[:12])


@pytest.mark.parametrize("width", [32, 64])
def test_the_model_is_the_native_run(width, tmp_path):
    _check(width, 2000, tmp_path)


@pytest.mark.slow
@pytest.mark.parametrize("width", [32, 64])
def test_the_model_is_the_native_run_on_many_vectors(width, tmp_path):
    _check(width, 100_000, tmp_path)


def test_nan_results_are_the_canonical_quiet_nan():
    # 0/0, inf - inf, sqrt(-1): x86 gives the negative "default NaN"; the model one NaN
    assert floats.div(32, 0, 0) == 0x7fc00000
    assert floats.sub(64, 0x7ff0000000000000, 0x7ff0000000000000) == 0x7ff8000000000000
    assert floats.sqrt(32, 0xbf800000) == 0x7fc00000
    assert floats.add(32, 0xffa00001, 0x3f800000) == 0x7fc00000   # a signalling NaN in


def test_out_of_range_conversions_saturate_as_fptosi_sat():
    # LLVM LangRef, llvm.fptosi.sat / fptoui.sat: saturate, NaN to 0
    assert floats.to_int(32, 0x4f800000, 32, True) == 0x7fffffff      # 2^32
    assert floats.to_int(32, 0xff800000, 32, True) == 0x80000000      # -inf
    assert floats.to_int(32, 0x7fc00000, 16, True) == 0
    assert floats.to_int(64, 0xbff8000000000000, 8, False) == 0       # -1.5 to uint8
    assert floats.to_int(64, 0x4070000000000000, 8, False) == 0xff    # 256.0 to uint8
