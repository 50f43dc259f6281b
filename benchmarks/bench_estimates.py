"""How good the time-left estimates of a game's win solves are.

Issue 45: the progress of a turn's solve (``play --objective win``, ``analyze``, the page)
was counted in levels of very different sizes, and its time left was 2 to 3 times off.
Now it counts work (the operations of the kernels: ``solver.target.task_operations``,
``solver.stats.stats_work``) in even pieces. This script solves every turn of a 13-turn
two-player game played to win, as the game does (``solve_turn``, each turn's own win
objective, the opponents' distributions as each turn needs them), records ``(elapsed,
done, total)`` at each report, and replays on them the estimate the front ends show
(:class:`advisor.time_left.TimeLeft`: the work left at the rate of the last 40 % of
the work, shown from a twentieth of the work and 3 s on) beside the one they showed
before (the rate since the start), in the same run: the same solves, the same load.
Printed per solve: its time, its number of steps and largest step, the worst error of
each estimate against the time actually left from 10 % of the work on; then the worst
over the game (goal: within 30 %, at least 20 even steps), and the same for other
windows. Beside the wall clock's error, the same estimate on the process's CPU clock:
the error the work counts make by themselves, whatever the other programs on the
machine do (on a busy machine the wall's rate changes as they start and stop: the
window's rate follows such a change once its share of the work is done at the new
speed).

    python benchmarks/bench_estimates.py [--turns N] [--cold] [--save FILE]

``--cold`` deletes the first turn's file (``solver.first_turn``), so the game's first
turn is solved and measured too.
"""

from __future__ import annotations

import argparse
import json
import time
from pathlib import Path

from _fresh import load_average
from bench_analyze import two_player_record

SHOWN_FROM = 3.0
"""Seconds before an estimate is shown (as ``Solve.seconds_left``)."""


def worst_error(reports: list[tuple[float, int, int]], end: float,
                window: float | None = None) -> float | None:
    """The largest |estimate - actual| / actual from 10 % of the work on, where an
    estimate is shown; None when none is. The estimate: the front ends' (``window``
    None: :class:`advisor.time_left.TimeLeft`, the rate of its window of the recent work),
    another window's, or (``window`` 0) the rate since the start (before issue 45 item
    2), as each report comes."""
    from advisor.time_left import WINDOW, TimeLeft

    pace = TimeLeft(0.0, WINDOW if window is None else window or 1.0)
    worst = None
    for elapsed, done, total in reports:
        pace.report(elapsed, done, total)
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


def _recorder(reports: list[tuple[float, int, int]], cpu: list[tuple[float, int, int]],
              began: float, began_cpu: float):  # noqa: ANN202
    def record(done: int, total: int) -> None:
        reports.append((time.perf_counter() - began, done, total))
        cpu.append((time.process_time() - began_cpu, done, total))
    return record


SCANNED = (0.1, 0.15, 0.25, 0.4, 0.6)
"""Windows whose worst errors are printed beside (the share of the work whose rate is taken)."""


def main() -> int:
    from advisor.caches import caches
    from advisor.model import Scorecard
    from advisor.objective import Objective
    from advisor.time_left import WINDOW
    from solver.first_turn import first_turn_path
    from solver.solved_turn import solve_turn
    from solver.table import open_table
    from solver.warmup import warm_up

    parser = argparse.ArgumentParser()
    parser.add_argument("--turns", type=int, default=26, help="the game's first N turns")
    parser.add_argument("--cold", action="store_true",
                        help="delete the first turn's file first: the first turn is solved too")
    parser.add_argument("--save", help="write every solve's reports to this JSON file")
    args = parser.parse_args()
    table = open_table("official", build=True)
    warm_up("official", everything=True)
    record = two_player_record(table)
    if args.cold:
        first_turn_path(table.rules, len(record.players)).unlink(missing_ok=True)
    print(f"load average before: {load_average()}", flush=True)
    cards = {name: Scorecard.new(table.rules.name) for name in record.players}
    solves: list[dict] = []
    fewest, largest = None, 0
    for turn in record.turns[:args.turns]:
        card = cards[turn.player]
        others = [c for name, c in cards.items() if name != turn.player]
        objective = Objective.win_against(others, table.rules.name)
        reports: list[tuple[float, int, int]] = []
        on_cpu: list[tuple[float, int, int]] = []
        began, began_cpu = time.perf_counter(), time.process_time()
        solved = solve_turn(card, table, objective.goal, caches(), whole_game=False,
                            progress=_recorder(reports, on_cpu, began, began_cpu))
        end, end_cpu = time.perf_counter() - began, time.process_time() - began_cpu
        cards[turn.player] = card.place(turn.rolls[-1], turn.box)
        name = f"{turn.player} turn {card.turn}"
        if not reports:
            print(f"{name}: {end:.1f} s, read (no solve)", flush=True)
            continue
        solves.append({"name": name, "wall": reports, "end": end, "cpu": on_cpu,
                       "end_cpu": end_cpu, "load": load_average()})
        dones = [0] + [d * 1000 // t for _, d, t in reports]
        step = max(b - a for a, b in zip(dones, dones[1:], strict=False))
        if end >= SHOWN_FROM:
            fewest = len(reports) if fewest is None else min(fewest, len(reports))
            largest = max(largest, step)
        said = []
        for label, window in (("before (rate since the start)", 0.0), ("now", None)):
            wall, cpu = worst_error(reports, end, window), worst_error(on_cpu, end_cpu, window)
            said.append(f"{label}: " + ("no estimate shown" if wall is None else
                                        f"{100 * wall:.0f} % off")
                        + ("" if cpu is None else f" ({100 * cpu:.0f} % on the CPU clock)"))
        print(f"{name} ({len(card.open_boxes())} open, value {solved.value:.4f}): {end:.1f} s "
              f"({end_cpu:.1f} s CPU), {len(reports)} steps, the largest {step / 10:.1f} % "
              f"of the work; worst estimate {'; '.join(said)}", flush=True)
    if args.save:
        Path(args.save).write_text(json.dumps(solves))
    for label, window in (("before: the rate since the start", 0.0),
                          (f"now: the rate of the last {WINDOW:.0%} of the work", None),
                          *((f"(a window of {w:.0%})", w) for w in SCANNED)):
        wall = max((worst_error(s["wall"], s["end"], window) or 0.0) for s in solves)
        cpu = max((worst_error(s["cpu"], s["end_cpu"], window) or 0.0) for s in solves)
        print(f"over the game's {len(solves)} solves, from 10 % of the work on, {label}: "
              f"worst estimate {100 * wall:.0f} % off the time actually left (goal <= 30 %), "
              f"{100 * cpu:.0f} % on the CPU clock")
    print(f"solves over {SHOWN_FROM:.0f} s: at least {fewest} steps, none over "
          f"{largest / 10:.1f} % of the work")
    print(f"load average after: {load_average()}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
