"""Legalization (seed 003): single use, join trees within loom.adg_max_join_fanin."""

import pytest

from loom.bundle import Bundle
from loom.diagnostics import LoomError
from loom.dialects import handshake as hs
from loom.golden.run import find_func, run_dfg
from loom.ir import parse_module, print_module
from loom.lowering.legalize import insert_forks, legalize_joins


def _join_module(fanin: int) -> str:
    args = ", ".join(f"%t{i}: none" for i in range(fanin))
    ops = ", ".join(f"%t{i}" for i in range(fanin))
    types = ", ".join(["none"] * fanin)
    return (f"module {{\n  handshake.func @j({args}) -> (none) {{\n"
            f"    %j = handshake.join {ops} : {types}\n"
            f"    handshake.return %j : none\n  }}\n}}\n")


@pytest.mark.parametrize("limit", [2, 3, 64])
@pytest.mark.parametrize("fanin", [1, 2, 3, 4, 7, 64, 65, 100])
def test_join_trees_respect_the_limit_and_keep_semantics(limit, fanin):
    module = parse_module(_join_module(fanin), "j")
    func = find_func(module, None, "j")
    legalize_joins(func.body.block, limit, "j")
    joins = [op for op in func.body.block.ops if isinstance(op, hs.JoinOp)]
    assert all(len(j.operands) <= limit for j in joins)
    # every input still reaches the single output join exactly once
    text = print_module(module)
    reparsed = find_func(parse_module(text, "j"), None, "j")
    run = run_dfg(reparsed, Bundle("j"), "j")
    assert run.ok, run.problems()
    assert sum(len(j.operands) for j in joins) == fanin + len(joins) - 1
    # as shallow as the limit allows: a tree of depth d holds limit ** d inputs
    depth = next(d for d in range(fanin + 1) if limit ** d >= fanin)
    assert _depth(func.body.block.last_op.operands[0]) == max(depth, 1)


def _depth(value) -> int:
    """Joins on the longest path from a function argument to `value`."""
    op = value.owner
    if not isinstance(op, hs.JoinOp):
        return 0
    return 1 + max(_depth(v) for v in op.operands)


@pytest.mark.parametrize("limit", [1, 0])
def test_limit_below_two_rejects_wider_joins(limit):
    module = parse_module(_join_module(3), "j")
    func = find_func(module, None, "j")
    with pytest.raises(LoomError, match="cannot be legalized"):
        legalize_joins(func.body.block, limit, "j")
    narrow = parse_module(_join_module(1), "j")
    legalize_joins(find_func(narrow, None, "j").body.block, limit, "j")


def test_forks_make_every_value_single_use():
    text = ("module {\n  handshake.func @f(%x: i32) -> (i32) {\n"
            "    %a = arith.addi %x, %x : i32\n    %b = arith.muli %a, %x : i32\n"
            "    %c = arith.subi %b, %a : i32\n    handshake.return %c : i32\n  }\n}\n")
    module = parse_module(text, "f")
    body = find_func(module, None, "f").body.block
    insert_forks(body)
    values = [*body.args, *(r for op in body.ops for r in op.results)]
    assert all(v.uses.get_length() <= 1 for v in values)
    forks = [op for op in body.ops if isinstance(op, hs.ForkOp)]
    assert sorted(len(f.results) for f in forks) == [2, 3]


def test_compile_flag_sets_the_limit(tmp_path, capsys):
    """vecadd has three memref groups: its return joins three done tokens."""
    from loom.cli import main
    from loom.ir import load_module

    assert main(["compile", "vecadd", "-o", str(tmp_path), "--max-join-fanin", "2"]) == 0
    module = load_module(tmp_path / "vecadd.dfg.mlir")
    assert module.attributes["loom.adg_max_join_fanin"].value.data == 2
    joins = [op for op in module.walk() if isinstance(op, hs.JoinOp)]
    assert joins and all(len(j.operands) <= 2 for j in joins)
    assert main(["run", "vecadd", "-o", str(tmp_path / "r"), "--max-join-fanin", "2"]) == 0
    capsys.readouterr()
    # a fan-in below 2 is refused by the parser (tests/test_cli_arguments.py), the
    # library's own refusal is tested above
    with pytest.raises(SystemExit) as exc:
        main(["compile", "vecadd", "-o", str(tmp_path / "x"), "--max-join-fanin", "1"])
    assert exc.value.code == 2
    assert "argument --max-join-fanin: must be from 2 to 64, not 1" in capsys.readouterr().err
