"""Strategy sheets: the best action for every roll of one scorecard's turn."""

from __future__ import annotations

import csv
import io
from collections.abc import Iterator
from pathlib import Path
from typing import Any

from solver.game.dice import ROLLS
from solver.table import Table

from .advice import Advice, Option
from .caches import Caches
from .model import Dice, Scorecard
from .objective import EV, POINTS, Objective
from .ranking import check_rolls_left, turn_advisor
from .text import rolls_left_phrase

CSV_COLUMNS = ("dice", "rolls_left", "action", "keep", "box", "points", "bonus",
               "expected_final", "runner_up", "runner_up_loss")


def generate_advice(card: Scorecard, table: Table | None = None,
                    rolls_left: int | None = None,
                    objective: Objective = EV, *, memory: Caches) -> Iterator[Advice]:
    """The advice for each of the 252 rolls, at every number of rolls left (most first),
    or only at ``rolls_left``, ranked by ``objective`` (default: expected score); the
    turn's advisor kept in ``memory`` (a turn solved there is not solved again)."""
    per_turn = card.rules.rolls_per_turn
    if rolls_left is None:
        levels = list(range(per_turn - 1, -1, -1))
    else:
        check_rolls_left(rolls_left, per_turn)
        levels = [rolls_left]
    turn = turn_advisor(card, table, objective, memory=memory)  # solved once
    all_dice = [Dice(tuple(int(f) for f in roll)) for roll in ROLLS]
    for dice in all_dice:
        for j in levels:
            yield turn.advise(dice, j)


def strategy_json(card: Scorecard, table: Table | None = None,
                  rolls_left: int | None = None,
                  objective: Objective = EV, *, memory: Caches) -> dict[str, Any]:
    """The sheet as JSON: per roll and rolls left, the best option and the runner-up
    (``runner_up`` is null when there is only one choice; its ``loss`` is the cost)."""
    rows = []
    for advice in generate_advice(card, table, rolls_left, objective, memory=memory):
        second = advice.options[1] if len(advice.options) > 1 else None
        rows.append({"dice": list(advice.dice.faces), "rolls_left": advice.rolls_left,
                     "best": advice.best.to_json(),
                     "runner_up": second.to_json() if second is not None else None})
    return {"rules": card.rules_name, "card": card.to_json(), "objective": objective.to_json(),
            "rows": rows}


def _cell(advice: Advice) -> str:
    """``keep 2 2 2 (257.70); next keep 2 2 2 5 -3.24`` (under a target or win objective:
    ``keep 6 6 (17.61 %); next keep 6 6 6 16.02 %``)."""
    best = advice.best
    p = best.probability
    if p is not None:
        text = f"{best.describe()} ({100 * p:.2f} %)"
        if len(advice.options) > 1:
            second = advice.options[1]
            text += f"; next {second.describe()} {100 * (second.probability or 0.0):.2f} %"
        return text
    text = f"{best.describe()} ({best.expected_final:.2f})"
    if len(advice.options) > 1:
        second = advice.options[1]
        text += f"; next {second.describe()} -{second.loss:.2f}"
    return text


def strategy_markdown(card: Scorecard, table: Table | None = None,
                      rolls_left: int | None = None,
                      objective: Objective = EV, *, memory: Caches) -> str:
    """A markdown sheet: one row per roll, one column per number of rolls left."""
    rows: dict[Dice, dict[int, Advice]] = {}
    for advice in generate_advice(card, table, rolls_left, objective, memory=memory):
        rows.setdefault(advice.dice, {})[advice.rolls_left] = advice
    levels = sorted(next(iter(rows.values())), reverse=True)
    per_turn = card.rules.rolls_per_turn
    lines = [f"{SHEET_START}rules {card.rules_name}, turn {card.turn} of "
             f"{card.rules.n_boxes}",
             "",
             f"Card: {str(card) or '(new game)'}; total {card.total}. Each cell: the best "
             + ("action and the expected final score; then the runner-up and what it costs."
                if objective.unit == POINTS else
                f"action for {objective.describe()} and that probability; then the "
                "runner-up and its probability."),
             "",
             "| dice | " + " | ".join(rolls_left_phrase(j, per_turn).lower() for j in levels)
             + " |",
             "|---" * (len(levels) + 1) + "|"]
    for dice, by_level in rows.items():
        cells = " | ".join(_cell(by_level[j]) for j in levels)
        lines.append(f"| {dice.spaced()} | {cells} |")
    return "\n".join(lines) + "\n"


def _runner_up_loss(second: Option | None) -> str:
    """What the runner-up costs: expected points, or under a target or win objective the
    probability it gives away (``p_loss``)."""
    if second is None:
        return ""
    if second.p_loss is not None:
        return f"{second.p_loss:.12f}"
    return f"{second.loss:.6f}"


def strategy_csv(card: Scorecard, table: Table | None = None,
                 rolls_left: int | None = None, objective: Objective = EV, *,
                 memory: Caches) -> str:
    """CSV with one row per roll and number of rolls left (columns: ``CSV_COLUMNS``; under
    a target or win objective one more, ``p_target`` or ``win_share``, of the best option, and
    ``runner_up_loss`` is in probability)."""
    out = io.StringIO()
    writer = csv.writer(out, lineterminator="\n")
    writer.writerow(CSV_COLUMNS + ((objective.key,) if objective.key else ()))
    for advice in generate_advice(card, table, rolls_left, objective, memory=memory):
        o = advice.best
        second = advice.options[1] if len(advice.options) > 1 else None
        keep = "".join(map(str, o.keep.faces)) if o.keep is not None else ""
        writer.writerow([str(advice.dice), advice.rolls_left, o.action, keep, o.box or "",
                         "" if o.is_keep else o.points, "" if o.is_keep else o.bonus,
                         f"{o.expected_final:.6f}",
                         second.describe() if second is not None else "",
                         _runner_up_loss(second)]
                        + ([f"{o.probability:.12f}"] if o.probability is not None else []))
    return out.getvalue()


SHEET_START = "# Strategy sheet: "


def is_strategy_sheet(path: Path) -> bool:
    """True when the file at ``path`` holds a strategy sheet of ours (markdown, csv or
    JSON, told by its first 4 KB), so that ``strategy --out`` may replace it without
    ``--force``; anything else (a game record, your notes) is never replaced unasked."""
    try:
        with open(path, "rb") as f:
            head = f.read(4096).decode("utf-8", "replace")
    except OSError:
        return False
    if head.startswith((SHEET_START, ",".join(CSV_COLUMNS))):
        return True
    return head.startswith('{\n "rules": ') and '\n "rows": ' in head  # the --json sheet
