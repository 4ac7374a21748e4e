"""The sim bundle in LOOM's format (PolyArch/loom lib/loom/Simulator/SimBundle.cpp)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from loom.bundle import Bundle, ExpectedOutput, Outcome, ScalarInput, compare, load_bundle
from loom.diagnostics import LoomError

LOOM = Path(__file__).parent / "golden" / "data" / "loom"


def test_loom_sum_array_bundle_loads():
    b = load_bundle(LOOM / "sum-array-demo.json")
    assert b.case_name == "sum-array-demo" and b.start_token_count == 1
    assert [(s.arg_index, s.data, s.tags) for s in b.scalar_inputs] == [(1, [8], None)]
    assert b.scalar(1) == 8 and b.scalar(0) is None
    assert [(r.memref_arg_index, r.elem_size_bytes, r.values) for r in b.memory_regions] == \
        [(0, 4, [1, 2, 3, 4, 5, 6, 7, 8])]
    assert [(o.result_index, o.data) for o in b.expected_outputs] == [(0, [36])]


def test_loom_vecadd_bundle_loads():
    b = load_bundle(LOOM / "vecadd-demo.json")
    assert b.scalar(3) == 8
    assert [r.memref_arg_index for r in b.memory_regions] == [0, 1, 2]
    assert b.expected_memory_regions[0].values == [9] * 8
    assert b.expected_outputs == []


def test_written_bundle_is_loom_format_and_round_trips(tmp_path):
    b = Bundle("two", start_token_count=2,
               scalar_inputs=[ScalarInput(0, [3, 4], tags=[1, 2])],
               expected_outputs=[ExpectedOutput(0, [6, 8])], extra={"top": "f"})
    path = tmp_path / "b.json"
    b.save(path)
    doc = json.loads(path.read_text())
    assert doc["start_token_count"] == 2
    assert doc["scalar_inputs"] == [{"arg_index": 0, "data": [3, 4], "tags": [1, 2]}]
    assert doc["expected_outputs"] == [{"result_index": 0, "data": [6, 8]}]
    assert "expected_results" not in doc and doc["top"] == "f"
    again = load_bundle(path)
    assert again == b
    assert again.scalar(0, invocation=1) == 4


def test_old_format_still_loads(tmp_path):
    path = tmp_path / "old.json"
    path.write_text(json.dumps({
        "case_name": "old", "scalar_inputs": [{"arg_index": 0, "data": -5}],
        "memory_regions": [], "expected_memory_regions": [],
        "expected_results": [{"result_index": 0, "data": 7}]}))
    b = load_bundle(path)
    assert b.start_token_count == 1
    assert b.scalar_inputs[0].data == [-5]
    assert [(o.result_index, o.data) for o in b.expected_outputs] == [(0, [7])]


@pytest.mark.parametrize("doc, field, message", [
    ({"scalar_inputs": [{"arg_index": 0, "data": ["x"]}]},
     "scalar_inputs[0].data", "must be a list of integers"),
    ({"start_token_count": 2, "scalar_inputs": [{"arg_index": 0, "data": [1]}]},
     "scalar_inputs[0].data", "has 1 value(s); start_token_count is 2"),
    ({"expected_outputs": [{"result_index": 0, "data": 3}]},
     "expected_outputs[0].data", "must be a list of integers"),
    ({"expected_outputs": [{"result_index": 0, "data": [3], "tags": [1, 2]}]},
     "expected_outputs[0].tags", "has 2 value(s); data has 1"),
    ({"scalar_inputs": [{"data": [3]}]}, "scalar_inputs[0].arg_index", "is missing"),
    ({"scalar_inputs": [{"arg_index": 0, "data": [3], "value": 1}]},
     "scalar_inputs[0].value", "is not a bundle field"),
    ({"memory_regions": [{"memref_arg_index": 0, "elem_size_bytes": 3, "values": []}]},
     "memory_regions[0].elem_size_bytes", "must be one of 1, 2, 4 or 8"),
    ({"start_token_count": 0}, "start_token_count", "must be at least 1"),
    ({"start_token_count": "2"}, "start_token_count", "must be an integer"),
    ({"expected_results": [], "expected_outputs": []}, "expected_results", "old name"),
    ({"memory_regions": {}}, "memory_regions", "must be a list"),
])
def test_malformed_field_is_one_line_naming_file_and_field(tmp_path, doc, field, message):
    path = tmp_path / "bad.json"
    path.write_text(json.dumps(doc))
    with pytest.raises(LoomError) as exc:
        load_bundle(path)
    text = exc.value.format()
    assert "\n" not in text
    assert text.startswith(f"{path}: error: bundle field '{field}' ")
    assert message in text


def test_compare_names_the_invocation_and_missing_results():
    b = Bundle("k", start_token_count=3, expected_outputs=[ExpectedOutput(0, [1, -2, 3])])
    got = Outcome(results=[[1], [0xFFFFFFFF]], memories={}, result_widths=[32])
    assert compare(b, got) == ["invocation 1: result 0: expected -2, got -1",
                               "invocation 2: result 0: expected 3, got nothing"]


def test_memory_without_elem_size_compares_values(tmp_path):
    from loom.bundle import MemoryRegion
    b = Bundle("m", expected_memory_regions=[MemoryRegion(0, 0, [1, 2])])
    assert compare(b, Outcome([[]], {0: [1, 2]})) == []
    assert compare(b, Outcome([[]], {0: [1, 3]})) == ["memory arg 0[1]: expected 2, got 3"]


def test_float_results_and_memories_compare_as_floats():
    """A float (by arg_types / result_types) is its pattern; any NaN equals any NaN,
    -0 is not +0, and a message shows the number and the pattern. Integers as before."""
    from loom.bundle import MemoryRegion, float_width
    nan, other_nan, minus_zero = 0x7FC00000, 0xFFC00001, 0x80000000
    b = Bundle("f", expected_outputs=[ExpectedOutput(0, [nan]), ExpectedOutput(1, [0])],
               expected_memory_regions=[MemoryRegion(0, 4, [nan, 0x3FC00000]),
                                        MemoryRegion(1, 4, [nan])],
               extra={"arg_types": ["memref<2xf32>", "memref<1xi32>"],
                      "result_types": ["f32", "f64"]})
    same = Outcome([[other_nan, 0]], {0: [0x7F800001, 0x3FC00000], 1: [nan]}, [32, 64])
    assert compare(b, same) == []
    differ = Outcome([[nan, 1 << 63]], {0: [nan, minus_zero], 1: [other_nan]}, [32, 64])
    assert compare(b, differ) == [
        "result 1: expected 0.0 (0x0000000000000000), got -0.0 (0x8000000000000000)",
        "memory arg 0[1]: expected 1.5 (0x3fc00000), got -0.0 (0x80000000)",
        f"memory arg 1[0]: expected {nan}, got {other_nan - (1 << 32)}",   # integers
    ]
    assert [float_width(t) for t in ("f32", "memref<4x?xf64>", "i32", "memref<2xi32>",
                                     "f16", None)] == [32, 64, None, None, None, None]
