"""Helpers for the dialect tests: parse + verify + round trip, and expected errors."""

from __future__ import annotations

from collections.abc import Callable

import pytest
from xdsl.dialects.builtin import ModuleOp
from xdsl.ir import Operation

from loom.diagnostics import LoomError
from loom.ir import parse, print_module, verify_module


def _checked(text: str) -> ModuleOp:
    """Parse and verify; the printed form must be a print/parse fixed point."""
    parsed = parse(text, "test.mlir")
    verify_module(parsed.module, "test.mlir", parsed.op_positions)
    printed = print_module(parsed.module)
    again = print_module(parse(printed, "printed.mlir").module)
    assert again == printed
    return parsed.module


def _error(text: str) -> LoomError:
    """The LoomError that parsing or verifying `text` raises (one line)."""
    with pytest.raises(LoomError) as info:
        parsed = parse(text, "test.mlir")
        verify_module(parsed.module, "test.mlir", parsed.op_positions)
    err = info.value
    assert "\n" not in err.format()
    return err


@pytest.fixture
def checked() -> Callable[[str], ModuleOp]:
    return _checked


@pytest.fixture
def error() -> Callable[[str], LoomError]:
    return _error


def _body_ops(module: ModuleOp) -> list[Operation]:
    """Ops of the first function body, in order."""
    func = next(iter(module.ops))
    return list(func.regions[0].blocks[0].ops)


@pytest.fixture
def body_ops() -> Callable[[ModuleOp], list[Operation]]:
    return _body_ops
