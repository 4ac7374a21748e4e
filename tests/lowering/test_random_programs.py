"""Random nested for/while/if programs: lowering + golden model == Python reference."""

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from loom.bundle import Bundle, MemoryRegion, ScalarInput

from lowered import Lowered
from random_scf import M32, evaluate, programs, render

CASES = dict(body=programs, n=st.integers(0, 4), x=st.integers(-9, 9),
             seed=st.lists(st.integers(-50, 50), min_size=32, max_size=32))


def _check(body, n, x, seed):
    text = render(body)
    mem = {"a": [v & M32 for v in seed[:16]], "b": [v & M32 for v in seed[16:]]}
    before = {k: list(v) for k, v in mem.items()}
    evaluate(body, mem, {"n": n, "x": x})
    run = Lowered(text).run(Bundle(
        "prog", scalar_inputs=[ScalarInput(2, [n]), ScalarInput(3, [x])],
        memory_regions=[MemoryRegion(0, 4, before["a"]), MemoryRegion(1, 4, before["b"])],
        expected_memory_regions=[MemoryRegion(0, 4, mem["a"]), MemoryRegion(1, 4, mem["b"])]))
    assert run.ok, (text, run.problems()[:5])


@settings(max_examples=60, deadline=None)
@given(**CASES)
def test_random_program_matches_reference(body, n, x, seed):
    _check(body, n, x, seed)


@pytest.mark.slow
@settings(max_examples=2000, deadline=None)
@given(**CASES)
def test_many_random_programs_match_reference(body, n, x, seed):
    _check(body, n, x, seed)
