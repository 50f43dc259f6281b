"""How good the time-left estimates of a game's win solves are.

Issue 45: the progress of a turn's solve (``play --objective win``, ``analyze``, the page)
was counted in levels of very different sizes, and its time left was 2 to 3 times off.
Now it counts work (the operations of the kernels: ``solver.target.task_operations``,
``solver.stats.stats_work``) in even pieces. This script solves every turn of a 13-turn
two-player game played to win, as the game does (``solve_turn``, each turn's own win
objective, the opponents' distributions as each turn needs them), records ``(elapsed,
done, total)`` and the CPU seconds at each report, and replays on them, in the same run
(the same solves, the same load): the estimate the front ends show
(:class:`advisor.time_left.TimeLeft`: the work left at the CPU seconds per unit of the
last 40 % of the work, over the CPU seconds per wall second of the last 10 s; shown from
a twentieth of the work and 3 s on), the old one (``--old DIR``: another checkout's
``advisor/time_left.py``; by default the wall rate of the last 40 % of the work, as
before issue 45's last change) and the rate since the start. Printed per solve: its
time, its number of steps and largest step, the worst error of each estimate against
the time actually left from 10 % of the work on; then the worst over the game (goal:
within 30 %, at least 20 even steps), and the same for other windows. Beside the wall
clock's error, the same estimate on the process's CPU clock: the error the work counts
make by themselves, whatever the other programs on the machine do.

    python benchmarks/bench_estimates.py [--turns N] [--cold] [--save FILE] [--old DIR]
    python benchmarks/bench_estimates.py --replay FILE [--old DIR]

Measured (issue 45 item 2; the worst over the game's 25 solves from 10 % of the work on,
on the wall clock; the same reports replayed for each estimate): at loads 4 to 8, 65 %
for the old wall window, 48 % now (46 % for the rate since the start); two busy loops
beside and loads 6 to 12: 44 % old, 42 % now; loads 6 to 9: 49 % old, 50 % now; two
busy loops beside and loads 3 to 7: 42 % for all three, every solve but one within 30 %
(the one: Ann's turn 2, whose opponents' pass got 1.0 to 1.2 cores and its DP 0.65, so
the first estimates were 42 % short). On the CPU clock 15 to 19 % in every run: the
work counts are even; the rest is the machine's load changing within seconds.

Measured again after the opponents' pass was cut into its share of the solve's pieces
(:class:`solver.levels.PhaseProgress`; 2026-12-06, the worst over the game's 25 solves
from 10 % of the work on): quiet (the bench alone, load 2 to 3.5 falling), 17 % on the
wall clock, 18 % on the CPU clock; beside two busy loops (load 3.8 to 4.2), 18 % and
18 %, where the same estimate on the code before gave 49 % (19 % on the CPU clock; the
first six turns of both in one run beside the busy loops: 63 % before, 17 % after). The
wall clock's error is now the work counts' own. A load that changes within a solve is not
foreseen: two busy loops on for 20 s and off for 20 s through the first 12 turns gave
66 % (47 %, 43 % and 66 % in the three longest solves, 18 % on the CPU clock; 61 to 66 %
for every window scanned).

``--cold`` deletes the first turn's file (``solver.first_turn``), so the game's first
turn is solved and measured too.
"""

from __future__ import annotations

import argparse
import importlib.util
import inspect
import json
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

from _fresh import load_average
from bench_analyze import two_player_record

SHOWN_FROM = 3.0
"""Seconds before an estimate is shown (as ``Solve.seconds_left``)."""

Reports = list[tuple[float, int, int]]
"""``(clock, done, total)`` at each report of a solve."""


def worst_error(reports: Reports, end: float, make: Callable[[], Any],
                cpu: Reports | None = None) -> float | None:
    """The largest |estimate - actual| / actual from 10 % of the work on, where an
    estimate is shown; None when none is. ``make()``: a new estimate (``report(now,
    done, total[, cpu])``, ``seconds_left(now)``), fed each report as it comes, with the
    CPU seconds of the same report when ``cpu`` is given; ``end``: the clock at the end
    of the solve."""
    pace = make()
    worst = None
    for k, (elapsed, done, total) in enumerate(reports):
        if cpu is None:
            pace.report(elapsed, done, total)
        else:
            pace.report(elapsed, done, total, cpu[k][0])
        if done * 10 < total or elapsed < SHOWN_FROM or done >= total:
            continue
        estimate = pace.seconds_left(elapsed)
        assert estimate is not None
        actual = end - elapsed
        if actual < 1.0:  # (the last second: "about 1 s")
            continue
        error = abs(estimate - actual) / actual
        worst = error if worst is None else max(worst, error)
    return worst


def old_time_left(folder: str | None) -> Any:
    """``TimeLeft`` of another checkout (``folder``: its advisor/time_left.py), else this
    one's."""
    if folder is None:
        from advisor.time_left import TimeLeft
        return TimeLeft
    spec = importlib.util.spec_from_file_location(
        "old_time_left", Path(folder) / "advisor" / "time_left.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module.TimeLeft


def takes_cpu(kind: Any) -> bool:
    """Whether an estimate's ``report`` takes the CPU seconds."""
    return "cpu" in inspect.signature(kind.report).parameters


def errors(solve: dict, make: Callable[[], Any], with_cpu: bool
           ) -> tuple[float | None, float | None]:
    """One solve's worst errors on the wall clock and on the CPU clock (there the
    estimate is fed the CPU seconds as its clock: the error of the work counts alone)."""
    wall = worst_error(solve["wall"], solve["end"], make, solve["cpu"] if with_cpu else None)
    cpu = worst_error(solve["cpu"], solve["end_cpu"], make, solve["cpu"] if with_cpu else None)
    return wall, cpu


def _recorder(reports: Reports, cpu: Reports, began: float, began_cpu: float):  # noqa: ANN202
    def record(done: int, total: int) -> None:
        reports.append((time.perf_counter() - began, done, total))
        cpu.append((time.process_time() - began_cpu, done, total))
    return record


SCANNED = (0.1, 0.25, 0.4, 0.6, 1.0)
"""Windows whose worst errors are printed beside (the share of the work whose rate is taken)."""
SCANNED_SECONDS = (3.0, 5.0, 10.0, 20.0, 40.0)
"""Share windows (wall seconds over which the CPU per second is taken) printed beside."""


def solve_game(turns: int, cold: bool) -> list[dict]:
    """Solve the game's first ``turns`` turns, printing each; every solve's reports."""
    from advisor.caches import Caches
    from advisor.model import Scorecard
    from advisor.objective import Objective
    from solver.first_turn import first_turn_path
    from solver.solved_turn import solve_turn
    from solver.table import open_table
    from solver.warmup import warm_up

    table = open_table("official", build=True)
    memory = Caches()  # the process's caches: what one question solves, the next reads
    warm_up("official", everything=True)
    record = two_player_record(table)
    if cold:
        first_turn_path(table.rules, len(record.players)).unlink(missing_ok=True)
    print(f"load average before: {load_average()}", flush=True)
    cards = {name: Scorecard.new(table.rules.name) for name in record.players}
    solves: list[dict] = []
    for turn in record.turns[:turns]:
        card = cards[turn.player]
        others = [c for name, c in cards.items() if name != turn.player]
        objective = Objective.win_against(others, table.rules.name)
        reports: Reports = []
        on_cpu: Reports = []
        began, began_cpu = time.perf_counter(), time.process_time()
        solved = solve_turn(card, table, objective.goal, memory, whole_game=False,
                            progress=_recorder(reports, on_cpu, began, began_cpu))
        end, end_cpu = time.perf_counter() - began, time.process_time() - began_cpu
        cards[turn.player] = card.place(turn.rolls[-1], turn.box)
        name = f"{turn.player} turn {card.turn}"
        if not reports:
            print(f"{name}: {end:.1f} s, read (no solve)", flush=True)
            continue
        solves.append({"name": name, "wall": reports, "end": end, "cpu": on_cpu,
                       "end_cpu": end_cpu, "load": load_average(),
                       "open": len(card.open_boxes()), "value": solved.value})
        print(f"{name}: {end:.1f} s ({end_cpu:.1f} s CPU), load {load_average()}", flush=True)
    print(f"load average after: {load_average()}", flush=True)
    return solves


def main() -> int:
    from advisor.time_left import SHARE_SECONDS, WINDOW, TimeLeft

    parser = argparse.ArgumentParser()
    parser.add_argument("--turns", type=int, default=26, help="the game's first N turns")
    parser.add_argument("--cold", action="store_true",
                        help="delete the first turn's file first: the first turn is solved too")
    parser.add_argument("--save", help="write every solve's reports to this JSON file")
    parser.add_argument("--replay", help="read the solves' reports from this JSON file "
                        "(--save's) instead of solving")
    parser.add_argument("--old", metavar="DIR",
                        help="another checkout whose estimate (advisor/time_left.py) is "
                        "printed as 'old' (default: this one's, on the wall clock alone)")
    args = parser.parse_args()
    if args.replay:
        solves = json.loads(Path(args.replay).read_text())
    else:
        solves = solve_game(args.turns, args.cold)
    if args.save:
        Path(args.save).write_text(json.dumps(solves))
    old = old_time_left(args.old)
    old_cpu = args.old is not None and takes_cpu(old)
    estimates: list[tuple[str, Callable[[], Any], bool]] = [
        ("before: the rate since the start", lambda: TimeLeft(0.0, 1.0), False),
        ("old: " + (args.old if args.old else f"the wall rate of the last {WINDOW:.0%}"),
         lambda: old(0.0), old_cpu),
        (f"now: the CPU rate of the last {WINDOW:.0%} over the CPU share of the last "
         f"{SHARE_SECONDS:.0f} s", lambda: TimeLeft(0.0), True)]
    fewest, largest = None, 0
    for solve in solves:
        reports = solve["wall"]
        dones = [0] + [d * 1000 // t for _, d, t in reports]
        step = max(b - a for a, b in zip(dones, dones[1:], strict=False))
        if solve["end"] >= SHOWN_FROM:
            fewest = len(reports) if fewest is None else min(fewest, len(reports))
            largest = max(largest, step)
        said = []
        for label, make, with_cpu in estimates:
            wall, cpu = errors(solve, make, with_cpu)
            said.append(f"{label.split(':')[0]} " + ("-" if wall is None else
                                                     f"{100 * wall:.0f} %")
                        + ("" if cpu is None else f" ({100 * cpu:.0f} % CPU)"))
        print(f"{solve['name']} ({solve.get('open', '?')} open): {solve['end']:.1f} s "
              f"({solve['end_cpu']:.1f} s CPU), {len(reports)} steps, the largest "
              f"{step / 10:.1f} %, load {solve.get('load', '?')}; worst estimate "
              f"{'; '.join(said)}", flush=True)
    scans = [*((f"(a CPU window of {w:.0%})", lambda w=w: TimeLeft(0.0, w), True)
               for w in SCANNED),
             *((f"(a share window of {s:.0f} s)", lambda s=s: TimeLeft(0.0, WINDOW, s), True)
               for s in SCANNED_SECONDS)]
    for label, make, with_cpu in [*estimates, *scans]:
        worst = [errors(solve, make, with_cpu) for solve in solves]
        wall = max((w or 0.0) for w, _ in worst)
        cpu = max((c or 0.0) for _, c in worst)
        print(f"over the game's {len(solves)} solves, from 10 % of the work on, {label}: "
              f"worst estimate {100 * wall:.0f} % off the time actually left (goal <= 30 %), "
              f"{100 * cpu:.0f} % on the CPU clock")
    print(f"solves over {SHOWN_FROM:.0f} s: at least {fewest} steps, none over "
          f"{largest / 10:.1f} % of the work")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
