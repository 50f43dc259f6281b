"""Where the wall clock of one turn's win solve goes, phase by phase and level by level.

Issue 45 item 2: the time-left estimate (:class:`advisor.time_left.TimeLeft`) reads the
solve's work counts (``solver.stats.stats_work``, ``solver.target.task_operations``) as
a clock. This script solves the turns of the two-player game of ``bench_estimates.py``
as the game does (``solve_turn``, each turn's win objective) and, for the turns asked
(``--turn "Bob 1"``, by default every turn up to ``--turns``), prints each level of each
phase (the opponents' distribution, ``optimal_stats``; the DP, ``solve_vectors``): its
work (share of the solve's), its wall and CPU seconds inside the kernels and around them
(the Python between the kernel calls of a level: planning, stores, slots), the threads
it kept busy (CPU / wall) and its wall and CPU seconds per unit of work against the
solve's average. Before the levels: the seconds from the call to the first report
(planning, not counted as work).

    python benchmarks/bench_phases.py [--turns N] [--turn "Bob 1"] [--threads N]

Measured (issue 45 item 2), Bob's turn 1 (the first solved: Ann's is read from its
file): on two free cores both phases keep both threads busy (their blocks' CPU seconds,
handed to two threads in order: 1.99 threads for the opponents' pass, 2.00 for the DP),
and their CPU seconds per unit of work are within 13 % of each other (1.12 and 0.99 of
the solve's average); the wall seconds per unit went from 0.4 to 1.2 of the average
when another session's programs took 1.4 of the 2 cores mid-DP (the solve from 1.8-1.9
busy threads to 0.6). The wall rate changes with the load, not with the phases.
"""

from __future__ import annotations

import argparse
import os
import time
from collections.abc import Callable
from dataclasses import dataclass, field

from _fresh import load_average
from bench_analyze import two_player_record

TICK = os.sysconf("SC_CLK_TCK")


def machine_busy() -> float:
    """CPU seconds the machine has been busy (every core, every process) since boot:
    /proc/stat's first line less idle and iowait."""
    with open("/proc/stat") as stat:
        fields = [int(x) for x in stat.readline().split()[1:9]]
    return (sum(fields) - fields[3] - fields[4]) / TICK


@dataclass
class Level:
    """One level of one phase: its work and its clocks."""

    phase: str
    n: int
    work: float = 0.0
    wall: float = 0.0
    cpu: float = 0.0
    kernel_wall: float = 0.0
    kernel_cpu: float = 0.0
    ideal: float = 0.0
    """The wall seconds of its kernels on two free cores: each call's blocks (their own
    threads' CPU seconds) handed to two threads in order, as the thread pool does."""
    blocks: int = 0
    calls: int = 0
    machine: float = 0.0
    """CPU seconds of the whole machine (every process) during the level."""


@dataclass
class Probe:
    """What the wrapped solver functions record during one solve."""

    levels: list[Level] = field(default_factory=list)
    phase: str = ""
    first_report: float | None = None
    began: float = 0.0

    def step(self, inner: Callable[[int], None]) -> Callable[[int], None]:
        def timed(n: int) -> None:
            level = Level(self.phase, n)
            self.levels.append(level)
            w, c, b = time.perf_counter(), time.process_time(), machine_busy()
            inner(n)
            level.wall += time.perf_counter() - w
            level.cpu += time.process_time() - c
            level.machine += machine_busy() - b
        return timed

    def kernel(self, inner: Callable[..., None]) -> Callable[..., None]:
        def timed(*args: object) -> None:
            w, c = time.perf_counter(), time.process_time()
            inner(*args)
            if self.levels:
                self.levels[-1].kernel_wall += time.perf_counter() - w
                self.levels[-1].kernel_cpu += time.process_time() - c
        return timed


def makespan(seconds: list[float], threads: int) -> float:
    """The wall time of blocks taking ``seconds`` each, taken in order by the first free
    of ``threads`` threads."""
    free = [0.0] * threads
    for s in seconds:
        i = free.index(min(free))
        free[i] += s
    return max(free)


def install(probe: Probe) -> None:
    """Wrap the level loops, the kernels and the work counters of both phases."""
    import solver.levels as levels
    import solver.stats as stats
    import solver.target as target
    from solver.kernels import stats as sk
    from solver.kernels import target as tk

    def backward(phase: str, inner: Callable[..., None]) -> Callable[..., None]:
        def wrapped(rules, first, step, progress=None):  # noqa: ANN001, ANN202
            probe.phase = phase
            return inner(rules, first, probe.step(step), progress)
        return wrapped

    stats.solve_backward = backward("opponents", levels.solve_backward)
    target.solve_backward = backward("dp", levels.solve_backward)
    import numba

    from solver.kernels import threads

    def blocks(kernel, n, n_blocks, *args):  # noqa: ANN001, ANN202
        took: dict[int, float] = {}

        def timed(begin, end, *a):  # noqa: ANN001, ANN202
            t = time.thread_time()
            kernel(begin, end, *a)
            took[begin] = time.thread_time() - t
        threads.run_blocks(timed, n, n_blocks, *args)
        seconds = [took[b] for b in sorted(took)]
        if probe.levels:
            level = probe.levels[-1]
            level.ideal += makespan(seconds, max(2, numba.get_num_threads()))
            level.blocks += len(seconds)
            level.calls += 1
    sk.run_blocks = blocks
    tk.run_blocks = blocks
    sk.stats_level = probe.kernel(sk.stats_level)
    tk.vector_level = probe.kernel(tk.vector_level)
    add = levels.Work.add

    def counted(self, ops: float) -> None:  # noqa: ANN001
        if probe.levels:
            probe.levels[-1].work += ops
        add(self, ops)
    levels.Work.add = counted


def show(name: str, probe: Probe, end: float, end_cpu: float) -> None:
    """Print one solve's levels."""
    work = sum(level.work for level in probe.levels) or 1.0
    wall_rate = sum(level.wall for level in probe.levels) / work
    ideal_rate = sum(level.ideal for level in probe.levels) / work
    cpu_rate = sum(level.cpu for level in probe.levels) / work
    before = probe.first_report if probe.first_report is not None else end
    print(f"{name}: {end:.1f} s wall, {end_cpu:.1f} s CPU; {before:.2f} s before the first "
          f"report (planning, no work counted); levels {sum(x.wall for x in probe.levels):.1f} s")
    print(f"  {'phase':9} {'n':>2} {'work %':>6} {'wall':>6} {'cpu':>6} {'kernel':>6} "
          f"{'around':>6} {'threads':>7} {'wall/work':>9} {'cpu/work':>8} {'2 cores':>7} "
          f"{'/work':>6} {'blocks':>6} {'calls':>5} {'others':>6}")
    for level in probe.levels:
        share = level.work / work
        print(f"  {level.phase:9} {level.n:2d} {100 * share:6.1f} {level.wall:6.2f} "
              f"{level.cpu:6.2f} {level.kernel_wall:6.2f} {level.wall - level.kernel_wall:6.2f} "
              f"{level.cpu / max(level.wall, 1e-9):7.2f} "
              f"{level.wall / max(level.work, 1.0) / wall_rate if level.work else 0:9.2f} "
              f"{level.cpu / max(level.work, 1.0) / cpu_rate if level.work else 0:8.2f} "
              f"{level.ideal:7.2f} "
              f"{level.ideal / max(level.work, 1.0) / ideal_rate if level.work else 0:6.2f} "
              f"{level.blocks:6d} {level.calls:5d} "
              f"{(level.machine - level.cpu) / max(level.wall, 1e-9):6.2f}")
    for phase in ("opponents", "dp"):
        rows = [x for x in probe.levels if x.phase == phase]
        if rows:
            w, c, k, i = (sum(getattr(x, a) for x in rows)
                          for a in ("wall", "cpu", "work", "ideal"))
            print(f"  {phase}: {100 * k / work:.1f} % of the work, {w:.2f} s wall, {c:.2f} s "
                  f"CPU, {c / max(w, 1e-9):.2f} threads, per unit of work {w / k / wall_rate:.2f}"
                  f" wall and {c / k / cpu_rate:.2f} CPU of the solve's average; on two free "
                  f"cores {i:.2f} s ({c / max(i, 1e-9):.2f} threads), {i / k / ideal_rate:.2f}"
                  f" of the average per unit of work")


def main() -> int:
    import numba

    from advisor.caches import Caches
    from advisor.model import Scorecard
    from advisor.objective import Objective
    from solver.solved_turn import solve_turn
    from solver.table import open_table
    from solver.warmup import warm_up

    parser = argparse.ArgumentParser()
    parser.add_argument("--turns", type=int, default=2,
                        help="the game's first N turns (2: to Bob's first, the first solved)")
    parser.add_argument("--turn", action="append", default=[],
                        help='print only these turns ("Bob 1"); all turns solved before them')
    parser.add_argument("--threads", type=int, help="numba's thread count")
    args = parser.parse_args()
    if args.threads:
        numba.set_num_threads(args.threads)
    table = open_table("official", build=True)
    memory = Caches()  # the process's caches: what one question solves, the next reads
    warm_up("official", everything=True)
    record = two_player_record(table)
    print(f"numba threads {numba.get_num_threads()}; load average before: {load_average()}",
          flush=True)
    cards = {name: Scorecard.new(table.rules.name) for name in record.players}
    probe = Probe()
    install(probe)
    for turn in record.turns[:args.turns]:
        card = cards[turn.player]
        name = f"{turn.player} {card.turn}"
        others = [c for n, c in cards.items() if n != turn.player]
        objective = Objective.win_against(others, table.rules.name)
        probe.levels.clear()
        probe.first_report = None
        began, began_cpu = time.perf_counter(), time.process_time()

        def first(done: int, total: int, began: float = began) -> None:
            if probe.first_report is None:
                probe.first_report = time.perf_counter() - began
        solve_turn(card, table, objective.goal, memory, whole_game=False, progress=first)
        end, end_cpu = time.perf_counter() - began, time.process_time() - began_cpu
        cards[turn.player] = card.place(turn.rolls[-1], turn.box)
        if probe.levels and (not args.turn or name in args.turn):
            show(f"{turn.player} turn {card.turn}", probe, end, end_cpu)
            print(f"  load average: {load_average()}", flush=True)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
