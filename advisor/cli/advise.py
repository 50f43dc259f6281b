"""``yahtzee advise``: rank every keep and every box for one roll."""

from __future__ import annotations

import click

from ._advisor_options import (
    card_option,
    objective_options,
    parse_objective,
    rolls_left_option,
    table_option,
)
from ._base import cli, emit_json, json_option, load_table, rules_option


@cli.command()
@click.option("--dice", "dice_text", required=True, metavar="D",
              help="The five dice showing: 22256, 2,2,2,5,6 or '2 2 2 5 6'.")
@rolls_left_option("Rolls still allowed this turn: 2 after the first roll (default), "
                   "1 after the second, 0 after the last.")
@card_option
@click.option("--top", "top", type=click.IntRange(min=0), default=10, show_default=True,
              metavar="N", help="Show the N best options (0: all).")
@objective_options
@json_option
@rules_option
@table_option
def advise(dice_text: str, rolls_left: int | None, card_text: str, top: int,
           target: str | None, beat: str | None, opponent: str | None, as_json: bool,
           rules_name: str, table_path: str | None) -> None:
    """Rank every choice for these dice: each keep (reroll the rest) and each box, by
    expected final score or, with --target/--beat/--opponent, by the chance of reaching
    the target or beating the opponent."""
    from advisor.advise import advise as advise_turn
    from advisor.advise import question_rolls_left
    from advisor.model import Dice, Scorecard
    from advisor.text import advice_report

    dice = Dice.parse(dice_text)
    card = Scorecard.parse(card_text, rules_name)
    rolls_left = question_rolls_left(card, rolls_left)  # checked before any table is built
    objective = parse_objective(target, beat, opponent, rules_name)
    advice = advise_turn(card, dice, rolls_left=rolls_left,
                         table=load_table(rules_name, table_path), objective=objective)
    if as_json:
        emit_json(advice.to_json(top))
        return
    for line in advice_report(advice, top):
        click.echo(line)
