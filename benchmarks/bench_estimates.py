"""How good the time-left estimates of a game's win solves are.

Issue 45: the progress of a turn's solve (``play --objective win``, ``analyze``, the page)
was counted in levels of very different sizes, and its time left was 2 to 3 times off.
Now it counts work (the operations of the kernels: ``solver.target.task_operations``,
``solver.stats.stats_work``) in even pieces. This script solves every turn of a 13-turn
two-player game played to win, as the game does (``solve_turn``, each turn's own win
objective, the opponents' distributions as each turn needs them), records ``(elapsed,
done, total)`` at each report, and takes the estimate the front ends show
(``advisor.background.Solve.seconds_left``: the time so far times the work left over the
work done, shown from a twentieth of the work and 3 s on). Printed per solve: its time,
its number of steps and largest step, the worst error of the estimate against the time
actually left from 10 % of the work on; then the worst over the game (goal: within 30 %,
at least 20 even steps). Beside the wall clock's error, the same estimate on the
process's CPU clock: the error the work counts make by themselves, whatever the other
programs on the machine do (on a busy machine the wall's rate changes as they start and
stop, and no estimate from the work done can know that).

    python benchmarks/bench_estimates.py [--turns N]
"""

from __future__ import annotations

import argparse
import time

from _fresh import load_average
from bench_analyze import two_player_record

SHOWN_FROM = 3.0
"""Seconds before an estimate is shown (as ``Solve.seconds_left``)."""


def worst_error(reports: list[tuple[float, int, int]], end: float) -> float | None:
    """The largest |estimate - actual| / actual from 10 % of the work on, where an
    estimate is shown; None when none is."""
    worst = None
    for elapsed, done, total in reports:
        if done * 10 < total or elapsed < SHOWN_FROM or done >= total:
            continue
        estimate = max((total - done) * elapsed / done, 1.0)
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


def main() -> int:
    from advisor.caches import caches
    from advisor.model import Scorecard
    from advisor.objective import Objective
    from solver.solved_turn import solve_turn
    from solver.table import open_table
    from solver.warmup import warm_up

    parser = argparse.ArgumentParser()
    parser.add_argument("--turns", type=int, default=26, help="the game's first N turns")
    args = parser.parse_args()
    table = open_table("official", build=True)
    warm_up("official", everything=True)
    record = two_player_record(table)
    print(f"load average before: {load_average()}", flush=True)
    cards = {name: Scorecard.new(table.rules.name) for name in record.players}
    worst_all, worst_cpu, fewest, largest = 0.0, 0.0, None, 0
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
        if not reports:
            print(f"{turn.player} turn {card.turn}: {end:.1f} s, read (no solve)", flush=True)
            continue
        dones = [0] + [d * 1000 // t for _, d, t in reports]
        step = max(b - a for a, b in zip(dones, dones[1:], strict=False))
        worst = worst_error(reports, end)
        if end >= SHOWN_FROM:
            fewest = len(reports) if fewest is None else min(fewest, len(reports))
            largest = max(largest, step)
        worst_all = max(worst_all, worst or 0.0)
        cpu = worst_error(on_cpu, end_cpu)
        worst_cpu = max(worst_cpu, cpu or 0.0)
        said = "no estimate shown" if worst is None else f"worst estimate {100 * worst:.0f} % off"
        said += "" if cpu is None else f" ({100 * cpu:.0f} % on the CPU clock, {end_cpu:.1f} s)"
        print(f"{turn.player} turn {card.turn} ({len(card.open_boxes())} open, value "
              f"{solved.value:.4f}): {end:.1f} s, {len(reports)} steps, the largest "
              f"{step / 10:.1f} % of the work; {said}", flush=True)
    print(f"over the game, from 10 % of the work on: worst estimate {100 * worst_all:.0f} % "
          f"off the time actually left (goal <= 30 %), {100 * worst_cpu:.0f} % on the CPU "
          f"clock; solves over {SHOWN_FROM:.0f} s: at "
          f"least {fewest} steps, none over {largest / 10:.1f} % of the work")
    print(f"load average after: {load_average()}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
