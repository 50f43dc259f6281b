"""The time left of a long work against a scripted clock whose speed changes mid-solve:
the estimate follows the new speed within a window of work (issue 45 item 2), through
each front end that shows it (the terminal game's solve, the server's job status, the
commands' bars). With the work's CPU seconds reported: a phase on one thread then one on
two, or other programs taking the machine mid-solve, are followed within
:data:`SHARE_SECONDS`; a change of the CPU seconds per unit of work within a window of
work."""

from __future__ import annotations

import re
import time

import pytest

from advisor.background import Solve
from advisor.cli._progress import work_bar
from advisor.time_left import SHARE_SECONDS, WINDOW, TimeLeft
from advisor.workers import Reporter

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
    speed once a window of work is done at it (same clock as above: 1:20 at 800; the work
    takes 0.1 CPU s a unit throughout, its share of the machine falls from 1 to 0.25)."""
    times = clock_of([(400, 0.1), (TOTAL, 0.4)])
    now, units = [times[0]], [0]
    update, _, close = work_bar("review", clock=lambda: now[0], cpu=lambda: 0.1 * units[0])
    for done in (0, 10, 100, 400, 650, 800):
        now[0], units[0] = times[done], done
        update(done, TOTAL)
    close()
    err = capsys.readouterr().err
    frames = re.findall(r"review:\s+(\d+)%\|[^|]*\| \[[0-9:]+<([0-9:?]+)\]", err)
    assert [f for f in frames if f[0] == "80"][-1] == ("80", "01:20")
    assert [f for f in frames if f[0] == "0"][-1] == ("0", "?")  # not estimated yet


# ------------------------------------------------------------- with the work's CPU seconds
def phased_clock(phases: list[tuple[int, float, float]]) -> tuple[list[float], list[float]]:
    """The wall time and the work's CPU seconds at which each unit of work 0..TOTAL is
    reached: ``phases`` lists (units up to which, CPU seconds per unit, CPU seconds per
    wall second: the threads it keeps busy, or its share of a busy machine), in order;
    the work starts at 50 s, CPU 0."""
    times, cpus, now, cpu, unit = [50.0], [0.0], 50.0, 0.0, 0
    for upto, cpu_per_unit, share in phases:
        while unit < upto:
            now += cpu_per_unit / share
            cpu += cpu_per_unit
            unit += 1
            times.append(now)
            cpus.append(cpu)
    assert unit == TOTAL
    return times, cpus


def walk(times: list[float], cpus: list[float]) -> list[tuple[int, float, float]]:
    """(done, estimate, actual) at each unit whose estimate is shown, every unit reported
    with its CPU seconds."""
    pace = TimeLeft(times[0])
    out = []
    for done in range(1, TOTAL):
        pace.report(times[done], done, TOTAL, cpus[done])
        left = pace.seconds_left(times[done])
        if done * 20 < TOTAL or times[done] - times[0] < 3.0:
            assert left is None, done
            continue
        assert left is not None, done
        out.append((done, left, true_left(times, done)))
    return out


@pytest.mark.parametrize("phases", [
    [(300, 0.25, 1.0), (TOTAL, 0.25, 2.0)],  # the opponents' pass on one thread, the DP on two
    [(300, 0.25, 2.0), (TOTAL, 0.25, 1.0)],  # the other way round
    [(250, 0.1, 1.9), (TOTAL, 0.1, 0.6)],  # other programs take the machine mid-solve
    [(400, 0.4, 0.5), (TOTAL, 0.4, 2.0)],  # ... and leave it
])
def test_a_change_of_threads_or_load_is_followed_within_the_share_seconds(phases):
    """The CPU seconds per unit of work are the same throughout; the wall seconds per unit
    change at ``phases[0][0]`` units (the threads the phase keeps busy, or the share of
    the machine it gets). Before the change, the estimate is the work left at the first
    speed; from :data:`SHARE_SECONDS` after it on, the time actually left; in between,
    between the two speeds' estimates. (The wall rate of a window of work, without the
    CPU seconds, kept the old speed for 40 % of the work more.)"""
    (change, cpu_per_unit, before), (_, _, after) = phases
    times, cpus = phased_clock(phases)
    settled = [x for x in walk(times, cpus) if times[x[0]] - SHARE_SECONDS >= times[change]]
    assert len(settled) >= 300 and settled[0][0] <= change + int(WINDOW * TOTAL) - 100
    for done, left, actual in walk(times, cpus):
        if done <= change:
            assert left == pytest.approx(max((TOTAL - done) * cpu_per_unit / before, 1.0),
                                         rel=1e-9), done
        elif times[done] - SHARE_SECONDS >= times[change]:
            assert left == pytest.approx(max(actual, 1.0), rel=1e-9), done
        else:
            at_old, at_new = ((TOTAL - done) * cpu_per_unit / s for s in (before, after))
            assert min(at_old, at_new) * (1 - 1e-9) <= left <= max(at_old, at_new) * (1 + 1e-9)


@pytest.mark.parametrize("change, before, after", [(400, 0.1, 0.3), (300, 0.3, 0.1)])
def test_a_change_of_cpu_per_unit_is_followed_within_a_window_of_work(change, before, after):
    """The work's counts are off by a factor in a later phase (CPU seconds per unit from
    ``before`` to ``after``), on two threads throughout: the estimate is the work left at
    the CPU rate of the last :data:`WINDOW` of the work over the two threads, so it is the
    time actually left once a window of work is done at the new rate."""
    times, cpus = phased_clock([(change, before, 2.0), (TOTAL, after, 2.0)])
    checked = 0
    for done, left, actual in walk(times, cpus):
        if done <= change:
            assert left == pytest.approx(max((TOTAL - done) * before / 2, 1.0), rel=1e-9)
        elif done >= change + int(WINDOW * TOTAL):
            assert left == pytest.approx(max(actual, 1.0), rel=1e-9), done
            checked += 1
        else:
            at_old, at_new = (TOTAL - done) * before / 2, (TOTAL - done) * after / 2
            assert min(at_old, at_new) * (1 - 1e-9) <= left <= max(at_old, at_new) * (1 + 1e-9)
    assert checked == TOTAL - 1 - change - int(WINDOW * TOTAL) + 1


def test_a_report_late_in_coming_counts_as_wall_time_without_cpu():
    """0.25 CPU s a unit on two threads (0.125 s a unit), 500 units done at 62.5 s: 62.5 s
    left. 20 s without a report: the share of the last :data:`SHARE_SECONDS` before the
    last report falls to the CPU of that window over its wall time and the 20 s, and the
    estimate grows with the wait."""
    pace = TimeLeft(0.0)
    for done in range(1, 501):
        pace.report(done * 0.125, done, TOTAL, done * 0.25)
    assert pace.seconds_left(62.5) == pytest.approx(62.5)
    began = 62.5 - SHARE_SECONDS  # the share's window: from the report then (a unit's)
    assert began > 0 and (began / 0.125).is_integer()
    share = (125.0 - began * 2) / (82.5 - began)
    assert pace.seconds_left(82.5) == pytest.approx(500 * 0.25 / share)
    assert pace.seconds_left(82.5) > pace.seconds_left(72.5) > 62.5


def test_play_and_the_server_take_the_workers_cpu_seconds(monkeypatch):
    """A terminal game's background solve and a server job's status with the worker's CPU
    seconds (:class:`advisor.workers.Work`'s ``cpu``, from each progress message): the
    opponents' pass on one thread to 300 units (0.25 CPU s a unit: 75 s), the DP on two
    (0.125 s a unit); at 600 units (37.5 s into the DP, more than :data:`SHARE_SECONDS`)
    the estimate is the time actually left, 400 units at 0.125 s: 50 s (the wall rate of
    the last 400 units said 400 x (162.5 - 100) / 400 = 62.5 s)."""
    times, cpus = phased_clock([(300, 0.25, 1.0), (TOTAL, 0.25, 2.0)])
    now = [times[0]]
    monkeypatch.setattr(time, "monotonic", lambda: now[0])
    solve = Solve("turn", total=TOTAL, started=times[0], id="j1", kind="turn")
    for done in range(0, 601):
        solve.done, solve.cpu, now[0] = done, cpus[done], times[done]
        solve.observe()
    assert (times[300], times[600]) == (125.0, 162.5)
    assert solve.seconds_left() == pytest.approx(50.0)
    assert solve.status()["seconds_left"] == 50.0


def test_a_workers_progress_says_the_cpu_seconds_since_its_work_began(monkeypatch):
    """The worker's reporter sends ``(done, total)`` with the CPU seconds since the work
    began (not since the worker started: it runs one work after another), once per
    change."""
    sent: list[tuple] = []

    class Pipe:
        def send(self, message: tuple) -> None:
            sent.append(message)

    cpu = [12.5]  # the worker's CPU clock: earlier works and its start-up
    monkeypatch.setattr(time, "process_time", lambda: cpu[0])
    report = Reporter(Pipe(), 7)
    for done, spent in ((0, 0.0), (1, 0.25), (1, 0.5), (2, 1.5)):
        cpu[0] = 12.5 + spent
        report(done, 2)
    assert sent == [("progress", 7, 0, 2, 0.0), ("progress", 7, 1, 2, 0.25),
                    ("progress", 7, 2, 2, 1.5)]


def test_a_commands_bar_follows_a_change_of_threads_within_the_share_seconds(capsys):
    """The bar of a review or a solve done in this process, on the process's CPU clock
    (3 CPU s spent before the bar): the opponents' pass on one thread to 300 units (0.25
    CPU s a unit), then the DP on two: at 600 units, 400 units at 0.125 s are left, 0:50
    (the wall rate of the last 400 units said 400 x 62.5 / 400 s: 1:02); early on, the
    CPU seconds before the bar are not the work's."""
    times, cpus = phased_clock([(300, 0.25, 1.0), (TOTAL, 0.25, 2.0)])
    at = [0]
    update, _, close = work_bar("review", clock=lambda: times[at[0]],
                                cpu=lambda: 3.0 + cpus[at[0]])
    for done in range(0, 601, 10):
        at[0] = done
        update(done, TOTAL)
    close()
    err = capsys.readouterr().err
    frames = re.findall(r"review:\s+(\d+)%\|[^|]*\| \[[0-9:]+<([0-9:?]+)\]", err)
    assert [f for f in frames if f[0] == "60"][-1] == ("60", "00:50")
    # at 200 units (50 s in, the CPU window from the start): 800 units at 0.25 s, 3:20
    assert [f for f in frames if f[0] == "20"][-1] == ("20", "03:20")


def test_a_bar_following_a_work_in_a_worker_says_that_works_own_estimate(capsys):
    """The bar at the end of a game that waits for a turn's solve in the worker (its
    progress comes from there, this process does not do the work): it says the solve's
    own time left (``left``), not one from this process's clocks."""
    update, _, close = work_bar("the chance to win", clock=lambda: 100.0, cpu=lambda: 5.0,
                                left=lambda: 42.0)
    update(500, TOTAL)
    close()
    frames = re.findall(r"the chance to win:\s+(\d+)%\|[^|]*\| \[[0-9:]+<([0-9:?]+)\]",
                        capsys.readouterr().err)
    assert frames[-1] == ("50", "00:42")
