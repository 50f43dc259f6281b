"""The time a long work still takes, from the work it has reported so far.

A solve reports its share done in even pieces of work (``(done, total)``, known before it
starts). The time left is the work left at the rate of the most recent work: the last
:data:`WINDOW` of the total (all of it before that much is done), over the time from
then to now. On a machine whose speed changes (other programs start or stop), the
estimate follows the new speed once a window of work has been done at it, where a rate
since the start keeps the old speed's share for the rest of the solve; while no
report comes, the time since the last one slows the rate (a piece under way counts).
Shown, as every front end shows it (the terminal game, the commands' bars, the page),
from a twentieth of the work and 3 seconds on.
"""

from __future__ import annotations

from bisect import bisect_right

WINDOW = 0.4
"""The share of the total work whose rate gives the time left. Measured on the 25 solves
of a game at a load of 13 to 19 on 2 cores (``benchmarks/bench_estimates.py``: the worst
error from 10 % of the work on, on the wall clock): 119 % for the rate since the start,
253 %, 205 %, 166 % and 120 % for windows of 10, 15, 25 and 40 %, so the window is as
wide as adapting allows without losing to the rate since the start."""
SHOWN_FROM_SHARE = 20
"""An estimate is shown from ``1 / SHOWN_FROM_SHARE`` of the work done on."""
SHOWN_FROM_SECONDS = 3.0
"""... and from this many seconds on."""


class TimeLeft:
    """The time left of one work started at ``started`` (seconds, any clock):
    :meth:`report` each ``(now, done, total)``, ask :meth:`seconds_left` at ``now``."""

    def __init__(self, started: float, window: float = WINDOW) -> None:
        self.started = started
        self.window = window
        self.times: list[float] = [started]
        self.dones: list[float] = [0.0]
        self.total = 0.0

    def report(self, now: float, done: float, total: float) -> None:
        """The work has reached ``done`` of ``total`` at ``now`` (a report that does
        not move the work on adds nothing)."""
        self.total = float(total)
        if done > self.dones[-1]:
            self.times.append(now)
            self.dones.append(float(done))

    def seconds_left(self, now: float) -> float | None:
        """The seconds still to go (at least 1), or None before an estimate is shown
        (under a twentieth of the work, or in the first 3 seconds)."""
        done, total = self.dones[-1], self.total
        if total <= 0 or done * SHOWN_FROM_SHARE < total \
                or now - self.started < SHOWN_FROM_SECONDS:
            return None
        # the last report at or before the window's start (the start itself at first)
        i = max(bisect_right(self.dones, done - self.window * total) - 1, 0)
        spent = now - self.times[i]
        if spent <= 0:
            return None
        return max((total - done) * spent / (done - self.dones[i]), 1.0)
