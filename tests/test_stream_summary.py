"""Channel summaries (loom.stream_summary): the digest's definition, and the run
that needs no trace when the RTL matches."""

import json
import re
from pathlib import Path

from loom.cli import main
from loom.stream_summary import StreamSummary, differing_channels, fold, RtlSummary, summarize

M64 = (1 << 64) - 1


def _term(value: int, k: int) -> int:
    """splitmix64's finalizer of value ^ k * 0x9E3779B97F4A7C15, with Python ints."""
    z = (value ^ (k * 0x9E3779B97F4A7C15)) & M64
    z = ((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9) & M64
    z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & M64
    return z ^ (z >> 31)


def _reference(values) -> StreamSummary:
    return StreamSummary(len(values),
                         sum(_term(0 if v is None else v, k) for k, v in enumerate(values)) & M64)


def test_the_digest_is_the_sum_of_the_terms():
    for values in ([], [0], [None, None, None], [1, 2, 3], [M64, 1 << 63, 5, 0],
                   list(range(1000))):
        assert summarize(values) == _reference(values), values


def test_folding_chunks_at_their_offsets_is_summarizing_the_whole():
    values = [M64, None, *range(2000), 1 << 63, 7]
    for cuts in ([], [1], [0, 0, 5], [3, 1000, 1001], list(range(0, len(values), 97))):
        running, edges = StreamSummary(0, 0), [0, *cuts, len(values)]
        for a, b in zip(edges, edges[1:]):
            running = fold(running, values[a:b])
        assert running == _reference(values), cuts


def test_order_and_every_token_count():
    base = summarize([1, 2, 3, 4])
    assert summarize([1, 2, 4, 3]) != base
    assert summarize([1, 2, 3, 4 | 1 << 63]) != base
    assert summarize([1, 2, 3]) != base


def test_a_missing_or_different_channel_differs():
    golden = {0: summarize([1, 2]), 1: summarize([None])}
    same = {0: RtlSummary(2, golden[0].digest, 9), 1: RtlSummary(1, golden[1].digest, 3)}
    assert differing_channels(same, golden) == []
    assert differing_channels({0: same[0]}, golden) == [1]
    assert differing_channels({**same, 0: RtlSummary(2, golden[0].digest ^ 1, 9)}, golden) == [0]


def test_a_matching_run_records_only_the_results(tmp_path, capsys):
    """sum_n has one result and the done token, and main invokes it three
    times (n = 300, 0, 1): six records of 16 bytes; the SystemVerilog
    summaries equal the formula above over the golden streams."""
    assert main(["run", "sum_n", "-o", str(tmp_path)]) == 0
    golden = json.loads((tmp_path / "sum_n.golden.json").read_text())["traces"]
    assert main(["sim", "sum_n", "--ideal", "-o", str(tmp_path)]) == 0, capsys.readouterr().out
    report = json.loads((tmp_path / "sum_n.sim.json").read_text())
    assert report["trace"] == "result channels" and not report["repeated_for_trace"]
    assert Path(report["artifacts"]["trace"]).stat().st_size == 6 * 16
    lines = [line.split() for line in
             Path(report["artifacts"]["summary"]).read_text().splitlines()]
    rtl = sorted((int(count), int(digest)) for _, count, digest, _ in lines)
    want = sorted((len(v), _reference(v).digest) for v in golden.values())
    assert rtl == want
    # the live position file (loom.sim.live): two fixed-width numbers, rewritten in place
    position = Path(report["artifacts"]["summary"]).with_name("progress.txt").read_text()
    assert re.fullmatch(r"\d{20} \d{20}\n", position), position


def test_loom_sim_trace_records_every_transfer(tmp_path, capsys):
    assert main(["sim", "sum_n", "--ideal", "--trace", "-o", str(tmp_path)]) == 0
    report = json.loads((tmp_path / "sum_n.sim.json").read_text())
    assert report["trace"] == "every channel"
    assert Path(report["artifacts"]["trace"]).stat().st_size == 16 * report["tokens"]
