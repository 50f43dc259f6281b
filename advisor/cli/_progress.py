"""What the commands show on stderr while they work: progress bars, notes, and the
tables and figures they load (built or computed when missing, with a bar)."""

from __future__ import annotations

import sys
import time
from collections.abc import Callable
from typing import Any

import click
from tqdm import tqdm

from solver.moments import get_moments
from solver.solved_turn import solve_notes
from solver.stats_file import new_game_stats
from solver.table import get_table

from ..caches import Caches
from ..text import duration_text
from ..time_left import TimeLeft
from ._base import note


def progress_bar(desc: str, unit: str = "level"
                 ) -> tuple[Callable[[int, int], None], Callable[[], None]]:
    """A tqdm bar on stderr, shown from the first call of the progress callback
    ``(done, total)`` on; returns (callback, close)."""
    bars: list[Any] = []

    def update(done: int, total: int) -> None:
        if not bars:
            bars.append(tqdm(total=total, desc=desc, unit=unit, file=sys.stderr, leave=False,
                             unit_scale=unit == "game"))
        bars[0].total = total
        bars[0].n = done
        bars[0].refresh()

    def close() -> None:
        for bar in bars:
            bar.close()

    return update, close


WORK_FORMAT = "{desc}: {percentage:3.0f}%|{bar}| [{elapsed}<{remaining}{postfix}]"
"""A bar of work done (not of items): the share, and the time left
(:class:`~advisor.time_left.TimeLeft`: at the CPU rate of the recent work over the CPU share
the process gets now; ``?`` before it is estimated)."""


class _WorkBar(tqdm):
    """A tqdm bar whose time left is :class:`~advisor.time_left.TimeLeft`'s (``left``)."""

    left: float | None = None

    @property
    def format_dict(self) -> dict[str, Any]:
        out = super().format_dict
        left, ahead = self.left, (out["total"] or 0) - out["n"]
        out["rate"] = ahead / left if left is not None and ahead > 0 else 0
        return out


def work_bar(desc: str, clock: Callable[[], float] = time.monotonic,
             cpu: Callable[[], float] = time.process_time, *,
             left: Callable[[], float | None] | None = None
             ) -> tuple[Callable[[int, int], None], Callable[[str], None], Callable[[], None]]:
    """A bar for a progress of work ``(done, total)`` done in this process (a review's, a
    solve's), shown as a share and the time left from the first call on (its estimate on
    ``clock`` and the process's CPU clock ``cpu``), with a note after the bar
    (``note(text)``: what is under way, "" for none); returns (callback, note, close).
    ``left``: the time left of a work done elsewhere (a worker's solve), said instead."""
    bars: list[Any] = []
    pace, cpu_began = TimeLeft(clock()), cpu()

    def update(done: int, total: int) -> None:
        if not bars:
            bars.append(_WorkBar(total=total, desc=desc, file=sys.stderr, leave=False,
                                 bar_format=WORK_FORMAT))
        now = clock()
        pace.report(now, done, total, cpu() - cpu_began)
        bars[0].left = pace.seconds_left(now) if left is None else left()
        bars[0].total = total
        bars[0].n = done
        bars[0].refresh()

    def noted(text: str) -> None:
        if bars:
            bars[0].set_postfix_str(text)

    def close() -> None:
        for bar in bars:
            bar.close()

    return update, noted, close


def plan_lines(plan: Any, *, in_game: bool = False) -> list[str]:
    """What a review still works out, said before it starts (an
    :class:`advisor.analysis.ReviewPlan`): the turns, by player, and the time it takes
    (``in_game``: the review that ends a game, whose other turns were worked out during
    it)."""
    if not plan.turns and not plan.opponents_work:
        return []
    by_player: dict[str, list[int]] = {}
    for turn in plan.turns:
        by_player.setdefault(turn.player, []).append(turn.turn)
    named = "; ".join(f"{name}'s turn{'s' if len(numbers) > 1 else ''} "
                      f"{_numbers(numbers)}" for name, numbers in by_player.items())
    which = " not worked out during the game" if in_game else ""
    return [f"working out {plan.what} of {len(plan.turns)} turn"
            f"{'s' if len(plan.turns) != 1 else ''}{which} ({named}): about "
            f"{duration_text(plan.quiet_seconds)} on a quiet machine, longer under load"]


def _numbers(numbers: list[int]) -> str:
    """``1-4, 6, 9-13``."""
    runs: list[list[int]] = []
    for n in numbers:
        if runs and n == runs[-1][-1] + 1:
            runs[-1].append(n)
        else:
            runs.append([n])
    return ", ".join(str(r[0]) if len(r) == 1 else f"{r[0]}-{r[-1]}" for r in runs)


def command_memory() -> Caches:
    """The caches of the command that runs (:class:`~advisor.caches.Caches`): one per run
    of a command, held by click's root context (its ``obj``), made on first use; every
    question the command asks (a game's turns and its review, a sheet's rolls) is handed
    it, so nothing solved once is solved again. The next run starts empty, as a new
    process does (a test may hand several runs one, ``CliRunner().invoke(cli, args,
    obj=caches)``, as one process would keep it)."""
    return click.get_current_context().find_root().ensure_object(Caches)


def note_targets(card: Any, table: Any, objective: Any, memory: Caches,
                 solved: Any = ()) -> None:
    """Before a target question: say on stderr when the target table is unusable (it is
    then not used) or when the question is solved because no target table holds it
    (``solved``: every target it solves, when more than the objective's); before a
    tournament question, when the tournament's solve kept on disk is unusable.
    ``memory``: the command's caches (:func:`command_memory`)."""
    for text in solve_notes(card, table, objective.goal, memory, solved):
        note(text)


def load_table(rules_name: str, table_path: str | None = None):  # noqa: ANN201
    """The table of a rule set for a command, from the one factory
    (:func:`solver.table.get_table`): an explicit ``--table`` must exist and be valid;
    the cached default is built when missing, with a note and a progress bar on stderr."""
    update, close = progress_bar(f"solving {rules_name}")
    try:
        return get_table(rules_name, table_path, progress=update, note=note)
    finally:
        close()


def load_new_game_stats(table: Any) -> Any:
    """The exact statistics of a new game for ``table`` (the cached ones, computed when
    missing, with a note and a progress bar on stderr)."""

    update, close = progress_bar(f"stats {table.rules.name}")
    try:
        return new_game_stats(table, progress=update, note=note)
    finally:
        close()


def load_moments(table: Any) -> Any:
    """The per-state figures of ``advise --why`` for ``table`` (the cached ones, computed
    when missing, with a note and a progress bar on stderr)."""
    update, close = progress_bar(f"why figures {table.rules.name}")
    try:
        return get_moments(table, progress=update, note=note)
    finally:
        close()
