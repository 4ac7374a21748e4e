"""The progress line: in place on a terminal, silent in a log unless asked, rate-limited."""

import io

from loom.progress import Progress, count, remaining


class _Tty(io.StringIO):
    def isatty(self) -> bool:
        return True


class _Clock:
    def __init__(self) -> None:
        self.t = 0.0

    def __call__(self) -> float:
        return self.t


def test_a_log_stays_quiet_unless_asked():
    log = io.StringIO()
    p = Progress(log, interval=0)
    p.update("golden: 1 firings")
    p.clear()
    assert not p.enabled and log.getvalue() == ""


def test_asked_for_in_a_log_it_prints_plain_lines_at_its_interval():
    log, clock = io.StringIO(), _Clock()
    p = Progress(log, enabled=True, clock=clock)
    for t, text in ((1, "a"), (6, "b"), (7, "c"), (12, "d")):
        clock.t = t
        p.update(text)
    assert log.getvalue() == "b\nd\n"      # every 5 s, no carriage return


def test_on_a_terminal_the_line_is_redrawn_and_erased():
    tty, clock = _Tty(), _Clock()
    p = Progress(tty, clock=clock)
    assert p.enabled
    clock.t = 1
    p.update("simulate: long line")
    clock.t = 2
    p.update("short")
    assert p.due() is False                 # nothing new until the interval passed
    p.clear()
    assert tty.getvalue() == ("\rsimulate: long line" + "\rshort" + " " * 14
                              + "\r" + " " * 5 + "\r")


def test_disabled_on_a_terminal_when_told():
    tty = _Tty()
    p = Progress(tty, enabled=False, interval=0)
    p.update("x")
    assert tty.getvalue() == ""


def test_counts_and_estimates():
    assert [count(n) for n in (950, 12_345, 4_100_000, 2.5e9)] == ["950", "12.3k", "4.1M", "2.5G"]
    assert remaining(25, 100, 10.0) == ", about 30 s left"
    assert remaining(1, 100, 10.0) == ", about 16 min left"
    assert remaining(0, 100, 10.0) == "" and remaining(100, 100, 10.0) == ""
