"""Strategy sheets: the best action for every roll of one scorecard's turn."""

from __future__ import annotations

import csv
import io
from collections.abc import Iterator
from typing import TYPE_CHECKING

from solver.dice import ROLLS

from .advise import TurnAdvisor, check_rolls_left
from .model import Dice, Option, Scorecard
from .objective import Objective
from .text import rolls_left_phrase

if TYPE_CHECKING:
    from solver.table import Table

CSV_COLUMNS = ("dice", "rolls_left", "action", "keep", "box", "points", "bonus",
               "expected_final")
"""Under a target or win objective the CSV has one more column, ``p_target`` or ``p_win``."""


def generate_best(card: Scorecard, table: Table | None = None,
                  rolls_left: int | None = None,
                  objective: Objective | None = None) -> Iterator[tuple[Dice, int, Option]]:
    """(dice, rolls left, best option) for each of the 252 rolls, at every number of
    rolls left (most first), or only at ``rolls_left``."""
    per_turn = card.rules.rolls_per_turn
    if rolls_left is None:
        levels = list(range(per_turn - 1, -1, -1))
    else:
        check_rolls_left(rolls_left, per_turn)
        levels = [rolls_left]
    turn = TurnAdvisor(card, table, objective)
    all_dice = [Dice(tuple(int(f) for f in roll)) for roll in ROLLS]
    for dice in all_dice:
        for j in levels:
            yield dice, j, turn.advise(dice, j).best


def _cell(option: Option) -> str:
    p = option.probability
    if p is not None:
        return f"{option.describe()} ({100 * p:.2f} %)"
    return f"{option.describe()} ({option.expected_final:.2f})"


def strategy_markdown(card: Scorecard, table: Table | None = None,
                      rolls_left: int | None = None,
                      objective: Objective | None = None) -> str:
    """A markdown sheet: one row per roll, one column per number of rolls left."""
    objective = Objective() if objective is None else objective
    rows: dict[Dice, dict[int, Option]] = {}
    for dice, j, option in generate_best(card, table, rolls_left, objective):
        rows.setdefault(dice, {})[j] = option
    levels = sorted(next(iter(rows.values())), reverse=True)
    per_turn = card.rules.rolls_per_turn
    lines = [f"# Strategy sheet: rules {card.rules_name}, turn {card.turn} of "
             f"{card.rules.n_boxes}",
             "",
             f"Card: {str(card) or '(new game)'}; total {card.total}. Each cell: the best "
             + ("action and the expected final score." if objective.is_ev else
                f"action for {objective.describe()} and that probability."),
             "",
             "| dice | " + " | ".join(rolls_left_phrase(j, per_turn).lower() for j in levels)
             + " |",
             "|---" * (len(levels) + 1) + "|"]
    for dice, by_level in rows.items():
        cells = " | ".join(_cell(by_level[j]) for j in levels)
        lines.append(f"| {dice.spaced()} | {cells} |")
    return "\n".join(lines) + "\n"


def strategy_csv(card: Scorecard, table: Table | None = None,
                 rolls_left: int | None = None, objective: Objective | None = None) -> str:
    """CSV with one row per roll and number of rolls left (columns: ``CSV_COLUMNS``, and
    the objective's probability under a target or win objective)."""
    objective = Objective() if objective is None else objective
    out = io.StringIO()
    writer = csv.writer(out, lineterminator="\n")
    writer.writerow(CSV_COLUMNS + ((objective.key,) if objective.key else ()))
    for dice, j, o in generate_best(card, table, rolls_left, objective):
        keep = "".join(map(str, o.keep.faces)) if o.keep is not None else ""
        p = o.probability
        writer.writerow([str(dice), j, o.action, keep, o.box or "",
                         "" if o.is_keep else o.points, "" if o.is_keep else o.bonus,
                         f"{o.expected_final:.6f}"] + ([f"{p:.12f}"] if p is not None else []))
    return out.getvalue()
