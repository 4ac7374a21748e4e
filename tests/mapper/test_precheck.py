"""The necessary-resource check: counts against presets.py's documented
contents (muli only in the `pe_alu` PEs, on cells with r+c even: 2 in a 2x2
grid, 8 in a 4x4; every C array one extmemory), the builder's capacity
against the built module's, and `--adg auto` skipping what it rejects."""

from __future__ import annotations

import pytest

from loom.cli import main
from loom.fabric.presets import preset
from loom.ir import parse
from loom.lowering.dfg_input import normalize_module
from loom.inputs import KernelSource
from loom.mapper import preset_fit
from loom.mapper.kernel_compile import compile_for
from loom.mapper.mapping import map_dfg
from loom.mapper.precheck import PeDefinitions, builder_capacity, module_capacity, shortfall
from loom.mapper.dfg_graph import dfg_graph
from loom.fabric.adg_view import adg_view
from loom.mapper.inventory import hw_memories
from tests.mapper.test_map_command import MUL3


def _body(text: str):
    parsed = parse(text, "k.dfg.mlir")
    normalize_module(parsed.module, "k.dfg.mlir")
    return next(op for op in parsed.module.walk() if op.name == "handshake.func").regions[0].block


def kernel_func(kernel: str, out_dir, fanin: int = 4):
    """The handshake.func of kernels/<kernel>.c as `loom map` compiles it."""
    func, _ = compile_for(KernelSource(kernel, out_dir=out_dir), fanin, need_bundle=False)
    return func


def _sw(text: str):
    return dfg_graph(_body(text))


@pytest.mark.parametrize("name", ["chess-2x2", "chess-4x4-ext2x2", "chess-8x8-ext6x6s3",
                                  "chess-2x2-ext1-mem2x2s3"])
def test_builder_capacity_is_the_built_modules(name):
    built = module_capacity(adg_view(preset(name).build()))
    quick = builder_capacity(preset(name), PeDefinitions())
    assert [(k.name, k.count, [u.name for u in k.units]) for k in built.pe_kinds] == \
        [(k.name, k.count, [u.name for u in k.units]) for k in quick.pe_kinds]
    assert (built.memories, built.inputs, built.outputs, built.max_join_fanin) == \
        (quick.memories, quick.inputs, quick.outputs, quick.max_join_fanin)


def test_too_few_memories_is_the_shortfall(tmp_path):
    # kernels/vecadd.c: three arrays, one extmemory each; -ext2 has two
    short = shortfall(dfg_graph(kernel_func("vecadd", tmp_path).regions[0].block),
                      builder_capacity(preset("chess-8x8-ext2"), PeDefinitions()), "chess-8x8-ext2")
    assert short is not None and short.node.kind == "memory"
    assert short.message.endswith(": chess-8x8-ext2 has 2 memories that can host it and the "
                                  "kernel has 3 ops that need one of them")


def test_hardware_memory_element_width_is_read_from_the_adg():
    # the memrefType parameter (stored as memref_type) sets the element width
    # a software memory may not exceed; it used to read as unknown (no check)
    widths = {h.elem_width for h in hw_memories(adg_view(preset("chess-2x2-ext1").build()))}
    assert widths == {64}  # presets.py: memref<?xi64>


def test_more_ops_than_their_hosts_is_the_shortfall():
    sw = _sw(MUL3)
    parsed = PeDefinitions()
    short = shortfall(sw, builder_capacity(preset("chess-2x2"), parsed), "chess-2x2")
    assert short is not None and short.node.op is not None
    assert short.message == ("C1: arith.muli (i64, i64) -> (i64): chess-2x2 has 1 PE that can "
                             "host it and the kernel has 3 ops that need one of them")
    assert shortfall(sw, builder_capacity(preset("chess-4x4"), parsed), "chess-4x4") is None


@pytest.mark.parametrize("name", ["chess-2x2", "chess-2x2-ext1", "chess-4x4", "chess-4x4-ext2x2"])
def test_a_preset_the_mapper_accepts_passes(name):
    # never stricter than the mapper: one mul and an add fit chess-2x2's
    # multiplier PE and its divider PE (an ALU PE without the multiplier)
    text = MUL3.replace("    %r = arith.muli %q, %a : i64\n", "").replace("return %r", "return %q")
    text = text.replace("%q = arith.muli", "%q = arith.addi")
    view = adg_view(preset(name).build())
    assert map_dfg(_body(text), view, 0).ok
    assert shortfall(_sw(text), module_capacity(view), name) is None


def test_auto_skips_presets_with_too_few_memories_without_placing(tmp_path, capsys, monkeypatch):
    # kernels/vecadd.c has three arrays, one extmemory each: every preset
    # before chess-8x8-ext4 has at most two memories
    placed: list[str] = []

    def counting(body, view, *args, **kwargs):
        placed.append(view.name)
        return map_dfg(body, view, *args, **kwargs)

    monkeypatch.setattr(preset_fit, "map_dfg", counting)
    assert main(["map", "vecadd", "--adg", "auto", "-o", str(tmp_path)]) == 0
    assert "adg: auto chose chess-8x8-ext4" in capsys.readouterr().out
    assert placed == ["chess_8x8_ext4"]


def test_auto_names_the_largest_presets_blocking_constraint(tmp_path, capsys, monkeypatch):
    # an f32 remainder has no unit in any preset (the one float preset's
    # units are addf to cmpf), so every preset is rejected unplaced and the
    # line names the largest
    k = tmp_path / "frem.dfg.mlir"
    k.write_text(MUL3.replace("i64", "f32").replace("arith.muli", "arith.remf"))
    monkeypatch.setattr(preset_fit, "map_dfg", None)  # never reached
    assert main(["map", str(k), "--adg", "auto", "-o", str(tmp_path / "o")]) == 2
    err = capsys.readouterr().err.strip()
    assert len(err.splitlines()) == 1
    assert err.endswith("error: auto: the kernel maps onto no preset (see loom adg --list); on "
                        "the largest: C1: no function unit in chess-20x20-t3-ext3x15s8-mem1x1s64-ring "
                        "can host arith.remf (f32, f32) -> (f32)")
