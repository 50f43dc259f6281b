"""``yahtzee strategy``: a printable strategy sheet for one scorecard."""

from __future__ import annotations

import click

from ._advisor_options import (
    card_option,
    objective_options,
    parse_objective,
    rolls_left_option,
    table_option,
)
from ._base import cli, load_table, rules_option


@cli.command()
@card_option
@rolls_left_option("Only this number of rolls left (default: every one).")
@click.option("--format", "fmt", type=click.Choice(["md", "csv"]), default="md",
              show_default=True, help="md: one row per roll; csv: one row per roll and "
                                      "number of rolls left.")
@objective_options
@rules_option
@table_option
def strategy(card_text: str, rolls_left: int | None, fmt: str, target: str | None,
             beat: str | None, opponent: str | None, rules_name: str,
             table_path: str | None) -> None:
    """The best action for each of the 252 rolls, at each number of rolls left (for the
    expected score, or for --target/--beat/--opponent)."""
    from advisor.advise import check_rolls_left
    from advisor.model import Scorecard
    from advisor.strategy import strategy_csv, strategy_markdown

    card = Scorecard.parse(card_text, rules_name)
    card.check_not_full()
    if rolls_left is not None:
        check_rolls_left(rolls_left, card.rules.rolls_per_turn)
    objective = parse_objective(target, beat, opponent, rules_name)
    table = load_table(rules_name, table_path)
    render = strategy_csv if fmt == "csv" else strategy_markdown
    click.echo(render(card, table, rolls_left, objective), nl=False)
