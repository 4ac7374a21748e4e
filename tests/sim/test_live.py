"""Live simulation progress from the position file: tokens, latest cycle, time left."""

import io
import time

from loom.progress import Progress
from loom.sim.live import SimWatch, sim_position, status_line


def test_position_is_the_last_write(tmp_path):
    path = tmp_path / "progress.txt"
    assert sim_position(path) == (0, 0)                      # not written yet
    path.write_text(f"{16384:020d} {5123:020d}\n")
    assert sim_position(path) == (5123, 16384)
    path.write_text("")                                      # between seek and write
    assert sim_position(path) == (0, 0)


def test_status_line_estimates_from_the_golden_count():
    assert status_line(2_500_000, 1_200_000, 10_000_000, 10.0) == \
        "simulate: cycle 1.2M, 2.5M of 10.0M tokens (25%), about 30 s left"
    assert status_line(0, 0, 4000, 1.0) == "simulate: starting, 4.0k tokens to come"


def test_watch_reports_while_the_simulator_writes(tmp_path):
    path, out = tmp_path / "progress.txt", io.StringIO()
    with SimWatch(path, 4, Progress(out, enabled=True, interval=0), poll=0.01):
        path.write_text(f"{8:020d} {2:020d}\n")
        time.sleep(0.2)
    assert "simulate: cycle 8, 2 of 4 tokens (50%)" in out.getvalue()


def test_watch_is_silent_when_progress_is_off(tmp_path):
    out = io.StringIO()
    with SimWatch(tmp_path / "progress.txt", 4, Progress(out, interval=0), poll=0.01):
        time.sleep(0.05)
    assert out.getvalue() == ""
