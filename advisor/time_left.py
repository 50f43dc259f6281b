"""The time a long work still takes, from the work it has reported so far.

A solve reports its share done in even pieces of work (``(done, total)``, known before it
starts), with the CPU seconds it has used (``cpu``: every thread of the process doing
it, since the work began). The time left is the work left, at the CPU seconds per unit
of work of the most recent work (the last :data:`WINDOW` of the total, all of it before
that much is done), over the CPU seconds per wall second the work gets now (over the
last :data:`SHARE_SECONDS`, 30).

Why two rates: the work counts are even in CPU terms (each phase of a solve, the
opponents' distributions and each level of the DP, keeps every thread busy, and its
counts are fitted to its CPU time), so the CPU per unit of work changes little during a
solve; the wall clock per unit of work changes as soon as other programs start or stop
on the machine (measured, ``benchmarks/bench_phases.py``: a turn's DP went from 1.9 to
0.6 busy threads when another session's programs took 1.4 cores). The share of the CPU
the work gets now follows such a change within :data:`SHARE_SECONDS`, where a wall rate
over a window of work keeps the old speed until that window is done again (40 % of the
work: minutes, in a long solve at load). A load that keeps changing within seconds is
not foreseen by either.

That the share of a phase foretells the next one's holds because each phase is cut into
pieces of about the same work (:class:`solver.levels.PhaseProgress`): the opponents'
pass at the start of a turn's solve, cut into 200 pieces of its own, kept 1.55 to 1.88
of two threads busy on a quiet machine, 0.6 to 0.8 of a core beside two busy loops
(against 0.9 to 1.0 for the DP after it), so its share made the first estimates up to
half too long (``benchmarks/bench_estimates.py``, a whole game: 35 % quiet, 49 % beside
two busy loops); cut into its share of the solve's pieces, 17 % and 18 %. Reports without ``cpu``
(a work whose CPU clock is not known): the work left at the wall rate of the window.

While no report comes, the time since the last one counts as wall time without CPU (a
piece under way): the estimate grows as the wait does. Shown, as every front end shows
it (the terminal game, the commands' bars, the page), from a twentieth of the work and 3
seconds on.
"""

from __future__ import annotations

from bisect import bisect_right

WINDOW = 0.4
"""The share of the total work whose CPU seconds per unit give the time left (the wall
seconds, for reports without CPU). Measured on the 25 solves of a game at a load of 13 to
19 on 2 cores (``benchmarks/bench_estimates.py``: the worst error from 10 % of the work
on, on the wall clock): 119 % for the rate since the start, 253 %, 205 %, 166 % and
120 % for windows of 10, 15, 25 and 40 %, so the window is as wide as adapting allows
without losing to the rate since the start."""
SHARE_SECONDS = 30.0
"""The wall seconds over which the CPU seconds the work gets per second are measured.
Measured on the solves of a game (``benchmarks/bench_estimates.py``, replayed on the same
reports; two runs at loads of 4 to 8 and 6 to 12): the worst error from 10 % of the work
on was 433 % and 55 % for 10 s (a stall of the work of a few seconds, other programs
taking the machine, read as its speed for the rest), 77 % and 50 % for 20 s, 48 % and
42 % for 30 s, 48 % and 43 % for 40 s; 65 % and 44 % for the wall rate of the window
of work alone. Two more runs (loads 6 to 9; two busy loops beside at 3 to 7): 50 % and
42 %, the wall window's 49 % and 42 %, where the CPU clock's error was 18 %: the worst
errors are in a solve's first seconds of estimates and its last, when the share changes
within seconds (other programs; under load the opponents' pass also gets more of the CPU
than the DP after it: 1.0 to 1.2 cores against 0.65 in one solve)."""
SHOWN_FROM_SHARE = 20
"""An estimate is shown from ``1 / SHOWN_FROM_SHARE`` of the work done on."""
SHOWN_FROM_SECONDS = 3.0
"""... and from this many seconds on."""


class TimeLeft:
    """The time left of one work started at ``started`` (seconds, any clock; the work's
    CPU clock at 0 then): :meth:`report` each ``(now, done, total, cpu)``, ask
    :meth:`seconds_left` at ``now``."""

    def __init__(self, started: float, window: float = WINDOW,
                 share_seconds: float = SHARE_SECONDS) -> None:
        self.started = started
        self.window = window
        self.share_seconds = share_seconds
        self.times: list[float] = [started]
        self.dones: list[float] = [0.0]
        self.cpus: list[float] = [0.0]
        self.total = 0.0
        self.cpu_known = True
        """Every report said its CPU seconds."""

    def report(self, now: float, done: float, total: float, cpu: float | None = None
               ) -> None:
        """The work has reached ``done`` of ``total`` at ``now``, having used ``cpu``
        seconds of CPU since it began (None: not known; a report that does not move the
        work on adds nothing)."""
        self.total = float(total)
        if done > self.dones[-1]:
            self.cpu_known = self.cpu_known and cpu is not None
            self.times.append(now)
            self.dones.append(float(done))
            self.cpus.append(float(cpu) if cpu is not None else 0.0)

    def seconds_left(self, now: float) -> float | None:
        """The seconds still to go (at least 1), or None before an estimate is shown
        (under a twentieth of the work, or in the first 3 seconds)."""
        done, total = self.dones[-1], self.total
        if total <= 0 or done * SHOWN_FROM_SHARE < total \
                or now - self.started < SHOWN_FROM_SECONDS:
            return None
        # the last report at or before the window's start (the start itself at first)
        i = max(bisect_right(self.dones, done - self.window * total) - 1, 0)
        # the last report at or before SHARE_SECONDS before the last one (or the start)
        j = max(bisect_right(self.times, self.times[-1] - self.share_seconds) - 1, 0)
        cpu_of_window, cpu_of_share = self.cpus[-1] - self.cpus[i], self.cpus[-1] - self.cpus[j]
        if self.cpu_known and cpu_of_window > 0 and cpu_of_share > 0:
            wall_per_unit = (cpu_of_window / (done - self.dones[i])
                             * (now - self.times[j]) / cpu_of_share)
        else:  # the wall rate of the window
            wall_per_unit = (now - self.times[i]) / (done - self.dones[i])
        if wall_per_unit <= 0:
            return None
        return max((total - done) * wall_per_unit, 1.0)
