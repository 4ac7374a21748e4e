"""The control registers against Vitis HLS's ap_ctrl_hs layout.

The expected offsets are written here from the convention (Vitis HLS's
s_axi_control: control at 0x00, GIE 0x04, IER 0x08, ISR 0x0C, arguments
from 0x10; a value of up to 32 bits takes a data word and a reserved word,
a 64-bit one two data words and a reserved word; issue 34 puts the results
after the arguments), not taken from the tool. They are checked on the
model and on PeakRDL-cheader's struct, compiled by gcc and measured with
offsetof, so that what the driver addresses is what the table says.
"""

from __future__ import annotations

import subprocess

import pytest

from loom.diagnostics import LoomError
from loom.export.csr import write_csr
from loom.export.register_map import Param, register_map

# (C-like signature, parameters, results, {register: offset}) by hand
VECADD = ([Param("a", 32, True), Param("b", 32, True), Param("c", 32, True)], [],
          {"a_lo": 0x10, "a_hi": 0x14, "b_lo": 0x1C, "b_hi": 0x20, "c_lo": 0x28, "c_hi": 0x2C})
# int f(int n, int *x, short s, long long w) -> ap_return
MIXED = ([Param("n", 32, False), Param("x", 32, True), Param("s", 16, False),
          Param("w", 64, False)], [Param("ap_return", 32, False)],
         {"n": 0x10, "x_lo": 0x18, "x_hi": 0x1C, "s": 0x24, "w_lo": 0x2C, "w_hi": 0x30,
          "ap_return": 0x38})
# double g(float k, double *v) -> a 64-bit result
FLOATS = ([Param("k", 32, False, True), Param("v", 64, True, True)],
          [Param("ap_return", 64, False, True)],
          {"k": 0x10, "v_lo": 0x18, "v_hi": 0x1C, "ap_return_lo": 0x24, "ap_return_hi": 0x28})
CASES = {"vecadd": VECADD, "mixed": MIXED, "floats": FLOATS}
CONTROL = {"CTRL": 0x00, "GIE": 0x04, "IER": 0x08, "ISR": 0x0C}
# Vitis HLS's bit positions
CTRL_BITS = {"ap_start": 0, "ap_done": 1, "ap_idle": 2, "ap_ready": 3, "auto_restart": 7,
             "interrupt": 9}
EVENT_BITS = {"ap_done": 0, "ap_ready": 1}




@pytest.mark.parametrize("case", CASES)
def test_offsets_follow_vitis_hls(case):
    params, results, want = CASES[case]
    assert register_map(case, params, results).offsets() == CONTROL | want


def test_control_bits_follow_vitis_hls():
    regs = {r.name: r for r in register_map("k", [], []).control}
    assert {f.name: f.lsb for f in regs["CTRL"].fields} == CTRL_BITS
    assert {f.name: f.lsb for f in regs["IER"].fields} == EVENT_BITS
    assert {f.name: f.lsb for f in regs["ISR"].fields} == EVENT_BITS
    access = {f.name: f.access for f in regs["CTRL"].fields}
    assert access["ap_done"] == access["ap_ready"] == "r/cor"
    assert {f.access for f in regs["ISR"].fields} == {"rw/tow"}


def test_a_name_taken_twice_is_refused():
    with pytest.raises(LoomError, match="taken twice"):
        register_map("k", [Param("isr", 32, False)], [])


@pytest.mark.parametrize("case", CASES)
def test_peakrdl_header_has_the_offsets(case, tmp_path):
    params, results, want = CASES[case]
    regs = register_map(case, params, results)
    csr = write_csr(regs, tmp_path)
    names = CONTROL | want
    probe = tmp_path / "probe.c"
    probe.write_text(
        f'#include <stddef.h>\n#include <stdio.h>\n#include "{csr.header}"\n'
        "int main(void) {\n"
        + "".join(f'  printf("{n} %zu\\n", offsetof({case}_control_t, {n}));\n' for n in names)
        + "  return 0;\n}\n")
    exe = tmp_path / "probe"
    subprocess.run(["gcc", "-std=c11", "-Wall", "-Werror", str(probe), "-o", str(exe)], check=True)
    out = subprocess.run([str(exe)], capture_output=True, text=True, check=True).stdout
    assert {line.split()[0]: int(line.split()[1]) for line in out.splitlines()} == names


def test_address_bits_are_peakrdl_s(tmp_path):
    params, results, _ = MIXED
    regs = register_map("mixed", params, results)
    csr = write_csr(regs, tmp_path)
    pkg = csr.package.read_text()
    assert f"MIXED_CSR_MIN_ADDR_WIDTH = {regs.addr_bits};" in pkg
