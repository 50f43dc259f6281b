"""``yahtzee strategy``: a printable strategy sheet for one scorecard."""

from __future__ import annotations

import json

import click

from solver.errors import shown_path
from solver.formats.files import atomic_write, check_target

from ..model import Scorecard
from ..objective import Objective
from ..ranking import check_rolls_left, turn_advisor
from ..request.params import OBJECTIVE_PARAMS, TOURNAMENT_PARAMS, options
from ..strategy import is_strategy_sheet, strategy_csv, strategy_json, strategy_markdown
from ._progress import command_memory, load_table, note_targets, progress_bar


@click.command()
@options("card", "rolls_left", "sheet_format", "json", "sheet_out", "force", *OBJECTIVE_PARAMS,
         *TOURNAMENT_PARAMS, "rules", "table",
         rolls_left={"help": "Only this number of rolls left (default: every one)."})
def strategy(card_text: str, rolls_left: int | None, fmt: str, as_json: bool,
             out_path: str | None, force: bool, target: str | None, beat: str | None,
             opponent: str | None, tournament: str | None, field: str | None,
             field_scores: str | None, rules_name: str, table_path: str | None) -> None:
    """The best action for each of the 252 rolls, at each number of rolls left, with the
    runner-up and what it costs.

    Example: yahtzee strategy --card twos=6,3k=20 --format csv --out sheet.csv
    """
    card = Scorecard.parse(card_text, rules_name)
    card.check_not_full()
    if rolls_left is not None:
        check_rolls_left(rolls_left, card.rules.rolls_per_turn)
    if out_path is not None:  # before any work: a record or notes are never replaced unasked
        check_target(out_path, force=force, replaceable=is_strategy_sheet)
    objective = Objective.parse_options(target=target, beat=beat, opponent=opponent,
                                        tournament=tournament, field=field,
                                        field_scores=field_scores, rules=rules_name)
    table = load_table(rules_name, table_path)
    memory = command_memory()
    if objective.solves_turns:  # solved here, with a progress bar; the sheet reuses the solve
        note_targets(card, table, objective, memory)
        update, close = progress_bar(objective.describe(), unit="step")
        try:
            turn_advisor(card, table, objective, memory=memory).solve(update)
        finally:
            close()
    if as_json:
        sheet = strategy_json(card, table, rolls_left, objective, memory=memory)
        text = json.dumps(sheet, indent=1) + "\n"
    else:
        render = strategy_csv if fmt == "csv" else strategy_markdown
        text = render(card, table, rolls_left, objective, memory=memory)
    if out_path is None:
        click.echo(text, nl=False)
        return
    atomic_write(out_path, text.encode("utf-8"), force=force, replaceable=is_strategy_sheet)
    click.echo(f"wrote {shown_path(out_path)}", err=True)
