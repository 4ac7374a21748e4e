"""Live simulation progress from the trace file: tokens, latest cycle, time left."""

import io
import time

from loom.progress import Progress
from loom.sim.compare import RECORD, read_trace
from loom.sim.live import TraceWatch, status_line, trace_position


def _records(*cycles: int) -> bytes:
    return b"".join(RECORD.pack(c, 3, 7) for c in cycles)


def test_position_is_the_record_count_and_the_last_cycle(tmp_path):
    path = tmp_path / "trace.bin"
    assert trace_position(path) == (0, 0)                    # not written yet
    path.write_bytes(_records(5, 9, 12) + b"\x01\x02")       # a record being written
    tokens, cycle = trace_position(path)
    trace = read_trace(path)                                 # the checker's own reading
    assert (tokens, cycle) == (trace.tokens, trace.last_cycle) == (3, 12)


def test_status_line_estimates_from_the_golden_count():
    assert status_line(2_500_000, 1_200_000, 10_000_000, 10.0) == \
        "simulate: cycle 1.2M, 2.5M of 10.0M tokens (25%), about 30 s left"
    assert status_line(0, 0, 4000, 1.0) == "simulate: starting, 4.0k tokens to come"


def test_watch_reports_while_the_file_grows(tmp_path):
    path, out = tmp_path / "trace.bin", io.StringIO()
    with TraceWatch(path, 4, Progress(out, enabled=True, interval=0), poll=0.01):
        path.write_bytes(_records(3, 8))
        time.sleep(0.2)
    assert "simulate: cycle 8, 2 of 4 tokens (50%)" in out.getvalue()


def test_watch_is_silent_when_progress_is_off(tmp_path):
    out = io.StringIO()
    with TraceWatch(tmp_path / "trace.bin", 4, Progress(out, interval=0), poll=0.01):
        time.sleep(0.05)
    assert out.getvalue() == ""
