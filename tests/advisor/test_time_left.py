"""The time left of a long work against a scripted clock whose speed changes mid-solve:
the estimate follows the new speed within a window of work (issue 45 item 2), through
each front end that shows it (the terminal game's solve, the server's job status, the
commands' bars)."""

from __future__ import annotations

import re
import time

import pytest

from advisor.background import Solve
from advisor.cli._progress import work_bar
from advisor.time_left import WINDOW, TimeLeft

TOTAL = 1000


def clock_of(speeds: list[tuple[int, float]]) -> list[float]:
    """The time at which each unit of work 0..TOTAL is reached: ``speeds`` lists
    (units up to which, seconds per unit), in order; the work starts at 50 s."""
    times, now, unit = [50.0], 50.0, 0
    for upto, per_unit in speeds:
        while unit < upto:
            now += per_unit
            unit += 1
            times.append(now)
    assert unit == TOTAL
    return times


def true_left(times: list[float], done: int) -> float:
    return times[TOTAL] - times[done]


@pytest.mark.parametrize("change, before, after", [(400, 0.1, 0.3), (300, 0.3, 0.1),
                                                   (600, 0.05, 0.5)])
def test_the_estimate_takes_the_new_speed_within_a_window_of_work(change, before, after):
    """The machine's speed changes at ``change`` units: before it, the estimate is the
    work left at that speed; once a window of work (:data:`WINDOW` of the total) is done
    at the new speed, the time actually left; in between it lies between the two speeds'
    estimates, closer to the time actually left as the work goes on."""
    times = clock_of([(change, before), (TOTAL, after)])
    pace = TimeLeft(times[0])
    settled = change + int(WINDOW * TOTAL)
    last_gap = None
    for done in range(1, TOTAL):
        pace.report(times[done], done, TOTAL)
        left = pace.seconds_left(times[done])
        if done * 20 < TOTAL or times[done] - times[0] < 3.0:
            assert left is None, done
            continue
        assert left is not None, done
        actual = true_left(times, done)
        if done <= change:
            assert left == pytest.approx(max((TOTAL - done) * before, 1.0), rel=1e-9), done
        elif done >= settled:
            assert left == pytest.approx(max(actual, 1.0), rel=1e-9), done
        else:
            at_old, at_new = (TOTAL - done) * before, (TOTAL - done) * after
            low, high = max(min(at_old, at_new), 1.0), max(at_old, at_new, 1.0)
            assert low - 1e-9 <= left <= high + 1e-9, done  # (at least 1 s)
            if left > 1.0:
                gap = abs(left - actual) / actual
                assert last_gap is None or gap <= last_gap + 1e-12, done  # converging
                last_gap = gap


def test_a_report_late_in_coming_slows_the_rate():
    """No report for a while: the time since the last one counts as work under way, so
    the estimate grows as the wait does."""
    pace = TimeLeft(0.0)
    for done in range(1, 501):
        pace.report(done * 0.1, done, TOTAL)
    assert pace.seconds_left(50.0) == pytest.approx(50.0)  # 0.1 s a unit: 500 units
    # 20 s without a report: the window's units (from `first` on) took 20 s more
    first = 500 - int(WINDOW * TOTAL)
    assert pace.seconds_left(70.0) == pytest.approx(500 * (70.0 - first * 0.1) / (500 - first))


def test_play_and_the_server_say_the_new_speeds_time_left(monkeypatch):
    """A terminal game's background solve (:class:`advisor.background.Solve`, as its
    prompt says it) and a server job's status (``seconds_left``) give the estimate of the
    new speed once a window of work is done at it: 0.1 s a unit to 400 units, then 0.4
    s (a busier machine); at 800 units, 200 units are left at 0.4 s: 80 s (the rate
    since the start said 200 x 200 / 800 = 50 s)."""
    times = clock_of([(400, 0.1), (TOTAL, 0.4)])
    now = [times[0]]
    monkeypatch.setattr(time, "monotonic", lambda: now[0])
    solve = Solve("turn", total=TOTAL, started=times[0], id="j1", kind="turn")
    shown = {}
    for done in range(0, 801):
        solve.done, now[0] = done, times[done]
        shown[done] = solve.seconds_left()
        status = solve.status()
        assert status.get("seconds_left") == (None if shown[done] is None
                                              else round(shown[done], 1))
    assert 400 + WINDOW * TOTAL <= 800
    assert shown[800] == pytest.approx(80.0)
    assert shown[10] is None and shown[50] is not None  # from a twentieth of the work on


def test_a_commands_bar_says_the_new_speeds_time_left(capsys):
    """The bar of a review or a solve (``[elapsed<left]``) says the time left at the new
    speed once a window of work is done at it (same clock as above: 1:20 at 800)."""
    times = clock_of([(400, 0.1), (TOTAL, 0.4)])
    now = [times[0]]
    update, _, close = work_bar("review", clock=lambda: now[0])
    for done in (0, 10, 100, 400, 650, 800):
        now[0] = times[done]
        update(done, TOTAL)
    close()
    err = capsys.readouterr().err
    frames = re.findall(r"review:\s+(\d+)%\|[^|]*\| \[[0-9:]+<([0-9:?]+)\]", err)
    assert [f for f in frames if f[0] == "80"][-1] == ("80", "01:20")
    assert [f for f in frames if f[0] == "0"][-1] == ("0", "?")  # not estimated yet
