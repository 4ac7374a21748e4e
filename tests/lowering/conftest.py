"""Fixtures for the lowering tests."""

import pytest

from lowered import Lowered


@pytest.fixture
def lower():
    return Lowered
