"""``yahtzee strategy``: a printable strategy sheet for one scorecard."""

from __future__ import annotations

import json

import click

from ._advisor_options import (
    card_option,
    objective_options,
    parse_objective,
    rolls_left_option,
    table_option,
)
from ._base import cli, json_option, load_table, rules_option


@cli.command(short_help="Best action for all 252 rolls of a card.")
@card_option
@rolls_left_option("Only this number of rolls left (default: every one).")
@click.option("--format", "fmt", type=click.Choice(["md", "csv"]), default="md",
              show_default=True, help="md: one row per roll; csv: one row per roll and "
                                      "number of rolls left.")
@json_option
@click.option("--out", "out_path", default=None, metavar="FILE",
              help="Write the sheet to FILE (a new or regular file) instead of stdout.")
@objective_options
@rules_option
@table_option
def strategy(card_text: str, rolls_left: int | None, fmt: str, as_json: bool,
             out_path: str | None, target: str | None, beat: str | None,
             opponent: str | None, rules_name: str, table_path: str | None) -> None:
    """The best action for each of the 252 rolls, at each number of rolls left, with the
    runner-up and what it costs.

    Example: yahtzee strategy --card twos=6,3k=20 --format csv --out sheet.csv
    """
    from advisor.advise import check_rolls_left
    from advisor.model import Scorecard
    from advisor.record_file import check_record_path
    from advisor.strategy import strategy_csv, strategy_json, strategy_markdown

    card = Scorecard.parse(card_text, rules_name)
    card.check_not_full()
    if rolls_left is not None:
        check_rolls_left(rolls_left, card.rules.rolls_per_turn)
    if out_path is not None:
        from pathlib import Path

        check_record_path(Path(out_path), exist_ok=True)
    objective = parse_objective(target, beat, opponent, rules_name)
    table = load_table(rules_name, table_path)
    if as_json:
        text = json.dumps(strategy_json(card, table, rolls_left, objective), indent=1) + "\n"
    else:
        render = strategy_csv if fmt == "csv" else strategy_markdown
        text = render(card, table, rolls_left, objective)
    if out_path is None:
        click.echo(text, nl=False)
        return
    from advisor.record_file import write_text_file

    write_text_file(out_path, text)
    click.echo(f"wrote {out_path}", err=True)
